/**
 * SQLite planner statistics (db/database.ts `keepPlannerStatistics`): a connection opened on a
 * database that holds data analyses it (`PRAGMA optimize=0x10012`), so the planner chooses the
 * growth indexes from statistics instead of guesses; the service never runs ANALYZE otherwise.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase, type Database } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { sqliteDatabase, type TestDatabase } from '../../helpers/databases.js';

describe('SQLite planner statistics', () => {
  let target: TestDatabase;
  let database: Database | undefined;

  before(async () => {
    target = sqliteDatabase();
    const seeding = createDatabase(target.url);
    await migrateToLatest(seeding.db);
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000)
      insert into privacy_requests (id, workspace_id, request_type, scope, subject_provider, subject_id, client_request_id,
        intake_ref, regulation, status, created_at, due_at, updated_at)
      select printf('pr_%08d', i), 'w' || (i % 30), 'access', '["user"]', 'okta', 'u' || i, 'c' || i, 'r', 'gdpr', 'queued',
        '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' from n`.execute(seeding.db);
    const stats = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(
      seeding.db,
    );
    assert.equal(stats.rows[0]?.n, 0, 'no statistics before a connection opens on the filled database');
    await seeding.close();
  });
  after(async () => {
    await database?.close();
    await target.drop();
  });

  it('analyses the tables that hold data when a connection opens', async () => {
    database = createDatabase(target.url);
    const rows = await sql<{ idx: string; stat: string }>`
      select idx, stat from sqlite_stat1 where tbl = 'privacy_requests'`.execute(database.db);
    const byIndex = new Map(rows.rows.map((r) => [r.idx, r.stat]));
    // `rows rows-per-workspace rows-per-(workspace, id)`: 3,000 requests over 30 workspaces. The
    // analysis is bounded (a sample), so the per-workspace figure is an estimate of the true 100.
    const [total, perWorkspace, perId] = (byIndex.get('privacy_requests_workspace_id_idx') ?? '').split(' ').map(Number);
    assert.equal(total, 3000);
    assert.ok(perWorkspace! >= 50 && perWorkspace! <= 200, `rows per workspace ${perWorkspace}`);
    assert.equal(perId, 1);
  });
});
