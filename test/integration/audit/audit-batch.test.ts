/**
 * The audit chain under group commit (src/db/write-batcher.ts, audit.repository.ts
 * `auditBatchHooks`): concurrent creates leave one intact chain with one entry each; a unit rolled
 * back in a batch leaves no entry; the same Idempotency-Key twice in one batch is stored once and
 * replayed; on PostgreSQL a batch whose chain append deadlocks is run again from scratch.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../../src/config.js';
import { verifyChain } from '../../../src/modules/audit/audit-chain.fns.js';
import { readChain, recordAudit } from '../../../src/modules/audit/audit.repository.js';
import type { CreatePrivacyRequestInput } from '../../../src/modules/privacy-requests/privacy-request.types.js';
import { createServices } from '../../../src/services.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { countingTransact, holdBatches } from '../../helpers/batch-gate.js';
import { waitFor } from '../../helpers/cluster.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { createBody } from '../../helpers/requests.js';

const entry = (action: string, targetId: string) => ({
  actor: 'batch-test',
  action,
  targetType: 'test',
  targetId,
  workspaceId: 'acme',
  occurredAt: '2026-11-21T00:00:00.000Z',
});

for (const dialect of dialects()) {
  describe(`audit chain under group commit (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const db = () => t.services.database.db;

    async function assertIntactChain(): Promise<Awaited<ReturnType<typeof readChain>>['entries']> {
      const chain = await readChain(db());
      assert.equal(verifyChain(chain.entries, chain.head), null);
      return chain.entries;
    }

    before(async () => {
      database = await dialect.create();
    });
    after(async () => {
      await database.drop();
    });
    beforeEach(async () => {
      t = await startTestApp(database);
    });
    afterEach(async () => {
      await t.close();
    });

    it('100 concurrent creates: all 202, exactly 100 privacy_request.created entries, chain intact', async () => {
      const auth = await t.bearer(['privacy:write'], ['acme']);
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/v1/privacy/requests',
            headers: { authorization: auth, 'idempotency-key': `batch-create-${i}` },
            payload: createBody({ client_request_id: `batch-create-${i}` }),
          }),
        ),
      );
      assert.deepEqual(new Set(responses.map((r) => r.statusCode)), new Set([202]));
      const created = (await assertIntactChain()).filter((e) => e.action === 'privacy_request.created');
      assert.equal(created.length, 100);
      const ids = new Set(responses.map((r) => (JSON.parse(r.body) as { id: string }).id));
      assert.deepEqual(new Set(created.map((e) => e.target_id)), ids);
      if (dialect.name === 'postgres') {
        // Each row's xmin is the transaction that wrote it: fewer transactions than creates
        // means creates shared commits.
        const { rows } = await sql<{
          n: string;
        }>`select count(distinct xmin::text) as n from audit_events where action = 'privacy_request.created'`.execute(db());
        assert.ok(Number(rows[0]?.n) < 100, `creates were not batched: ${rows[0]?.n} transactions`);
      }
    });

    it('a unit rolled back in a batch leaves no audit entry; its neighbours keep theirs, in order', async () => {
      const hold = await holdBatches(t.services.database);
      const units = ['first', 'rolled-back', 'last'].map((name) =>
        t.services.database.transact(async (unit) => {
          recordAudit(unit, entry('test.unit', name));
          if (name === 'rolled-back') throw new Error('this unit fails after appending');
        }),
      );
      const settled = Promise.allSettled(units);
      await hold.release();
      assert.deepEqual(
        (await settled).map((o) => o.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      const mine = (await assertIntactChain()).filter((e) => e.action === 'test.unit');
      assert.deepEqual(
        mine.map((e) => e.target_id),
        ['first', 'last'],
      );
      assert.equal(mine[1]!.seq, mine[0]!.seq + 1, 'no gap where the rolled-back entry was');
    });

    if (dialect.name === 'postgres') {
      /** A privacy:write principal of acme and services whose write batches count their submitted units. */
      const countedWriter = async (name: string) => {
        const { token } = await t.services.tokens.create({
          name,
          scopes: ['privacy:write'],
          workspaces: ['acme'],
          actor: 'test',
        });
        const principal = await t.services.tokens.authenticate(token);
        assert.ok(principal);
        const counted = countingTransact(t.services.database);
        const services = createServices({
          config: loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }),
          database: counted.database,
          keys: t.services.keys,
        });
        return { principal, counted, services };
      };
      const countRequests = async (clientRequestId: string) =>
        (await db().selectFrom('privacy_requests').select('id').where('client_request_id', '=', clientRequestId).execute())
          .length;

      // PostgreSQL only: the key's advisory lock is re-entrant within the batch transaction, so the
      // second unit gets past it. (On SQLite the held batch would also hold the one connection the
      // creates read through.)
      it('the same Idempotency-Key twice in one batch: one request, one entry, the second replays', async () => {
        const { principal, counted, services } = await countedWriter('batch');
        const input = createBody({ client_request_id: 'same-key-batch' }) as unknown as CreatePrivacyRequestInput;
        const hold = await holdBatches(t.services.database);
        const create = () => services.fileRequest(principal, 'same-key-batch', input);
        const creates = Promise.all([create(), create()]);
        await waitFor('both creates queued', async () => counted.submitted() === 2, 10_000);
        await hold.release();
        const [a, b] = await creates;
        assert.deepEqual([a.replayed, b.replayed].sort(), [false, true]);
        assert.equal(a.kind, 'filed');
        assert.deepEqual({ ...b, replayed: a.replayed }, a, 'the replay answers the stored outcome');
        const rows = await db()
          .selectFrom('privacy_requests')
          .select('id')
          .where('client_request_id', '=', 'same-key-batch')
          .execute();
        assert.equal(rows.length, 1);
        const created = (await assertIntactChain()).filter(
          (e) => e.action === 'privacy_request.created' && e.target_id === rows[0]!.id,
        );
        assert.equal(created.length, 1);
      });

      it('one client_request_id twice in one batch under two keys: the first is filed, the second 409s, one entry', async () => {
        const { principal, counted, services } = await countedWriter('batch-crid');
        const input = createBody({ client_request_id: 'same-crid-batch' }) as unknown as CreatePrivacyRequestInput;
        const hold = await holdBatches(t.services.database);
        const creates = Promise.all([
          services.fileRequest(principal, 'crid-batch-key-1', input),
          services.fileRequest(principal, 'crid-batch-key-2', input),
        ]);
        await waitFor('both creates queued', async () => counted.submitted() === 2, 10_000);
        await hold.release();
        // Which of the two reaches the batch first is not given (each reads its policy first).
        const outcomes = await creates;
        const filedAt = outcomes.findIndex((o) => o.kind === 'filed');
        assert.notEqual(filedAt, -1, 'one of them is filed');
        const first = outcomes[filedAt]!;
        const second = outcomes[1 - filedAt]!;
        assert.ok(first.kind === 'filed');
        assert.deepEqual(second, { kind: 'client_request_id_taken', existingId: first.request.id, replayed: false });
        const again = await services.fileRequest(principal, `crid-batch-key-${2 - filedAt}`, input);
        assert.deepEqual(again, { ...second, replayed: true }, 'the 409 is kept with its key');
        const created = (await assertIntactChain()).filter(
          (e) => e.action === 'privacy_request.created' && e.target_id === first.request.id,
        );
        assert.equal(created.length, 1);
        const rows = await db()
          .selectFrom('privacy_requests')
          .select('id')
          .where('client_request_id', '=', 'same-crid-batch')
          .execute();
        assert.deepEqual(
          rows.map((r) => r.id),
          [first.request.id],
        );
      });

      it('the same Idempotency-Key with two bodies in one batch: one is filed, the other is reused, one record', async () => {
        const { principal, counted, services } = await countedWriter('batch-reused');
        const body = (ref: string) =>
          createBody({ client_request_id: 'reused-key-batch', intake_ref: ref }) as unknown as CreatePrivacyRequestInput;
        const hold = await holdBatches(t.services.database);
        const creates = Promise.allSettled([
          services.fileRequest(principal, 'reused-key-batch', body('ticket 1')),
          services.fileRequest(principal, 'reused-key-batch', body('ticket 2')),
        ]);
        await waitFor('both creates queued', async () => counted.submitted() === 2, 10_000);
        await hold.release();
        // Which of the two reaches the batch first is not given (each reads its policy first).
        const outcomes = await creates;
        const filed = outcomes.filter((o) => o.status === 'fulfilled');
        const reused = outcomes.filter((o) => o.status === 'rejected');
        assert.equal(filed.length, 1);
        assert.ok(filed[0]!.value.kind === 'filed' && !filed[0]!.value.replayed);
        assert.equal(reused.length, 1);
        assert.equal((reused[0]!.reason as { reason?: string }).reason, 'reused');
        const records = await db()
          .selectFrom('idempotency_records')
          .select('idempotency_key')
          .where('idempotency_key', '=', 'reused-key-batch')
          .execute();
        assert.equal(records.length, 1);
        assert.equal(await countRequests('reused-key-batch'), 1);
      });

      it("a key held by another transaction answers in flight; the rest of its batch is filed, with one statement for the batch's keys", async () => {
        const { principal, counted, services } = await countedWriter('batch-held');
        const { idempotencyLockName } = await import('../../../src/modules/idempotency/idempotency.service.js');
        const other = new pg.Client({ connectionString: database.url });
        await other.connect();
        try {
          await other.query('begin');
          await other.query('select pg_advisory_xact_lock(hashtextextended($1::text, 0))', [
            idempotencyLockName(principal.id, 'held-key-2'),
          ]);
          const statements: string[] = [];
          const query = pg.Client.prototype.query;
          const hold = await holdBatches(t.services.database);
          const creates = Promise.allSettled(
            [1, 2, 3].map((n) =>
              services.fileRequest(
                principal,
                `held-key-${n}`,
                createBody({ client_request_id: `held-crid-${n}` }) as unknown as CreatePrivacyRequestInput,
              ),
            ),
          );
          await waitFor('three creates queued', async () => counted.submitted() === 3, 10_000);
          pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
            const text = (args[0] as { text?: string } | string | undefined) ?? '';
            statements.push(typeof text === 'string' ? text : (text.text ?? ''));
            return (query as (...a: unknown[]) => unknown).apply(this, args);
          } as typeof query;
          try {
            await hold.release();
            const outcomes = await creates;
            assert.deepEqual(
              outcomes.map((o) => (o.status === 'fulfilled' ? o.value.kind : (o.reason as { reason?: string }).reason)),
              ['filed', 'in_flight', 'filed'],
            );
          } finally {
            pg.Client.prototype.query = query;
          }
          assert.equal(
            statements.filter((s) => /from "idempotency_records"|idempotency_records" as "r"/.test(s)).length,
            1,
            statements.join('\n'),
          );
          assert.equal(await countRequests('held-crid-2'), 0);
          assert.equal((await countRequests('held-crid-1')) + (await countRequests('held-crid-3')), 2);
        } finally {
          await other.query('rollback');
          await other.end();
        }
      });

      it('a batch whose chain append deadlocks is run again from scratch and commits once', async () => {
        // Another transaction holds the chain head, then waits for a row our batch inserted:
        // our batch (waiting for the head since its flush) is PostgreSQL's deadlock victim.
        const other = new pg.Client({ connectionString: database.url });
        await other.connect();
        try {
          const { rows } = await other.query<{ pid: number }>('select pg_backend_pid() as pid');
          // PostgreSQL checks for a deadlock once, deadlock_timeout after a wait starts, and the
          // process whose check finds the cycle is the victim. Our batch must be the one: it checks
          // late enough for the other's insert to have closed the cycle even on a loaded machine
          // (4 s), and the other never checks first (60 s). Both are superuser settings (the tests'
          // role); with the defaults (1 s each) a slow machine let the other be the victim.
          await other.query(`set deadlock_timeout = '60s'`);
          await other.query('begin');
          await other.query('select seq from audit_head where id = 1 for update');
          let runs = 0;
          const unit = t.services.database.transact(async (work) => {
            runs++;
            await sql`set local deadlock_timeout = '4s'`.execute(work.tx);
            await work.tx
              .insertInto('service_keys')
              .values({ name: 'flush-row', value: 'v', created_at: '2026-11-21T00:00:00.000Z' })
              .execute();
            recordAudit(work, entry('test.flush', 'flush-row'));
          });
          await waitFor('the batch to wait for the chain head', async () => {
            const waiting = await sql<{
              n: string;
            }>`select count(*) as n from pg_stat_activity where ${rows[0]!.pid}::int = any(pg_blocking_pids(pid))`.execute(db());
            return Number(waiting.rows[0]?.n) > 0;
          });
          // Waits for our batch's uncommitted row: the cycle. Returns once our batch was aborted.
          await other.query(`insert into service_keys (name, value, created_at) values ('flush-row', 'other', 'x')`);
          await other.query('rollback');
          await unit;
          assert.equal(runs, 2, 'the unit ran again after the deadlock');
        } finally {
          await other.end();
        }
        const keys = await db().selectFrom('service_keys').select('value').where('name', '=', 'flush-row').execute();
        assert.deepEqual(keys, [{ value: 'v' }]);
        const flushed = (await assertIntactChain()).filter((e) => e.action === 'test.flush');
        assert.equal(flushed.length, 1);
      });
    }
  });
}
