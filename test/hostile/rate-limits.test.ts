/** Per-token and per-source rate limits: 429 + Retry-After, probes exempt (docs/protection.md). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ConfigError, loadConfig, PROTECTION_DEFAULTS } from '../../src/config.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';
import { createBody } from '../helpers/requests.js';
import { tableCounts } from './table-counts.js';

/** A 429 exactly as PRODUCT.md §2.1 says: `{"detail": sentence}` and a whole number of seconds. */
function assertTooMany(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 429, res.body);
  assert.deepEqual(Object.keys(res.json()), ['detail']);
  assert.equal(typeof res.json().detail, 'string');
  const retryAfter = String(res.headers['retry-after']);
  assert.match(retryAfter, /^\d+$/);
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, retryAfter);
}

describe('rate-limit configuration (src/config.ts)', () => {
  it('has production defaults and names every bad variable at once', () => {
    assert.deepEqual(loadConfig({}).protection, PROTECTION_DEFAULTS);
    assert.throws(
      () =>
        loadConfig({
          RATE_LIMIT_PER_TOKEN: '-1',
          RATE_LIMIT_PER_SOURCE: 'many',
          REQUEST_TIMEOUT_MS: '1000',
          HEADERS_TIMEOUT_MS: '2000',
          KEEP_ALIVE_TIMEOUT_MS: '5s',
          TRUST_PROXY: 'yes please',
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        for (const name of [
          'RATE_LIMIT_PER_TOKEN',
          'RATE_LIMIT_PER_SOURCE',
          'HEADERS_TIMEOUT_MS',
          'KEEP_ALIVE_TIMEOUT_MS',
          'TRUST_PROXY',
        ]) {
          assert.ok(
            error.problems.some((p) => p.startsWith(name)),
            `${name} in ${error.problems.join('; ')}`,
          );
        }
        return true;
      },
    );
    const p = loadConfig({ RATE_LIMIT_PER_TOKEN: '0', TRUST_PROXY: '2' }).protection;
    assert.equal(p.rateLimitPerToken, 0);
    assert.equal(p.trustProxy, 2);
  });
});

for (const dialect of dialects()) {
  describe(`rate limits (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let reader: string;
    let other: string;
    const list = (authorization: string | undefined, remoteAddress = '10.0.0.1') =>
      t.app.inject({
        url: '/api/v1/privacy/requests?workspace_id=acme',
        headers: authorization ? { authorization } : {},
        remoteAddress,
      });
    const webhook = (remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/webhook/prhost', headers, payload: '{}', remoteAddress });

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { env: { RATE_LIMIT_PER_TOKEN: '3', RATE_LIMIT_PER_SOURCE: '2' } });
      reader = await t.bearer(['privacy:read', 'privacy:write']);
      other = await t.bearer(['privacy:read']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('counts per token: three answers with X-RateLimit-Remaining 2, 1, 0, then 429 with Retry-After; another token is unaffected', async () => {
      for (const remaining of ['2', '1', '0']) {
        const res = await list(reader, `10.1.0.${remaining}`);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['x-ratelimit-limit'], '3');
        assert.equal(res.headers['x-ratelimit-remaining'], remaining);
      }
      assertTooMany(await list(reader, '10.1.0.9'));
      // Another spelling of the same credential shares its bucket.
      assertTooMany(await list(reader.replace('Bearer ', 'bearer   ')));
      assert.equal((await list(other)).statusCode, 200);
    });

    it('stores nothing for a create refused with 429', async () => {
      const writer = await t.bearer(['privacy:write']);
      for (let i = 0; i < 3; i++) await list(writer);
      const before = await tableCounts(t.services);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: writer, 'idempotency-key': 'rate-limited-0001' },
        payload: createBody(),
      });
      assertTooMany(res);
      assert.deepEqual(await tableCounts(t.services), before);
    });

    it('counts /api/v1 requests without credentials per source IP (401, 401, 401, then 429)', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await list(undefined, '10.2.0.1')).statusCode, 401);
      assertTooMany(await list(undefined, '10.2.0.1'));
      assert.equal((await list(undefined, '10.2.0.2')).statusCode, 401);
    });

    it('counts webhooks and other unauthenticated routes per source IP, and never the probes', async () => {
      assert.equal((await webhook('10.3.0.1')).statusCode, 401);
      assert.equal((await t.app.inject({ url: '/openapi.json', remoteAddress: '10.3.0.1' })).statusCode, 200);
      assertTooMany(await webhook('10.3.0.1'));
      assertTooMany(await t.app.inject({ url: '/no-such-route', remoteAddress: '10.3.0.1' }));
      assert.equal((await webhook('10.3.0.2')).statusCode, 401);
      for (let i = 0; i < 5; i++) {
        for (const url of ['/healthz', '/readyz', '/metrics']) {
          const res = await t.app.inject({ url, remoteAddress: '10.3.0.1' });
          assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
          assert.equal(res.headers['x-ratelimit-limit'], undefined);
        }
      }
    });

    it('ignores X-Forwarded-For unless TRUST_PROXY is set (a client cannot pick its own bucket)', async () => {
      for (let i = 0; i < 2; i++) await webhook('10.4.0.1', { 'x-forwarded-for': `192.0.2.${i}` });
      assertTooMany(await webhook('10.4.0.1', { 'x-forwarded-for': '192.0.2.77' }));
    });
  });

  describe(`rate limits behind a trusted proxy, and off (${dialect.name})`, () => {
    // One database each: two SQLite connections in one process stall each other (docs/development.md).
    let databases: TestDatabase[];
    let proxied: TestApp;
    let off: TestApp;

    before(async () => {
      databases = [await dialect.create(), await dialect.create()];
      proxied = await startTestApp(databases[0]!, { env: { RATE_LIMIT_PER_SOURCE: '1', TRUST_PROXY: '10.9.0.1' } });
      off = await startTestApp(databases[1]!, { env: { RATE_LIMIT_PER_TOKEN: '0', RATE_LIMIT_PER_SOURCE: '0' } });
    });
    after(async () => {
      await proxied.close();
      await off.close();
      for (const database of databases) await database.drop();
    });

    it('keys by the X-Forwarded-For client when the proxy is trusted', async () => {
      const send = (client: string) =>
        proxied.app.inject({ url: '/openapi.json', headers: { 'x-forwarded-for': client }, remoteAddress: '10.9.0.1' });
      assert.equal((await send('198.51.100.1')).statusCode, 200);
      assertTooMany(await send('198.51.100.1'));
      assert.equal((await send('198.51.100.2')).statusCode, 200);
    });

    it('never answers 429 and sends no rate-limit headers when both limits are 0', async () => {
      const auth = await off.bearer(['privacy:read']);
      for (let i = 0; i < 30; i++) {
        const api = await off.app.inject({ url: '/api/v1/privacy/requests?workspace_id=acme', headers: { authorization: auth } });
        const hook = await off.app.inject({ method: 'POST', url: '/webhook/prhost', payload: '{}' });
        assert.equal(api.statusCode, 200);
        assert.equal(hook.statusCode, 401);
        assert.equal(api.headers['x-ratelimit-limit'], undefined);
      }
    });
  });
}
