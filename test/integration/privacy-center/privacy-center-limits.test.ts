/**
 * The privacy center's abuse limits and optional parts (PRODUCT §2.15): 5 submissions a minute per
 * client IP and 3 codes an hour per address (429 + Retry-After), in-process and shared by two
 * `serve` processes through Redis (database 7 of 127.0.0.1:6379, flushed here only); the CAPTCHA
 * through a loopback `siteverify`; an unreachable SMTP or Redis named in /readyz while requests succeed.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, postgresDatabase, type TestDatabase } from '../../helpers/databases.js';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';
import { call, type ServiceProcess, startService } from '../../helpers/service-process.js';

const REDIS_URL = 'redis://127.0.0.1:6379/7';
const redisUp = await (async () => {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  r.on('error', () => {});
  try {
    await r.connect();
    await r.flushdb();
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
})();

for (const dialect of dialects()) {
  describe(`privacy center limits (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let captcha: Server;
    const captchaCalls: string[] = [];
    const submit = (payload: object, ip: string) =>
      t.app.inject({ method: 'POST', url: '/privacy-center/v1/acme/requests', payload, remoteAddress: ip });

    before(async () => {
      database = await dialect.create();
      captcha = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const form = new URLSearchParams(body);
          captchaCalls.push(`${form.get('secret')}:${form.get('response')}`);
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ success: form.get('response') === 'solved' }));
        });
      });
      await new Promise<void>((resolve) => captcha.listen(0, '127.0.0.1', resolve));
      t = await startTestApp(database, {
        env: {
          CAPTCHA_VERIFY_URL: `http://127.0.0.1:${(captcha.address() as AddressInfo).port}/siteverify`,
          CAPTCHA_SECRET: 'test-secret',
          SMTP_URL: 'smtp://127.0.0.1:1',
        },
      });
      await t.services.privacyCenter.put('acme', { enabled: true, request_types: ['access'] }, 'test');
    });
    after(async () => {
      await t.close();
      await database.drop();
      await new Promise<void>((resolve) => captcha.close(() => resolve()));
    });

    it('asks the siteverify endpoint: a missing token is 422 missing, a refused one 422 captcha_failed', async () => {
      const missing = await submit({ request_type: 'access', email: 'a@example.com' }, '10.1.0.1');
      assert.equal(missing.statusCode, 422);
      assert.deepEqual(missing.json().detail[0].loc, ['body', 'captcha_token']);
      assert.equal(missing.json().detail[0].type, 'missing');
      const refused = await submit({ request_type: 'access', email: 'a@example.com', captcha_token: 'robot' }, '10.1.0.2');
      assert.equal(refused.statusCode, 422);
      assert.equal(refused.json().detail[0].type, 'captcha_failed');
      const ok = await submit({ request_type: 'access', email: 'a@example.com', captcha_token: 'solved' }, '10.1.0.3');
      assert.equal(ok.statusCode, 202);
      assert.deepEqual(captchaCalls, ['test-secret:robot', 'test-secret:solved']);
    });

    it('allows 5 submissions a minute per client IP, then 429 with Retry-After', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await submit({ request_type: 'access', email: `ip${i}@example.com`, captcha_token: 'solved' }, '10.2.0.1');
        assert.equal(res.statusCode, 202, res.body);
      }
      const over = await submit({ request_type: 'access', email: 'ip5@example.com', captcha_token: 'solved' }, '10.2.0.1');
      assert.equal(over.statusCode, 429);
      const retry = Number(over.headers['retry-after']);
      assert.ok(retry >= 1 && retry <= 60, String(retry));
      assert.equal(
        (await submit({ request_type: 'access', email: 'ip5@example.com', captcha_token: 'solved' }, '10.2.0.2')).statusCode,
        202,
      );
    });

    it('mails 3 codes an hour per address, whatever the IP, then 429', async () => {
      for (let i = 0; i < 3; i++) {
        assert.equal(
          (await submit({ request_type: 'access', email: 'Same@example.com', captcha_token: 'solved' }, `10.3.0.${i}`))
            .statusCode,
          202,
        );
      }
      const over = await submit({ request_type: 'access', email: 'same@EXAMPLE.com', captcha_token: 'solved' }, '10.3.0.9');
      assert.equal(over.statusCode, 429);
      assert.ok(Number(over.headers['retry-after']) > 60);
      const codes = await t.services.database.db
        .selectFrom('privacy_center_submissions')
        .select('id')
        .where('email', '=', 'same@example.com')
        .execute();
      assert.equal(codes.length, 3);
    });

    it('names an unreachable SMTP in /readyz; submissions still succeed (the mail waits)', async () => {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      assert.equal(ready.json().status, 'ready');
      assert.ok(
        ready.json().degraded.some((p: string) => p.startsWith('smtp unreachable (127.0.0.1:1)')),
        ready.body,
      );
      const unsent = await t.services.database.db
        .selectFrom('privacy_center_mails')
        .select('id')
        .where('sent_at', 'is', null)
        .execute();
      assert.ok(unsent.length > 0);
    });
  });
}

// Under CI=true the Redis leg runs, never skips (.ci/run starts Redis when it does not answer).
if (process.env.CI === 'true' && !redisUp) throw new Error('CI=true but Redis does not answer at 127.0.0.1:6379');

describe('privacy center limits shared by two serve processes through Redis (postgres)', () => {
  const baseUrl = process.env.TEST_DATABASE_URL;
  const skip = !baseUrl ? 'TEST_DATABASE_URL is unset' : !redisUp ? 'Redis does not answer at 127.0.0.1:6379' : false;
  let database: TestDatabase;
  let cli: BuiltCli;
  let services: ServiceProcess[] = [];

  before(async () => {
    if (skip) return;
    database = await postgresDatabase(baseUrl!);
    // Migrate and switch the center on through the services, then start two real servers.
    const t = await startTestApp(database);
    await t.services.privacyCenter.put('acme', { enabled: true, request_types: ['access'] }, 'test');
    await t.close();
    cli = buildPrivacyctl();
    const env = { DATABASE_URL: database.url, REDIS_URL, TRUST_PROXY: 'true', WORKER_IN_SERVER: 'false' };
    services = await Promise.all([startService(cli.bin, env), startService(cli.bin, env)]);
  });
  after(async () => {
    for (const s of services) s.kill();
    await Promise.all(services.map((s) => s.exited));
    if (database) await database.drop();
    cli?.remove();
  });

  it('counts one client IP and one address across both processes', { skip }, async () => {
    const post = (i: number, email: string, ip: string) =>
      call(`${services[i % 2]!.url}/privacy-center/v1/acme/requests`, {
        method: 'POST',
        headers: { 'x-forwarded-for': ip },
        body: { request_type: 'access', email },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post(i, `shared${i}@example.com`, '10.9.0.1')).status);
    assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
    const perAddress: number[] = [];
    for (let i = 0; i < 4; i++) perAddress.push((await post(i, 'one@example.com', `10.9.1.${i}`)).status);
    assert.deepEqual(perAddress, [202, 202, 202, 429]);
    const ready = await call(`${services[0]!.url}/readyz`);
    assert.deepEqual(ready.body, { status: 'ready' });
  });
});
