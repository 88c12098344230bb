/**
 * PostgreSQL's statement_timeout per kind of work (issue 23 item 9): API sessions carry
 * `PG_STATEMENT_TIMEOUT_MS`; a statement over it (here: waiting on a lock another session holds)
 * is cancelled and answered 503 with Retry-After, and the pool serves the next request; migrations
 * run without the bound and leave the session's bound as it was. PostgreSQL only (SQLite has no
 * statement timeout; its writers wait busy_timeout and answer 503 the same way).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { sql } from 'kysely';
import { createDatabase } from '../../../src/db/database.js';
import { databaseFailure } from '../../../src/db/errors.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { postgresDatabase, type TestDatabase } from '../../helpers/databases.js';

const pgUrl = process.env.TEST_DATABASE_URL;
/** Kysely's migration lock id on PostgreSQL (PostgresAdapter.acquireMigrationLock: pg_advisory_xact_lock). */
const MIGRATION_LOCK_ID = '3853314791062309107';

describe('PostgreSQL statement_timeout (postgres)', { skip: pgUrl ? false : 'TEST_DATABASE_URL is not set' }, () => {
  let database: TestDatabase;
  let t: TestApp;
  let admin: string;

  before(async () => {
    database = await postgresDatabase(pgUrl!);
    t = await startTestApp(database, { env: { PG_STATEMENT_TIMEOUT_MS: '300' } });
    admin = await t.bearer(['admin'], ['*']);
  });
  after(async () => {
    await t?.close();
    await database?.drop();
  });

  it('a statement over PG_STATEMENT_TIMEOUT_MS is cancelled with a 503, and the pool serves the next request', async () => {
    const list = () =>
      t.app.inject({ method: 'GET', url: '/api/v1/privacy/requests?limit=5', headers: { authorization: admin } });
    assert.equal((await list()).statusCode, 200);
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table privacy_requests in access exclusive mode');
      const started = Date.now();
      const slow = await list();
      const took = Date.now() - started;
      assert.equal(slow.statusCode, 503, slow.body);
      assert.equal(slow.headers['retry-after'], '5');
      assert.deepEqual(Object.keys(slow.json()), ['detail']);
      assert.ok(took < 5_000, `cancelled after ${took} ms`);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    // Every pooled connection works again (more requests than the pool has connections).
    const again = await Promise.all(Array.from({ length: 15 }, list));
    assert.deepEqual(
      again.map((r) => r.statusCode),
      Array(15).fill(200),
    );
  });

  it('the driver error is query_canceled, classified as a database failure (503)', async () => {
    const db = createDatabase(database.url, { statementTimeoutMs: 100 });
    try {
      await assert.rejects(sql`select pg_sleep(1)`.execute(db.db), (error: unknown) => {
        assert.equal((error as { code?: string }).code, '57014');
        assert.equal(databaseFailure(error), 'unreachable');
        return true;
      });
      const { rows } = await sql<{ bound: string }>`select current_setting('statement_timeout') as bound`.execute(db.db);
      assert.equal(rows[0]?.bound, '100ms');
    } finally {
      await db.close();
    }
  });

  it('migrations run without the bound (they wait 600 ms on their lock under a 100 ms bound) and give the session its bound back', async () => {
    const fresh = await postgresDatabase(pgUrl!);
    const db = createDatabase(fresh.url, { statementTimeoutMs: 100 });
    // Kysely's migration lock (an advisory lock), held by another session for 600 ms.
    const holder = new pg.Client({ connectionString: pgUrl });
    await holder.connect();
    await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    const release = setTimeout(() => void holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`), 600);
    try {
      const started = Date.now();
      const applied = await migrateToLatest(db.db);
      assert.ok(Date.now() - started >= 500, 'the migration waited for its lock');
      assert.ok(applied.length > 10, `applied ${applied.length}`);
      const bounds = await Promise.all(
        Array.from({ length: 3 }, () =>
          sql<{ bound: string }>`select current_setting('statement_timeout') as bound`.execute(db.db),
        ),
      );
      assert.deepEqual(
        bounds.map((b) => b.rows[0]?.bound),
        ['100ms', '100ms', '100ms'],
      );
    } finally {
      clearTimeout(release);
      await holder.end();
      await db.close();
      await fresh.drop();
    }
  });
});
