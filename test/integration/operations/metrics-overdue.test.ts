/**
 * The deadline gauges of `/metrics` (src/metrics.ts): `privacy_requests_overdue` and
 * `privacy_requests_due_soon` by regulation, computed from the database with the service's clock;
 * a request leaves them once completed, canceled or extended (PRODUCT.md §2.3). A count is reused
 * for DEADLINE_GAUGE_CACHE_MS (5 s) by default; most tests here count at every scrape (0).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../../src/app.js';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { createMetrics, DEADLINE_GAUGE_CACHE_MS, type Metrics } from '../../../src/metrics.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { createBody, manualClock } from '../../helpers/requests.js';

const RECEIVED = '2026-03-02T10:00:00.000Z';
const GDPR_DUE = '2026-04-02T10:00:00.000Z'; // one calendar month
const CCPA_DUE = '2026-04-16T10:00:00.000Z'; // 45 days

/** The value of `name{regulation="…"}` in a Prometheus text body, or undefined when the series is absent. */
function sample(body: string, name: string, regulation: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${name}{regulation="${regulation}"} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

for (const dialect of dialects()) {
  describe(`deadline metrics (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let app: FastifyInstance;
    let metrics: Metrics;
    let auth: string;
    let serial = 0;
    const time = manualClock(RECEIVED);

    const scrape = async (from: FastifyInstance = app) => {
      const res = await from.inject('/metrics');
      assert.equal(res.statusCode, 200);
      return res.body;
    };
    const gauges = async (regulation: string, from: FastifyInstance = app) => {
      const body = await scrape(from);
      return {
        overdue: sample(body, 'privacy_requests_overdue', regulation),
        due_soon: sample(body, 'privacy_requests_due_soon', regulation),
      };
    };
    const file = async (workspaceId: string) => {
      serial += 1;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: auth, 'idempotency-key': `metrics-key-${serial}-${dialect.name}` },
        payload: createBody({ workspace_id: workspaceId, client_request_id: `metrics-${serial}-${dialect.name}` }),
      });
      assert.equal(res.statusCode, 202, res.body);
      return res.json() as { id: string; regulation: string; due_at: string };
    };
    const act = async (id: string, action: 'cancel' | 'extend') => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${id}/${action}`,
        headers: { authorization: auth },
        payload: { reason: 'ticket 4821' },
      });
      assert.equal(res.statusCode, 200, res.body);
    };

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: time.clock });
      metrics = createMetrics({ db: t.services.database.db, clock: time.clock, deadlineCacheMs: 0 });
      // The same services, served by an app whose metrics have the database.
      app = await buildApp({ services: t.services, metrics, logLevel: 'silent', bodyLimitBytes: 1 << 20 });
      auth = await t.bearer(['privacy:write', 'privacy:read'], ['acme', 'globex', 'initech']);
      await t.services.policies.putLayer('globex', null, { regulations: ['ccpa'] }, 'test');
      await t.services.policies.putLayer('initech', null, { regulations: ['gdpr', 'ccpa'] }, 'test');
      // acme's requests are for an unknown subject on purpose: a named controller and no review of
      // unmatched identities (PRODUCT §2.13) let the worker complete them.
      await t.services.controllers.put('acme', { name: 'Acme GmbH', contact_email: 'privacy@acme.example' }, 'test');
      await t.services.policies.putLayer('acme', null, { confirm_no_data: false }, 'test');
    });
    beforeEach(async () => {
      time.set(RECEIVED);
      await t.services.database.db.deleteFrom('privacy_requests').execute();
    });
    after(async () => {
      await app.close();
      await t.close();
      await database.drop();
    });

    it('are absent when the metrics have no database; the processed counter is there', async () => {
      const plain = await createMetrics().registry.metrics();
      assert.doesNotMatch(plain, /privacy_requests_overdue|privacy_requests_due_soon/);
      assert.match(plain, /# TYPE privacy_requests_processed_total counter/);
      metrics.requestsProcessed.inc({ request_type: 'access', outcome: 'completed' });
      assert.match(await scrape(), /privacy_requests_processed_total\{request_type="access",outcome="completed"\} 1/);
    });

    it('show every regulation at 0 when nothing is due', async () => {
      await file('acme');
      for (const regulation of ['gdpr', 'ccpa', 'ccpa+gdpr'])
        assert.deepEqual(await gauges(regulation), { overdue: 0, due_soon: 0 });
    });

    it('count a request as due soon in its last 7 days, then as overdue past its due date', async () => {
      const filed = await file('acme');
      assert.deepEqual([filed.regulation, filed.due_at], ['gdpr', GDPR_DUE]);
      time.set('2026-03-26T09:59:59.999Z');
      assert.deepEqual(await gauges('gdpr'), { overdue: 0, due_soon: 0 });
      time.set('2026-03-26T10:00:00.000Z');
      assert.deepEqual(await gauges('gdpr'), { overdue: 0, due_soon: 1 });
      time.set(GDPR_DUE);
      assert.deepEqual(await gauges('gdpr'), { overdue: 0, due_soon: 1 });
      time.set('2026-04-02T10:00:00.001Z');
      assert.deepEqual(await gauges('gdpr'), { overdue: 1, due_soon: 0 });
    });

    it('label requests by their regulation', async () => {
      const ccpa = await file('globex');
      const both = await file('initech');
      assert.deepEqual([ccpa.regulation, ccpa.due_at], ['ccpa', CCPA_DUE]);
      assert.deepEqual([both.regulation, both.due_at], ['ccpa+gdpr', GDPR_DUE]);
      await file('acme');
      time.set('2026-04-10T10:00:00.000Z');
      assert.deepEqual(await gauges('gdpr'), { overdue: 1, due_soon: 0 });
      assert.deepEqual(await gauges('ccpa+gdpr'), { overdue: 1, due_soon: 0 });
      assert.deepEqual(await gauges('ccpa'), { overdue: 0, due_soon: 1 });
    });

    it('drop an overdue request once the worker completes it', async () => {
      const filed = await file('acme');
      time.set('2026-04-03T10:00:00.000Z');
      assert.equal((await gauges('gdpr')).overdue, 1);
      const worker = createWorker({
        database: t.services.database,
        clock: time.clock,
        log: pino({ level: 'silent' }),
        pseudonymKey: t.services.keys.pseudonymKey,
        handlers: REQUEST_HANDLERS,
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 1 },
      });
      assert.equal(await worker.runOnce(), true);
      const row = await t.services.privacyRequests.get(filed.id);
      assert.equal(row?.status, 'completed');
      assert.deepEqual(await gauges('gdpr'), { overdue: 0, due_soon: 0 });
    });

    it('drop an overdue request once it is canceled', async () => {
      const filed = await file('globex');
      time.set('2026-04-20T10:00:00.000Z');
      assert.equal((await gauges('ccpa')).overdue, 1);
      await act(filed.id, 'cancel');
      assert.deepEqual(await gauges('ccpa'), { overdue: 0, due_soon: 0 });
    });

    it('reuse a count for 5 s by default, then count again', async () => {
      assert.equal(DEADLINE_GAUGE_CACHE_MS, 5_000);
      const cachedMetrics = createMetrics({ db: t.services.database.db, clock: time.clock });
      const cached = await buildApp({
        services: t.services,
        metrics: cachedMetrics,
        logLevel: 'silent',
        bodyLimitBytes: 1 << 20,
      });
      try {
        const filed = await file('globex');
        const counted = new Date('2026-04-20T10:00:00.000Z');
        time.set(counted.toISOString());
        assert.equal((await gauges('ccpa', cached)).overdue, 1);
        await act(filed.id, 'cancel');
        // The uncached metrics see the cancel at once; the cached ones keep the count for 5 s.
        assert.equal((await gauges('ccpa')).overdue, 0);
        assert.equal((await gauges('ccpa', cached)).overdue, 1);
        time.set(new Date(counted.getTime() + DEADLINE_GAUGE_CACHE_MS - 1).toISOString());
        assert.equal((await gauges('ccpa', cached)).overdue, 1);
        time.set(new Date(counted.getTime() + DEADLINE_GAUGE_CACHE_MS).toISOString());
        assert.deepEqual(await gauges('ccpa', cached), { overdue: 0, due_soon: 0 });
      } finally {
        await cached.close();
      }
    });

    it('follow the extended due date once a request is extended in time', async () => {
      const filed = await file('globex');
      time.set('2026-04-10T10:00:00.000Z'); // CCPA: due 2026-04-16T10:00Z, due soon
      assert.deepEqual(await gauges('ccpa'), { overdue: 0, due_soon: 1 });
      await act(filed.id, 'extend'); // CCPA: 45 more days, due 2026-05-31T10:00Z
      assert.deepEqual(await gauges('ccpa'), { overdue: 0, due_soon: 0 });
      time.set('2026-04-20T10:00:00.000Z');
      assert.deepEqual(await gauges('ccpa'), { overdue: 0, due_soon: 0 });
      time.set('2026-05-25T10:00:00.000Z');
      assert.deepEqual(await gauges('ccpa'), { overdue: 0, due_soon: 1 });
      time.set('2026-06-01T10:00:00.000Z');
      assert.deepEqual(await gauges('ccpa'), { overdue: 1, due_soon: 0 });
      await act(filed.id, 'cancel');
    });

    it('an overdue request cannot be extended (409) and stays overdue (PRODUCT §2.13)', async () => {
      time.set(RECEIVED);
      const filed = await file('globex');
      time.set('2026-04-20T10:00:00.000Z');
      assert.equal((await gauges('ccpa')).overdue, 1);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${filed.id}/extend`,
        headers: { authorization: auth },
        payload: { reason: 'ticket 4821' },
      });
      assert.equal(res.statusCode, 409, res.body);
      assert.match(res.json().detail, /^The deadline has passed/);
      assert.equal((await gauges('ccpa')).overdue, 1);
    });
  });
}
