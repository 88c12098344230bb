/**
 * Migration 2026-11-24T0006: the deadline sweep (jobs/deadline-events.ts) finds the requests whose
 * due-soon or overdue moment is not dealt with through `privacy_requests_deadline_sweep_idx`, a
 * partial index that holds only requests whose overdue moment is not marked: however many
 * requests stay overdue and marked, a sweep reads only what is left to do. Checked on the
 * statement the repository runs, on a database with statistics, as overdue-index.test.ts does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../src/db/database.js';
import { findUnmarked } from '../../../src/modules/privacy-requests/deadline-notice.repository.js';
import { dialects } from '../../helpers/databases.js';
import { openSeededRequests, requestRow, type SeededDatabase } from '../../helpers/seeded-database.js';
import { planOf } from '../../helpers/query-plan.js';

/** 20,000 requests, one filed every 20 minutes from 2026-01-01, each due 30 days later. */
const COUNT = 20_000;
const START_MS = Date.parse('2026-01-01T00:00:00.000Z');
const STEP_MS = 20 * 60 * 1000;
const DUE_MS = 30 * 24 * 60 * 60 * 1000;
/** Requests up to #19800 are due by now; all due before #19795's date are already marked. */
const NOW_MS = START_MS + DUE_MS + (COUNT - 200) * STEP_MS;
const iso = (ms: number) => new Date(ms).toISOString();

function request(i: number) {
  const created = START_MS + i * STEP_MS;
  const due = created + DUE_MS;
  const marked = due < NOW_MS - 5 * STEP_MS ? iso(due) : null;
  return requestRow(i, {
    created_at: iso(created),
    due_at: iso(due),
    due_soon_notified_at: marked,
    overdue_notified_at: marked,
  });
}

for (const dialect of dialects()) {
  describe(`deadline sweep index (${dialect.name})`, () => {
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

    it('finds exactly the overdue requests left to do, through the partial index', async () => {
      const { result: found, plan: text } = await planOf(database, (db) => findUnmarked(db, 'overdue', iso(NOW_MS), 200));
      assert.deepEqual(
        found.map((r) => r.id),
        ['pr_00019795', 'pr_00019796', 'pr_00019797', 'pr_00019798', 'pr_00019799', 'pr_00019800'],
      );
      assert.match(text, /privacy_requests_deadline_sweep_idx/, text);
      assert.doesNotMatch(text, /Seq Scan|SCAN privacy_requests(?! USING)/, text);
    });
  });
}
