/**
 * The worker's leases (src/jobs/worker.ts, privacy-requests/lifecycle/request-queue.repository.ts): a crashed worker's request is
 * taken over only after its lease expires; a worker that lost its lease (taken over, or the
 * request canceled) cannot complete; `pending_approval` waits for approval; a never-seen
 * subject completes with an empty package through the real handlers.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { RequestHandler } from '../../../src/workflows/request-types/handler.types.js';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import {
  claimNext,
  extendLease,
  finishAttempt,
} from '../../../src/modules/privacy-requests/lifecycle/request-state.repository.js';
import { dialects } from '../../helpers/databases.js';
import {
  auditOf,
  type Fixture,
  fileRequest,
  forAllTypes,
  gate,
  openFixture,
  requestRow,
  testWorker,
} from '../../helpers/worker.js';

for (const dialect of dialects()) {
  describe(`worker leases (${dialect.name})`, () => {
    let f: Fixture;
    afterEach(async () => f?.close());
    const db = () => f.t.services.database.db;
    const sideEffects = (prefix: string) =>
      db().selectFrom('service_keys').select('name').where('name', 'like', `${prefix}%`).execute();
    const completions = async (id: string) => (await auditOf(f, id)).filter((e) => e.action === 'privacy_request.completed');

    it('a crashed worker: its request is not taken before the lease expires, then taken and completed once', async () => {
      f = await openFixture(dialect.create, { start: '2026-05-04T09:00:00.000Z' });
      const filed = await fileRequest(f);
      const dead = await claimNext(db(), 'dead-worker', '2026-05-04T09:00:00.000Z', '2026-05-04T09:00:30.000Z');
      assert.equal(dead?.id, filed.id);
      assert.deepEqual([dead?.status, dead?.lease_owner, dead?.attempts], ['processing', 'dead-worker', 1]);

      let calls = 0;
      const worker = testWorker(
        f,
        forAllTypes(async () => {
          calls += 1;
          return { status: 'completed', package: { ok: true } };
        }),
      );
      for (const at of ['2026-05-04T09:00:00.000Z', '2026-05-04T09:00:10.000Z', '2026-05-04T09:00:30.000Z']) {
        f.time.set(at);
        assert.equal(await worker.runOnce(), false, `taken at ${at}, while the lease runs`);
      }
      assert.equal((await requestRow(f, filed.id)).lease_owner, 'dead-worker');
      f.time.set('2026-05-04T09:00:30.001Z');
      assert.equal(await worker.runOnce(), true, 'taken once the lease expired');
      assert.equal(await worker.runOnce(), false);
      assert.equal(calls, 1);
      const row = await requestRow(f, filed.id);
      assert.deepEqual(
        [row.status, row.attempts, row.lease_owner, row.completed_at],
        ['completed', 2, null, '2026-05-04T09:00:30.001Z'],
      );
      const done = await completions(filed.id);
      assert.equal(done.length, 1);
      assert.deepEqual(done[0]?.details, { attempt: 2 });

      // The dead worker waking up can neither extend nor finish.
      assert.equal(await extendLease(db(), filed.id, 'dead-worker', '2026-05-04T10:00:00.000Z'), false);
      assert.equal(
        await finishAttempt(db(), filed.id, 'dead-worker', {
          status: 'failed',
          status_reason: 'late',
          updated_at: '2026-05-04T09:01:00.000Z',
        }),
        undefined,
        'nothing written: the dead worker does not hold the lease',
      );
      assert.equal((await requestRow(f, filed.id)).status, 'completed');
    });

    // On SQLite a worker's transaction holds the database's one write lock (BEGIN IMMEDIATE): no
    // other process can claim or cancel until it commits, so these interleavings cannot happen
    // there (and two connections of one test process would only stall each other).
    const sqliteSerialises = dialect.name === 'sqlite' ? 'SQLite admits one writer: the interleaving cannot occur' : false;
    it(
      'a worker whose lease was taken over cannot complete: its handler transaction rolls back',
      { skip: sqliteSerialises },
      async () => {
        f = await openFixture(dialect.create, { start: '2026-05-04T09:00:00.000Z' });
        const filed = await fileRequest(f);
        const entered = gate();
        const release = gate();
        let slowCalls = 0;
        const slow: RequestHandler = async ({ tx, request }) => {
          slowCalls += 1;
          entered.open();
          await release.promise;
          await tx
            .insertInto('service_keys')
            .values({ name: `takeover-${request.id}`, value: 'slow', created_at: '2026-05-04T09:00:00.000Z' })
            .execute();
          return { status: 'completed', package: { by: 'slow' } };
        };
        let fastCalls = 0;
        const fast: RequestHandler = async () => {
          fastCalls += 1;
          return { status: 'completed', package: { by: 'fast' } };
        };
        const slowWorker = testWorker(f, forAllTypes(slow), { database: f.connect(), leaseMs: 60_000 });
        const fastWorker = testWorker(f, forAllTypes(fast), { database: f.connect(), leaseMs: 60_000 });

        const slowRun = slowWorker.runOnce();
        await entered.promise;
        f.time.set('2026-05-04T09:00:59.999Z');
        assert.equal(await fastWorker.runOnce(), false, 'the lease still runs');
        f.time.set('2026-05-04T09:01:00.001Z');
        assert.equal(await fastWorker.runOnce(), true, 'the expired lease is taken over');
        release.open();
        assert.equal(await slowRun, true);

        assert.deepEqual([slowCalls, fastCalls], [1, 1]);
        assert.deepEqual(await sideEffects('takeover-'), [], "the slow worker's side effect rolled back");
        const row = await requestRow(f, filed.id);
        assert.deepEqual([row.status, row.status_reason, row.attempts, row.lease_owner], ['completed', null, 2, null]);
        const result = await db()
          .selectFrom('request_results')
          .select('package')
          .where('request_id', '=', filed.id)
          .executeTakeFirstOrThrow();
        assert.deepEqual(JSON.parse(result.package ?? 'null'), { by: 'fast' });
        assert.equal((await completions(filed.id)).length, 1);
        assert.equal(await slowWorker.runOnce(), false, 'and nothing is retried');
      },
    );

    for (const outcome of ['completes', 'throws'] as const) {
      it(
        `canceling a request while it is processed: the worker that then ${outcome} changes nothing`,
        { skip: sqliteSerialises },
        async () => {
          f = await openFixture(dialect.create, { start: '2026-05-04T09:00:00.000Z' });
          const filed = await fileRequest(f);
          const entered = gate();
          const release = gate();
          const worker = testWorker(
            f,
            forAllTypes(async ({ tx, request }) => {
              entered.open();
              await release.promise;
              await tx
                .insertInto('service_keys')
                .values({ name: `canceled-${request.id}`, value: 'x', created_at: '2026-05-04T09:00:00.000Z' })
                .execute();
              if (outcome === 'throws') throw new TypeError('boom');
              return { status: 'completed', package: { x: 1 } };
            }),
            { database: f.connect(), maxAttempts: 1 },
          );
          const run = worker.runOnce();
          await entered.promise;
          assert.equal((await requestRow(f, filed.id)).status, 'processing');
          const cancel = await f.t.app.inject({
            method: 'POST',
            url: `/api/v1/privacy/requests/${filed.id}/cancel`,
            headers: { authorization: f.auth },
            payload: { reason: 'subject withdrew the request' },
          });
          assert.equal(cancel.statusCode, 200, cancel.body);
          assert.equal(cancel.json().status, 'canceled');
          release.open();
          assert.equal(await run, true);

          const row = await requestRow(f, filed.id);
          assert.deepEqual(
            [row.status, row.status_reason, row.completed_at, row.lease_owner],
            ['canceled', 'subject withdrew the request', null, null],
          );
          assert.deepEqual(await sideEffects('canceled-'), []);
          assert.deepEqual(await db().selectFrom('request_results').select('request_id').execute(), []);
          const actions = (await auditOf(f, filed.id)).map((e) => e.action);
          assert.deepEqual(actions, ['privacy_request.created', 'privacy_request.cancel']);
          f.time.set('2026-05-05T09:00:00.000Z');
          assert.equal(await worker.runOnce(), false);
        },
      );
    }

    it('claims oldest first across due queued requests and expired leases, skipping backoff and live leases', async () => {
      f = await openFixture(dialect.create, { start: '2026-05-04T09:00:00.000Z' });
      const [a, b, c, d] = (await Promise.all([1, 2, 3, 4].map(() => fileRequest(f)))).map((r) => r.id).sort();
      const at = (s: number) => `2026-05-04T09:00:${String(s).padStart(2, '0')}.000Z`;
      assert.equal((await claimNext(db(), 'dead-worker', at(0), at(30)))?.id, a);
      assert.equal((await claimNext(db(), 'live-worker', at(0), at(50)))?.id, b);
      await db()
        .updateTable('privacy_requests')
        .set({ next_attempt_at: at(59) })
        .where('id', '=', c!)
        .execute();
      // At 0:31 a's lease has expired, b's has not, c waits for its backoff: a is the oldest claimable.
      assert.equal((await claimNext(db(), 'second-worker', at(31), at(60)))?.id, a);
      assert.equal((await claimNext(db(), 'second-worker', at(31), at(60)))?.id, d);
      assert.equal(await claimNext(db(), 'second-worker', at(31), at(60)), undefined);
      // At 0:59 c is due and b's lease (to 0:50) has expired: b is older.
      assert.equal((await claimNext(db(), 'third-worker', at(59), at(59)))?.id, b);
      assert.equal((await claimNext(db(), 'third-worker', at(59), at(59)))?.id, c);
    });

    it('a pending_approval request is never claimed until approved', async () => {
      f = await openFixture(dialect.create, { start: '2026-05-04T09:00:00.000Z' });
      const admin = await f.t.bearer(['policy:write'], ['acme']);
      const put = await f.t.app.inject({
        method: 'PUT',
        url: '/api/v1/policies/workspaces/acme',
        headers: { authorization: admin },
        payload: { require_approval: true },
      });
      assert.equal(put.statusCode, 200, put.body);
      const filed = await fileRequest(f);
      assert.equal(filed.status, 'pending_approval');
      let calls = 0;
      const worker = testWorker(
        f,
        forAllTypes(async () => {
          calls += 1;
          return { status: 'completed', package: {} };
        }),
      );
      for (const at of ['2026-05-04T09:00:00.000Z', '2026-05-20T09:00:00.000Z', '2026-09-01T09:00:00.000Z']) {
        f.time.set(at);
        assert.equal(await worker.runOnce(), false, at);
      }
      assert.equal((await requestRow(f, filed.id)).status, 'pending_approval');
      // Another principal approves (the filer may not: separation of duties).
      const approver = await f.t.bearer(['privacy:write'], ['acme']);
      const approve = await f.t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${filed.id}/approve`,
        headers: { authorization: approver },
      });
      assert.equal(approve.statusCode, 200, approve.body);
      assert.equal(approve.json().status, 'queued');
      assert.equal(await worker.runOnce(), true);
      assert.equal(calls, 1);
      assert.equal((await requestRow(f, filed.id)).status, 'completed');
    });

    it(
      'a write committed by another connection while a real handler works does not fail the attempt',
      {
        skip: dialect.name === 'sqlite' ? 'in-process SQLite connections block each other (see worker-processes.test.ts)' : false,
      },
      async () => {
        f = await openFixture(dialect.create, { start: '2026-05-04T09:00:00.000Z' });
        const filed = await fileRequest(f, { request_type: 'access' });
        const entered = gate();
        const release = gate();
        const worker = testWorker(
          f,
          forAllTypes(async (ctx) => {
            const outcome = await (REQUEST_HANDLERS.access as RequestHandler)(ctx);
            entered.open();
            await release.promise;
            return outcome;
          }),
          { database: f.connect() },
        );
        const run = worker.runOnce();
        await entered.promise;
        // Meanwhile the API (another process, in a WORKER_IN_SERVER=false deployment) files a request.
        await fileRequest(f, { request_type: 'export', subject_id: 'someone-else' });
        release.open();
        assert.equal(await run, true);
        const row = await requestRow(f, filed.id);
        // The attempt was recorded once (not failed, not retried): a subject nothing knows waits for review (PRODUCT §2.13).
        assert.deepEqual([row.status, row.status_reason, row.attempts], ['action_required', 'identity_unmatched', 1]);
      },
    );

    for (const type of ['access', 'export'] as const) {
      it(`real handlers: an ${type} request for a subject never seen waits for review; confirmed, it completes with an empty package`, async () => {
        f = await openFixture(dialect.create, { start: '2026-05-04T09:00:00.000Z' });
        const filed = await fileRequest(f, { request_type: type, subject_id: 'never-seen-4711', subject_provider: 'github' });
        const worker = testWorker(f, REQUEST_HANDLERS);
        f.time.set('2026-05-04T09:00:01.000Z');
        assert.equal(await worker.runOnce(), true);
        const waiting = await requestRow(f, filed.id);
        // PRODUCT §2.13: nothing matched the identity, so no "we hold nothing" without an operator's review.
        assert.deepEqual([waiting.status, waiting.status_reason], ['action_required', 'identity_unmatched']);
        const confirmed = await f.t.app.inject({
          method: 'POST',
          url: `/api/v1/privacy/requests/${filed.id}/confirm-no-data`,
          headers: { authorization: f.auth },
          payload: { reason: 'checked by hand: no data' },
        });
        assert.equal(confirmed.statusCode, 200, confirmed.body);
        const row = await requestRow(f, filed.id);
        assert.equal(row.status, 'completed', `status ${row.status}: ${row.status_reason}`);
        const res = await f.t.app.inject({
          method: 'GET',
          url: `/api/v1/privacy/requests/${filed.id}/package`,
          headers: { authorization: f.auth },
        });
        assert.equal(res.statusCode, 200, res.body);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        const pkg = res.json();
        assert.equal(pkg.request_id, filed.id);
        assert.deepEqual(pkg.subject, { provider: 'github', id: 'never-seen-4711' });
        assert.equal(pkg.format, type === 'access' ? 'privacy-access/1' : 'privacy-export/1');
        assert.match(pkg.no_data_confirmation.statement, /we do not process any personal data about you/);
        assert.deepEqual(pkg.data, {
          'user.account': {
            identity: null,
            state: null,
            username: null,
            earlier_usernames: [],
            linked_accounts: [],
            identity_events: [],
            privacy_requests: [],
          },
          'user.contact.email': { email: null, earlier_values: [] },
          'user.name': { name: null, earlier_values: [] },
          'user.content': { change_events: [] },
        });
        if (type === 'access')
          assert.deepEqual(Object.keys(pkg.processing).sort(), [
            'user.account',
            'user.contact.email',
            'user.content',
            'user.name',
          ]);
        else assert.equal(pkg.processing, undefined);
        const report = await f.t.app.inject({
          method: 'GET',
          url: `/api/v1/privacy/requests/${filed.id}/report`,
          headers: { authorization: f.auth },
        });
        assert.equal(report.statusCode, 409, 'an access/export request has no report');
        const letter = await f.t.app.inject({
          method: 'GET',
          url: `/api/v1/privacy/requests/${filed.id}/package?format=html`,
          headers: { authorization: f.auth },
        });
        assert.equal(letter.statusCode, 200);
        assert.match(letter.body, /<h2>No personal data about you<\/h2>\s*<p>We have checked this service/);
      });
    }
  });
}
