/**
 * Sweeps have their own statement bound on PostgreSQL (issue 23 item 9): the retention sweep
 * (package expiry included), the deadline sweep and the data tasks' overdue sweep set
 * `PG_SWEEP_STATEMENT_TIMEOUT_MS` per transaction (`SET LOCAL`), so one of their statements may
 * run past the API's `PG_STATEMENT_TIMEOUT_MS` and is stopped at its own bound (SQLSTATE 57014),
 * while the pooled sessions keep the API's bound. Here a statement is made slow by a lock another
 * session holds on the table it reads. PostgreSQL only: SQLite has no statement timeout.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import pino from 'pino';
import { sql } from 'kysely';
import { sweepDeadlineEvents } from '../../../src/jobs/deadline-events.js';
import { createRetentionSweeper } from '../../../src/jobs/retention-sweeper.js';
import { sendOverdueTaskEvents } from '../../../src/jobs/task-overdue-sweep.js';
import { withStatementBound } from '../../../src/db/statement-bound.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { postgresDatabase, type TestDatabase } from '../../helpers/databases.js';

const pgUrl = process.env.TEST_DATABASE_URL;
/** The API's bound in these tests, ms. */
const API_BOUND_MS = 200;
const NOW = new Date('2026-06-01T12:00:00.000Z');

describe('sweeps: their own statement_timeout (postgres)', { skip: pgUrl ? false : 'TEST_DATABASE_URL is not set' }, () => {
  let database: TestDatabase;
  let t: TestApp;
  const db = () => t.services.database.db;

  before(async () => {
    database = await postgresDatabase(pgUrl!);
    t = await startTestApp(database, { env: { PG_STATEMENT_TIMEOUT_MS: String(API_BOUND_MS) } });
  });
  after(async () => {
    await t?.close();
    await database?.drop();
  });

  /**
   * Runs `sweep` while another session holds `table` in ACCESS EXCLUSIVE mode. With
   * `releaseAfterMs`, the lock is released once a statement on `table` has waited that long
   * (seen in pg_stat_activity); otherwise only after the sweep settled.
   */
  async function whileLocked<T>(table: string, sweep: () => Promise<T>, releaseAfterMs?: number): Promise<T> {
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query('begin');
    await holder.query(`lock table ${table} in access exclusive mode`);
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await holder.query('rollback');
    };
    try {
      const running = sweep();
      if (releaseAfterMs !== undefined) {
        const waited = async () => {
          // pg_stat_activity is a snapshot per transaction: the holder's would never change.
          await holder.query('select pg_stat_clear_snapshot()');
          const { rows } = await holder.query<{ n: string }>(
            `select count(*) as n from pg_stat_activity
              where pid <> pg_backend_pid() and wait_event_type = 'Lock' and query like $1
                and clock_timestamp() - query_start > make_interval(secs => $2::float8 / 1000)`,
            [`%${table}%`, releaseAfterMs],
          );
          return Number(rows[0]?.n) > 0;
        };
        let settled = false;
        void running.then(
          () => (settled = true),
          () => (settled = true),
        );
        while (!settled && !(await waited())) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(settled, false, 'the sweep was still waiting when the lock was released');
        await release();
      }
      return await running;
    } finally {
      await release();
      await holder.end();
    }
  }

  const isCancelled = (error: unknown) => (error as { code?: string }).code === '57014';
  const sweeper = (statementTimeoutMs: number) =>
    createRetentionSweeper({
      database: t.services.database,
      policies: t.services.policies,
      clock: () => NOW,
      log: pino({ level: 'silent' }),
      statementTimeoutMs,
    });

  it('a retention sweep statement waits past the API bound under its own, and is stopped at its own bound', async () => {
    const counts = await whileLocked('change_events', () => sweeper(60_000).sweep(NOW), 3 * API_BOUND_MS);
    assert.equal(counts.changeEvents, 0);
    await assert.rejects(
      whileLocked('change_events', () => sweeper(2 * API_BOUND_MS).sweep(NOW)),
      isCancelled,
    );
  });

  it('package expiry, in the same sweep, runs under the same bound', async () => {
    const counts = await whileLocked('request_results', () => sweeper(60_000).sweep(NOW), 3 * API_BOUND_MS);
    assert.equal(counts.packages, 0);
    await assert.rejects(
      whileLocked('request_results', () => sweeper(2 * API_BOUND_MS).sweep(NOW)),
      isCancelled,
    );
  });

  it('the deadline sweep and the overdue sweep run their batches under it too', async () => {
    const pause = async () => undefined;
    assert.equal(await whileLocked('privacy_requests', () => sweepDeadlineEvents(db(), NOW, pause, 60_000), 3 * API_BOUND_MS), 0);
    await assert.rejects(
      whileLocked('privacy_requests', () => sweepDeadlineEvents(db(), NOW, pause, 2 * API_BOUND_MS)),
      isCancelled,
    );
    assert.equal(await whileLocked('data_tasks', () => sendOverdueTaskEvents(db(), NOW, pause, 60_000), 3 * API_BOUND_MS), 0);
    await assert.rejects(
      whileLocked('data_tasks', () => sendOverdueTaskEvents(db(), NOW, pause, 2 * API_BOUND_MS)),
      isCancelled,
    );
  });

  it('the bound is the transaction’s own: pooled sessions keep the API bound, and 0 lifts it', async () => {
    const inside = await withStatementBound(db(), 4321, async (tx) =>
      sql<{ bound: string }>`select current_setting('statement_timeout') as bound`.execute(tx),
    );
    assert.equal(inside.rows[0]?.bound, '4321ms');
    const lifted = await withStatementBound(db(), 0, async (tx) =>
      sql<{ bound: string }>`select current_setting('statement_timeout') as bound`.execute(tx),
    );
    assert.equal(lifted.rows[0]?.bound, '0');
    const after = await Promise.all(
      Array.from({ length: 12 }, () =>
        sql<{ bound: string }>`select current_setting('statement_timeout') as bound`.execute(db()),
      ),
    );
    assert.deepEqual(
      after.map((r) => r.rows[0]?.bound),
      Array(12).fill(`${API_BOUND_MS}ms`),
    );
    await assert.rejects(sql`select pg_sleep(1)`.execute(db()), isCancelled, 'the API bound still applies outside sweeps');
  });
});
