/**
 * Migration 2026-11-21T0005-overdue-index: the list endpoint's `overdue=true` filter finds a
 * workspace's few overdue requests through `privacy_requests_workspace_status_due_idx` instead of
 * walking all its requests newest first (issue 5, cost as data grows). The statement checked is
 * the one the repository runs, captured as it runs it, on a database with statistics (SQLite:
 * the `PRAGMA optimize` a connection runs when it opens, db/database.ts; PostgreSQL: ANALYZE,
 * autovacuum's job in production), as a server sees it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase, type Database } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { listRequests } from '../../../src/modules/privacy-requests/privacy-request-list.repository.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { insertInChunks, openSeededRequests, requestRow, type SeededDatabase } from '../../helpers/seeded-database.js';
import { planOf } from '../../helpers/query-plan.js';

/** 20,000 requests of two workspaces, one filed every 20 minutes from 2026-01-01, each due 30 days later. */
const COUNT = 20_000;
const START_MS = Date.parse('2026-01-01T00:00:00.000Z');
const STEP_MS = 20 * 60 * 1000;
const DUE_MS = 30 * 24 * 60 * 60 * 1000;
/** 2026-01-31T04:00Z: the first 12 requests (6 per workspace) are past due, the rest are not. */
const NOW = new Date(START_MS + DUE_MS + 12 * STEP_MS).toISOString();
const iso = (ms: number) => new Date(ms).toISOString();

function request(i: number) {
  const created = START_MS + i * STEP_MS;
  return requestRow(i, {
    workspace_id: i % 2 === 0 ? 'w' : 'other',
    status: i % 3 === 0 ? 'processing' : 'queued',
    created_at: iso(created),
    due_at: iso(created + DUE_MS),
  });
}

for (const dialect of dialects()) {
  describe(`overdue list index (${dialect.name})`, () => {
    let seeded: SeededDatabase;
    let database: Database;

    before(async () => {
      seeded = await openSeededRequests(
        dialect,
        Array.from({ length: COUNT }, (_, i) => request(i)),
      );
      database = seeded.database;
    });
    after(() => seeded.close());

    it('lists exactly the overdue requests, newest first, through the due-date index', async () => {
      const { result: found, plan: text } = await planOf(database, (db) =>
        listRequests(db, { workspaceIds: ['w'], overdue: true, now: NOW, limit: 51 }),
      );
      assert.deepEqual(
        found.map((r) => r.id),
        ['pr_00000010', 'pr_00000008', 'pr_00000006', 'pr_00000004', 'pr_00000002', 'pr_00000000'],
      );
      // Either due-date index is a range search of the few past-due entries: the workspace's
      // (open statuses), or, since 2026-11-24T0101, the queue's all-workspace one, which PostgreSQL
      // prefers when every request is open, as here. Never the walk through all requests.
      assert.match(text, /privacy_requests_(workspace_status_)?due_idx/, text);
      assert.doesNotMatch(text, /Seq Scan|SCAN privacy_requests(?! USING)/, text);
    });
  });
}

/**
 * The same list on a table filled faster than statistics are gathered (a backlog imported into
 * a fresh database: PostgreSQL's autovacuum analyzes about a minute later). PostgreSQL then took
 * the SQLite form, the ids in a subquery, for a one-row semi-join and scanned the workspace once
 * per request (1.5 s at 3,000 requests, the growth bench's empty leg); the list is one scan of
 * the table, whatever its plan.
 */
for (const dialect of dialects()) {
  describe(`overdue list without planner statistics (${dialect.name})`, () => {
    let target: TestDatabase;
    let database: Database;

    before(async () => {
      target = await dialect.create();
      database = createDatabase(target.url);
      await migrateToLatest(database.db);
      await insertInChunks(
        database.db,
        'privacy_requests',
        Array.from({ length: 3_000 }, (_, i) => request(i)),
      );
    });
    after(async () => {
      await database.close();
      await target.drop();
    });

    it('reads privacy_requests once, not once per request', async () => {
      const { result: found, plan: text } = await planOf(database, (db) =>
        listRequests(db, { workspaceIds: ['w'], overdue: true, now: NOW, limit: 51 }),
      );
      assert.deepEqual(
        found.map((r) => r.id),
        ['pr_00000010', 'pr_00000008', 'pr_00000006', 'pr_00000004', 'pr_00000002', 'pr_00000000'],
      );
      assert.doesNotMatch(text, /Nested Loop|CORRELATED/, text);
    });
  });
}
