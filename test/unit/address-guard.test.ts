/**
 * SSRF guard of outbound deliveries (issue 14 part 1, PRODUCT §2.8): forbidden ranges in IPv4,
 * IPv6 and IPv4-mapped IPv6, decimal and octal host spellings, https-only, and a lookup that
 * refuses a name resolving to loopback (a real request to a real loopback server).
 */
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import {
  checkDestination,
  ForbiddenDestinationError,
  guardedLookup,
  isForbiddenAddress,
} from '../../src/modules/outbound-events/address-guard.js';

describe('outbound address guard', () => {
  it('forbids loopback, private, link-local, CGNAT, multicast, unspecified and metadata addresses', () => {
    const forbidden = [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '169.254.1.1',
      '100.64.0.1',
      '100.127.255.254',
      '224.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fd00:ec2::254',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      'not-an-ip',
    ];
    for (const address of forbidden) assert.equal(isForbiddenAddress(address), true, address);
  });

  it('allows public unicast addresses, IPv4-mapped ones included', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '100.63.255.255', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      assert.equal(isForbiddenAddress(address), false, address);
    }
  });

  it('forbids every IPv6 form that embeds an IPv4 address (issue 23 item 5): IPv4-compatible ::/96 whole, NAT64, 6to4, Teredo, SIIT, ISATAP', () => {
    const forbidden = [
      // IPv4-compatible ::/96, whatever it embeds, in every spelling (glibc prints them dotted).
      '::127.0.0.1',
      '::7f00:1',
      '::8.8.8.8',
      '::808:808',
      '::a9fe:a9fe',
      '0:0:0:0:0:0:7f00:1',
      '::127.0.0.1%eth0',
      // NAT64 (well-known and local-use prefixes), 6to4, Teredo, SIIT: refused whole.
      '64:ff9b::8.8.8.8',
      '64:ff9b:1::808:808',
      '2002:7f00:1::1',
      '2002:808:808::1',
      '2001::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '::ffff:0:127.0.0.1',
      '::ffff:0:8.8.8.8',
      // ISATAP interface identifiers embedding a forbidden IPv4.
      '2606:4700::5efe:7f00:1',
      '2606:4700::200:5efe:a9fe:a9fe',
    ];
    for (const address of forbidden) assert.equal(isForbiddenAddress(address), true, address);
    // ISATAP embedding a public IPv4, and plain public IPv6, stay allowed.
    for (const address of ['2606:4700::5efe:808:808', '2a00:1450:4001::200e'])
      assert.equal(isForbiddenAddress(address), false, address);
    for (const url of [
      'https://[::127.0.0.1]/',
      'https://[::7f00:1]/',
      'https://[::8.8.8.8]/',
      'https://[64:ff9b::7f00:1]/',
      'https://[2002:7f00:1::]/',
    ]) {
      assert.throws(() => checkDestination(url, false), ForbiddenDestinationError, url);
    }
  });

  it('judges decimal, octal, hex and IPv6 host spellings as the address they mean', () => {
    for (const url of [
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://0x7f.1/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00:ec2::254]/',
    ]) {
      assert.throws(() => checkDestination(url, false), ForbiddenDestinationError, url);
      assert.doesNotThrow(() => checkDestination(url, true), url);
    }
  });

  it('accepts https only (http too with private networks allowed), no credentials, absolute URLs', () => {
    assert.equal(checkDestination('https://hooks.example.com/x', false).hostname, 'hooks.example.com');
    assert.throws(() => checkDestination('http://hooks.example.com/x', false), /https/);
    assert.doesNotThrow(() => checkDestination('http://hooks.example.com/x', true));
    assert.throws(() => checkDestination('ftp://hooks.example.com/x', true), /https/);
    assert.throws(() => checkDestination('https://user:pw@hooks.example.com/', false), /credentials/);
    assert.throws(() => checkDestination('/relative', false), /valid absolute URL/);
  });

  it('refuses a name that resolves to loopback before connecting, and connects when allowed', async () => {
    let received = 0;
    const server = createServer((_req, res) => {
      received += 1;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const get = (allowPrivate: boolean) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: 'localhost', port, family: 4, lookup: guardedLookup(allowPrivate) as never }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      await assert.rejects(get(false), ForbiddenDestinationError);
      assert.equal(received, 0);
      assert.equal(await get(true), 200);
      assert.equal(received, 1);
    } finally {
      server.close();
    }
  });
});
