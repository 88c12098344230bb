/**
 * The request worker (src/jobs/worker.ts) with injected handlers: claim and complete once, many
 * workers over one queue, retries with backoff and the final `failed`. Leases, crashes,
 * cancellation, approval and the real handlers: worker-leases.test.ts.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, it } from 'node:test';
import type { HandlerContext, RequestHandler } from '../../../src/workflows/request-types/handler.types.js';
import { dialects } from '../../helpers/databases.js';
import { auditOf, type Fixture, fileRequest, forAllTypes, openFixture, requestRow, testWorker } from '../../helpers/worker.js';

/** An error whose message quotes personal data: only its class name may be stored. */
class MailboxUnreachableError extends Error {
  override name = 'MailboxUnreachableError';
}

for (const dialect of dialects()) {
  describe(`worker (${dialect.name})`, () => {
    let f: Fixture;
    afterEach(async () => f?.close());

    it('claims a request filed through the API, completes it once, stores the result and audits it', async () => {
      f = await openFixture(dialect.create);
      const filed = await fileRequest(f, { request_type: 'access' });
      assert.equal(filed.status, 'queued');
      const calls: HandlerContext[] = [];
      const worker = testWorker(
        f,
        forAllTypes(async (ctx) => {
          calls.push(ctx);
          return { status: 'completed', package: { categories: ['user'], note: 'test package' } };
        }),
      );
      f.time.set('2026-05-04T09:00:05.000Z');
      assert.equal(await worker.runOnce(), true);
      assert.equal(await worker.runOnce(), false, 'nothing left to claim');
      assert.equal(calls.length, 1);
      assert.equal(calls[0]?.request.id, filed.id);
      assert.equal(calls[0]?.request.status, 'processing');
      assert.equal(calls[0]?.request.lease_owner, worker.owner);
      assert.equal(calls[0]?.pseudonymKey, f.t.services.keys.pseudonymKey);

      const row = await requestRow(f, filed.id);
      assert.equal(row.status, 'completed');
      assert.equal(row.completed_at, '2026-05-04T09:00:05.000Z');
      assert.equal(row.status_reason, null);
      assert.equal(row.attempts, 1);
      assert.equal(row.lease_owner, null);
      assert.equal(row.lease_expires_at, null);

      const result = await f.t.services.database.db
        .selectFrom('request_results')
        .selectAll()
        .where('request_id', '=', filed.id)
        .execute();
      assert.equal(result.length, 1);
      assert.deepEqual(JSON.parse(result[0]?.package ?? 'null'), { categories: ['user'], note: 'test package' });
      assert.equal(result[0]?.report, null);

      const completed = (await auditOf(f, filed.id)).filter((e) => e.action === 'privacy_request.completed');
      assert.equal(completed.length, 1);
      assert.equal(completed[0]?.actor, 'worker');
      assert.equal(completed[0]?.occurred_at, '2026-05-04T09:00:05.000Z');
      assert.deepEqual(completed[0]?.details, { attempt: 1 });

      const api = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${filed.id}`,
        headers: { authorization: f.auth },
      });
      assert.equal(api.json().status, 'completed');
      assert.equal(api.json().completed_at, '2026-05-04T09:00:05.000Z');
      const pkg = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${filed.id}/package`,
        headers: { authorization: f.auth },
      });
      assert.equal(pkg.statusCode, 200, pkg.body);
      assert.deepEqual(pkg.json(), { categories: ['user'], note: 'test package' });
    });

    it('an action_required outcome parks the request with the reason, stores no result, audits it', async () => {
      f = await openFixture(dialect.create);
      const filed = await fileRequest(f, { request_type: 'correction' });
      const worker = testWorker(
        f,
        forAllTypes(async () => ({ status: 'action_required', reason: 'awaiting corrected values' })),
      );
      assert.equal(await worker.runOnce(), true);
      assert.equal(await worker.runOnce(), false, 'an action_required request is not claimed again');
      const row = await requestRow(f, filed.id);
      assert.equal(row.status, 'action_required');
      assert.equal(row.status_reason, 'awaiting corrected values');
      assert.equal(row.completed_at, null);
      const results = await f.t.services.database.db.selectFrom('request_results').select('request_id').execute();
      assert.deepEqual(results, []);
      const audit = await auditOf(f, filed.id);
      assert.deepEqual(
        audit.map((e) => e.action),
        ['privacy_request.created', 'privacy_request.action_required'],
      );
      assert.match(audit[0]?.actor ?? '', /^token:tok_/);
      assert.equal(audit[1]?.actor, 'worker');
    });

    for (const connections of ['one shared connection (one process)', 'their own connections (separate processes)'] as const) {
      const own = connections.startsWith('their');
      // better-sqlite3 waits for a lock synchronously: two connections of ONE process, each inside
      // a write transaction, stall each other. Separate SQLite processes are tested for real in
      // worker-processes.test.ts.
      const skip =
        own && dialect.name === 'sqlite'
          ? 'in-process SQLite connections block each other (see worker-processes.test.ts)'
          : false;
      it(`3 workers on ${connections} over 30 queued requests: each completed exactly once`, { skip }, async () => {
        f = await openFixture(dialect.create);
        const ids = new Set<string>();
        for (let i = 0; i < 30; i++)
          ids.add((await fileRequest(f, { request_type: ['access', 'export', 'deletion'][i % 3] })).id);
        const calls = new Map<string, number>();
        const handler: RequestHandler = async ({ tx, request }) => {
          calls.set(request.id, (calls.get(request.id) ?? 0) + 1);
          // A read inside the transaction and a pause, as a real handler has.
          await tx.selectFrom('privacy_requests').select('status').where('id', '=', request.id).executeTakeFirstOrThrow();
          await sleep(Math.floor(Math.random() * 4));
          return { status: 'completed', report: { handled: request.id } };
        };
        const workers = [0, 1, 2].map(() => testWorker(f, forAllTypes(handler), own ? { database: f.connect() } : {}));
        const claimed = [0, 0, 0];
        await Promise.all(
          workers.map(async (w, i) => {
            while (await w.runOnce()) claimed[i] = (claimed[i] ?? 0) + 1;
          }),
        );
        assert.equal(
          claimed.reduce((a, b) => a + b, 0),
          30,
          `claims per worker: ${claimed.join(', ')}`,
        );
        assert.deepEqual([...calls.keys()].sort(), [...ids].sort());
        for (const [id, n] of calls) assert.equal(n, 1, `${id} handled ${n} times`);

        const rows = await f.t.services.database.db
          .selectFrom('privacy_requests')
          .select(['id', 'status', 'attempts', 'status_reason'])
          .execute();
        assert.equal(rows.length, 30);
        for (const row of rows) assert.deepEqual([row.status, row.attempts, row.status_reason], ['completed', 1, null], row.id);
        const completedAudits = await f.t.services.database.db
          .selectFrom('audit_events')
          .select('target_id')
          .where('action', '=', 'privacy_request.completed')
          .execute();
        assert.equal(completedAudits.length, 30);
        assert.equal(new Set(completedAudits.map((a) => a.target_id)).size, 30);
        const results = await f.t.services.database.db.selectFrom('request_results').select('request_id').execute();
        assert.equal(results.length, 30);
      });
    }

    it('a failing handler: queued again with backoff and a reason naming only the error class, then failed after maxAttempts', async () => {
      f = await openFixture(dialect.create, { start: '2026-05-04T09:00:00.000Z' });
      const filed = await fileRequest(f);
      let calls = 0;
      const worker = testWorker(
        f,
        forAllTypes(async ({ tx }) => {
          calls += 1;
          // A side effect that must roll back with the failed attempt.
          await tx
            .insertInto('service_keys')
            .values({ name: `failing-attempt-${calls}`, value: 'x', created_at: '2026-05-04T09:00:00.000Z' })
            .execute();
          throw new MailboxUnreachableError('could not reach ada@example.com');
        }),
        { maxAttempts: 3 },
      );

      assert.equal(await worker.runOnce(), true);
      let row = await requestRow(f, filed.id);
      assert.equal(row.status, 'queued');
      assert.equal(row.status_reason, 'attempt 1 failed: MailboxUnreachableError');
      assert.equal(row.next_attempt_at, '2026-05-04T09:00:02.000Z');
      assert.equal(row.attempts, 1);
      assert.equal(row.lease_owner, null);
      const api = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${filed.id}`,
        headers: { authorization: f.auth },
      });
      assert.deepEqual([api.json().status, api.json().status_reason], ['queued', 'attempt 1 failed: MailboxUnreachableError']);

      f.time.set('2026-05-04T09:00:01.999Z');
      assert.equal(await worker.runOnce(), false, 'not before the backoff has passed');
      f.time.set('2026-05-04T09:00:02.000Z');
      assert.equal(await worker.runOnce(), true);
      row = await requestRow(f, filed.id);
      assert.deepEqual(
        [row.status, row.status_reason, row.next_attempt_at, row.attempts],
        ['queued', 'attempt 2 failed: MailboxUnreachableError', '2026-05-04T09:00:06.000Z', 2],
      );

      f.time.set('2026-05-04T09:00:06.000Z');
      assert.equal(await worker.runOnce(), true);
      row = await requestRow(f, filed.id);
      assert.deepEqual(
        [row.status, row.status_reason, row.attempts, row.lease_owner],
        ['failed', 'attempt 3 failed: MailboxUnreachableError', 3, null],
      );
      assert.equal(row.completed_at, null);
      f.time.set('2026-05-04T10:00:00.000Z');
      assert.equal(await worker.runOnce(), false, 'a failed request is final');
      assert.equal(calls, 3);

      const audit = await auditOf(f, filed.id);
      assert.deepEqual(
        audit.map((e) => e.action),
        ['privacy_request.created', 'privacy_request.failed'],
      );
      assert.equal(audit[1]?.actor, 'worker');
      assert.deepEqual(audit[1]?.details, { attempts: 3, reason: 'attempt 3 failed: MailboxUnreachableError' });
      const keys = await f.t.services.database.db
        .selectFrom('service_keys')
        .select('name')
        .where('name', 'like', 'failing-attempt-%')
        .execute();
      assert.deepEqual(keys, [], 'each failed attempt rolled back');
      const everything =
        JSON.stringify(await f.t.services.database.db.selectFrom('audit_events').selectAll().execute()) + JSON.stringify(row);
      assert.ok(!everything.includes('ada@example.com'), 'the error message is never stored');
    });

    it('a missing handler for the request type fails the attempt like an error', async () => {
      f = await openFixture(dialect.create);
      const filed = await fileRequest(f, { request_type: 'export' });
      const worker = testWorker(f, { access: async () => ({ status: 'completed' }) }, { maxAttempts: 1 });
      assert.equal(await worker.runOnce(), true);
      const row = await requestRow(f, filed.id);
      assert.deepEqual([row.status, row.status_reason], ['failed', 'attempt 1 failed: Error']);
    });
  });
}
