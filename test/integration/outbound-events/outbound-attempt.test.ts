/**
 * One outbound delivery attempt against real loopback receivers (issue 14 part 1, PRODUCT §2.8):
 * a signed delivery verified with `standardwebhooks` (both secrets during a rotation), and the
 * bad receivers: 500, a hang past the timeout, a redirect (never followed), a closed connection,
 * a slow answer with a huge body (read to 4 KiB only). Private networks are allowed here
 * (loopback receivers); the default refuses them.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { attemptDelivery, RESPONSE_BODY_LIMIT } from '../../../src/modules/outbound-events/http-attempt.js';
import { newEndpointSecret, signatureHeaders } from '../../../src/modules/outbound-events/signing.js';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('outbound delivery attempt (loopback receivers)', () => {
  let server: Server;
  let base: string;
  const received: Received[] = [];
  let hugeBytesWritten = 0;
  const routes: Record<string, (res: ServerResponse) => void> = {
    '/ok': (res) => res.writeHead(204).end(),
    '/fail': (res) => res.writeHead(500).end('boom'),
    '/hang': () => undefined,
    '/redirect': (res) => res.writeHead(302, { location: '/ok' }).end(),
    '/close': (res) => res.socket?.destroy(),
    '/huge': (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(1024);
      const timer = setInterval(() => {
        if (res.destroyed || hugeBytesWritten >= 10 * 1024 * 1024) {
          clearInterval(timer);
          res.end();
          return;
        }
        hugeBytesWritten += chunk.length;
        res.write(chunk);
      }, 20);
    },
  };

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body });
        (routes[req.url ?? ''] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const payload = JSON.stringify({
    type: 'privacy_request.created',
    timestamp: '2026-11-24T00:00:00.000Z',
    data: { id: 'pr_1' },
  });
  const send = (path: string, secrets = [newEndpointSecret()], timeoutMs = 2000) =>
    attemptDelivery(`${base}${path}`, { ...signatureHeaders('msg_TEST1', new Date(), payload, secrets) }, payload, {
      allowPrivate: true,
      timeoutMs,
    });

  it('delivers a body the receiver verifies with standardwebhooks, under either secret during a rotation', async () => {
    const current = newEndpointSecret();
    const previous = newEndpointSecret();
    assert.match(current, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const outcome = await send('/ok', [current, previous]);
    assert.deepEqual(
      { ok: outcome.ok, status: outcome.status_code, error: outcome.error },
      { ok: true, status: 204, error: null },
    );
    const got = received.at(-1) as Received;
    assert.equal(got.body, payload);
    assert.equal(String(got.headers['webhook-signature']).split(' ').length, 2);
    for (const secret of [current, previous]) {
      assert.deepEqual(new Webhook(secret).verify(got.body, got.headers as Record<string, string>), JSON.parse(payload));
    }
    assert.throws(() => new Webhook(newEndpointSecret()).verify(got.body, got.headers as Record<string, string>));
  });

  it('counts a 500 as a failure with its status code', async () => {
    const outcome = await send('/fail');
    assert.deepEqual(
      { ok: outcome.ok, status: outcome.status_code, error: outcome.error },
      { ok: false, status: 500, error: 'http_500' },
    );
  });

  it('gives up on a receiver that hangs past the timeout', async () => {
    const outcome = await send('/hang', undefined, 300);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error, 'timeout');
    assert.ok(outcome.duration_ms >= 250 && outcome.duration_ms < 1500, String(outcome.duration_ms));
  });

  it('never follows a redirect: a 3xx is a failure and the target is not called', async () => {
    const before = received.length;
    const outcome = await send('/redirect');
    assert.deepEqual(
      { ok: outcome.ok, status: outcome.status_code, error: outcome.error },
      { ok: false, status: 302, error: 'redirect' },
    );
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(
      received.slice(before).map((r) => r.path),
      ['/redirect'],
    );
  });

  it('counts a closed connection as a failure', async () => {
    const outcome = await send('/close');
    assert.equal(outcome.ok, false);
    assert.equal(outcome.status_code, null);
    assert.match(outcome.error ?? '', /^connection: /);
  });

  it('reads a slow, huge body only to 4 KiB and stops', async () => {
    const outcome = await send('/huge', undefined, 5000);
    assert.deepEqual({ ok: outcome.ok, status: outcome.status_code }, { ok: true, status: 200 });
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(hugeBytesWritten < 64 * 1024, `receiver wrote ${hugeBytesWritten} bytes`);
    assert.ok(hugeBytesWritten >= RESPONSE_BODY_LIMIT);
  });

  it('refuses a loopback receiver unless private networks are allowed', async () => {
    const before = received.length;
    const outcome = await attemptDelivery(`${base}/ok`, {}, payload, { allowPrivate: false, timeoutMs: 2000 });
    assert.equal(outcome.ok, false);
    assert.match(outcome.error ?? '', /^forbidden: /);
    assert.equal(received.length, before);
  });
});
