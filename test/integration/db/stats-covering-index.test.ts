/**
 * Migration 2026-11-28T0801-stats-covering-index: the queue's counts (`queueCounts`, the
 * `/stats` endpoint) read a workspace's open requests through
 * `privacy_requests_workspace_status_due_idx`, which now ends with `assignee`: on SQLite from the
 * index alone (`USING COVERING INDEX`, no table row per open request), on both databases never
 * the workspace's final requests or the table. The counts are checked against the seeded rows
 * computed here. The statement checked is the one the repository runs, on tables with statistics.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../../src/db/database.js';
import { queueCounts } from '../../../src/modules/privacy-requests/queue-stats.repository.js';
import { listRequests } from '../../../src/modules/privacy-requests/privacy-request-list.repository.js';
import { dialects } from '../../helpers/databases.js';
import { insertInChunks, openSeededDatabase, requestRow, type SeededDatabase } from '../../helpers/seeded-database.js';
import { planOf } from '../../helpers/query-plan.js';

const COUNT = 20_000;
const DAY = 86_400_000;
const NOW = '2026-06-01T00:00:00.000Z';
const SOON = new Date(Date.parse(NOW) + 7 * DAY).toISOString();
const OPEN = ['queued', 'processing', 'action_required', 'pending_approval'];

/**
 * Twenty workspaces; every 41st request open (one of four open statuses), the rest completed;
 * due dates spread over 30 days either side of NOW (some extended); every third open one assigned
 * (set after the insert: a filing never sets `assignee`).
 */
const assigned = (i: number) => i % 41 === 0 && i % 3 === 0;

function request(i: number) {
  const open = i % 41 === 0;
  const k = Math.floor(i / 820);
  const due = new Date(Date.parse(NOW) + ((k * 7) % 60) * DAY - 30 * DAY + (i % 1000)).toISOString();
  return requestRow(i, {
    workspace_id: `w${i % 20}`,
    status: open ? (OPEN[(k + i) % 4] as string) : 'completed',
    due_at: due,
    extended_due_at: open && i % 7 === 0 ? new Date(Date.parse(due) + 45 * DAY).toISOString() : null,
  });
}

/** What the counts must be for `workspaces`, computed from the rows. */
function expected(workspaces: string[]) {
  const rows = Array.from({ length: COUNT }, (_, i) => ({ ...request(i), assigned: assigned(i) })).filter(
    (r) => workspaces.includes(r.workspace_id) && OPEN.includes(r.status),
  );
  const due = (r: ReturnType<typeof request>) => r.extended_due_at ?? r.due_at;
  return {
    open: rows.length,
    overdue: rows.filter((r) => due(r) < NOW).length,
    due_within_7_days: rows.filter((r) => due(r) >= NOW && due(r) <= SOON).length,
    pending_approval: rows.filter((r) => r.status === 'pending_approval').length,
    action_required: rows.filter((r) => r.status === 'action_required').length,
    unassigned_open: rows.filter((r) => !r.assigned).length,
  };
}

for (const dialect of dialects()) {
  describe(`queue counts through the covering due-date index (${dialect.name})`, () => {
    let seeded: SeededDatabase;
    let database: Database;

    before(async () => {
      seeded = await openSeededDatabase(dialect, async (db) => {
        await insertInChunks(
          db,
          'privacy_requests',
          Array.from({ length: COUNT }, (_, i) => request(i)),
        );
        const ids = Array.from({ length: COUNT }, (_, i) => i).filter(assigned);
        for (const i of ids)
          await db
            .updateTable('privacy_requests')
            .set({ assignee: `officer ${i % 5}` })
            .where('id', '=', request(i).id)
            .execute();
      });
      database = seeded.database;
    });
    after(() => seeded.close());

    it('ends privacy_requests_workspace_status_due_idx with assignee', async () => {
      const definition =
        dialect.name === 'sqlite'
          ? await sql<{
              d: string;
            }>`select sql as d from sqlite_master where name = 'privacy_requests_workspace_status_due_idx'`.execute(database.db)
          : await sql<{ d: string }>`select indexdef as d from pg_indexes
              where schemaname = current_schema() and indexname = 'privacy_requests_workspace_status_due_idx'`.execute(
              database.db,
            );
      assert.match(definition.rows[0]?.d ?? '', /workspace_id.*status.*coalesce.*extended_due_at.*due_at.*assignee/is);
    });

    it('counts one workspace exactly, from the index alone on SQLite, never scanning the table', async () => {
      const { result, plan } = await planOf(database, (db) => queueCounts(db, ['w0'], NOW, SOON));
      const want = expected(['w0']);
      assert.ok(want.open > 0 && want.unassigned_open < want.open && want.overdue > 0 && want.due_within_7_days > 0);
      assert.deepEqual(result, want);
      assert.match(plan, /privacy_requests_workspace_status_due_idx/, plan);
      if (dialect.name === 'sqlite') assert.match(plan, /USING COVERING INDEX privacy_requests_workspace_status_due_idx/, plan);
      assert.doesNotMatch(plan, /Seq Scan|SCAN privacy_requests(?! USING)/, plan);
    });

    it('counts several workspaces exactly', async () => {
      const { result, plan } = await planOf(database, (db) => queueCounts(db, ['w0', 'w3', 'w7'], NOW, SOON));
      assert.deepEqual(result, expected(['w0', 'w3', 'w7']));
      assert.doesNotMatch(plan, /Seq Scan|SCAN privacy_requests(?! USING)/, plan);
    });

    it('still serves the overdue list through the index (its leading columns are the old index)', async () => {
      const { result, plan } = await planOf(database, (db) =>
        listRequests(db, { workspaceIds: ['w0'], overdue: true, now: NOW, limit: 51 }),
      );
      assert.equal(result.length, Math.min(51, expected(['w0']).overdue));
      assert.match(plan, /privacy_requests_(workspace_status_)?due_idx/, plan);
      assert.doesNotMatch(plan, /Seq Scan|SCAN privacy_requests(?! USING)/, plan);
    });
  });
}
