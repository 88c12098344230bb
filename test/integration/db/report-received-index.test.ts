/**
 * Migration 2026-11-28T0802-report-received-index: the requests report over a period reads the
 * period's requests of its workspaces through `privacy_requests_workspace_received_idx`, not every
 * request of the workspace (three years here: a yearly report reads one). The statement checked is
 * the one `reportFigures` runs, on tables with statistics; its counts are checked against the
 * seeded rows (the figures themselves: request-report-exact.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../src/db/database.js';
import { reportFigures } from '../../../src/modules/privacy-requests/request-report.repository.js';
import { dialects } from '../../helpers/databases.js';
import { openSeededRequests, requestRow, type SeededDatabase } from '../../helpers/seeded-database.js';
import { planOf } from '../../helpers/query-plan.js';

const COUNT = 30_000;
const START_MS = Date.parse('2024-01-01T00:00:00.000Z');
/** Three years of requests, one every ~53 minutes, in twenty workspaces. */
const STEP_MS = Math.floor((3 * 365 * 86_400_000) / COUNT);
const iso = (ms: number) => new Date(ms).toISOString();

function request(i: number) {
  const received = START_MS + i * STEP_MS;
  return requestRow(i, {
    workspace_id: `w${i % 20}`,
    status: i % 10 === 0 ? 'queued' : i % 10 === 1 ? 'rejected' : 'completed',
    received_at: iso(received),
    created_at: iso(received),
    updated_at: iso(received + (i % 30) * 86_400_000),
    completed_at: i % 10 > 1 ? iso(received + (i % 30) * 86_400_000) : null,
    due_at: iso(received + 45 * 86_400_000),
    regulation: i % 3 === 0 ? 'ccpa' : 'gdpr',
  });
}

for (const dialect of dialects()) {
  describe(`the report over a period, through (workspace_id, received_at) (${dialect.name})`, () => {
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

    it("reads one year of one workspace's requests through the index, and counts them all", async () => {
      const range = { workspaceIds: ['w3'], from: '2025-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' };
      const { result, plan } = await planOf(database, (db) => reportFigures(db, range));
      const want = Array.from({ length: COUNT }, (_, i) => request(i)).filter(
        (r) => r.workspace_id === 'w3' && r.received_at >= range.from && r.received_at < range.to,
      );
      assert.ok(want.length > 400 && want.length < 600, `${want.length}`);
      assert.equal(
        result.counts.reduce((sum, c) => sum + c.count, 0),
        want.length,
      );
      assert.equal(
        result.counts.filter((c) => c.status === 'completed').reduce((sum, c) => sum + c.count, 0),
        want.filter((r) => r.status === 'completed').length,
      );
      assert.match(plan, /privacy_requests_workspace_received_idx/, plan);
      assert.doesNotMatch(plan, /Seq Scan on privacy_requests|SCAN privacy_requests(?! USING)/, plan);
    });
  });
}
