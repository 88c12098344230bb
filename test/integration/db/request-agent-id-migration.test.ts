/**
 * The migration that adds `privacy_requests.agent_id` (issue 37, PRODUCT §2.19 "In the queue")
 * gives requests an agent filed before it their agent's id, read from `agent`'s JSON, so the
 * queue's `agent_id` filter finds them after an upgrade; other requests get none. On SQLite and
 * PostgreSQL.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PostgresAdapter, sql } from 'kysely';
import { createDatabase } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { dialects } from '../../helpers/databases.js';
import { migrateBefore } from '../../helpers/migrate-before.js';

const MIGRATION = '2026-12-08T0701-request-agent-id';

function request(id: string, agent: object | null) {
  return {
    id,
    workspace_id: 'acme',
    request_type: 'deletion',
    scope: '["user"]',
    subject_provider: 'email',
    subject_id: `${id}@example.com`,
    client_request_id: id,
    intake_ref: 'test',
    regulation: 'ccpa',
    status: 'pending_approval',
    status_reason: null,
    received_at: '2026-12-01T00:00:00.000Z',
    created_at: '2026-12-01T00:00:00.000Z',
    due_at: '2027-01-15T00:00:00.000Z',
    extended_due_at: null,
    completed_at: null,
    updated_at: '2026-12-01T00:00:00.000Z',
    attempts: 0,
    lease_owner: null,
    lease_expires_at: null,
    next_attempt_at: null,
    filed_by: 'test',
    related_request_id: null,
    agent: agent === null ? null : JSON.stringify(agent),
  };
}

for (const dialect of dialects()) {
  describe(`privacy_requests.agent_id migration (${dialect.name})`, () => {
    it("requests filed by an agent before it get the agent's id; others none; the filter's index is there", async () => {
      const target = await dialect.create();
      const database = createDatabase(target.url);
      try {
        const db = database.db;
        const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
        await migrateBefore(db, MIGRATION);
        await db
          .insertInto('privacy_requests')
          .values([
            request('pr_drp', { id: 'test-agent-01', name: 'Test Agent', drp_request_id: 'd-1', proof_ref: null }),
            request('pr_center', { id: 'a'.repeat(64), name: 'Rights Helper', drp_request_id: null, proof_ref: 'p-7' }),
            request('pr_plain', null),
          ] as never)
          .execute();
        await migrateToLatest(db);
        const rows = await db.selectFrom('privacy_requests').select(['id', 'agent_id']).orderBy('id').execute();
        assert.deepEqual(
          rows.map((r) => [r.id, r.agent_id]),
          [
            ['pr_center', 'a'.repeat(64)],
            ['pr_drp', 'test-agent-01'],
            ['pr_plain', null],
          ],
        );
        const indexes = isPg
          ? (
              await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'privacy_requests'`.execute(
                db,
              )
            ).rows
          : (
              await sql<{
                name: string;
              }>`select name from sqlite_master where type = 'index' and tbl_name = 'privacy_requests'`.execute(db)
            ).rows;
        assert.ok(indexes.some((i) => i.name === 'privacy_requests_agent_idx'));
      } finally {
        await database.close();
        await target.drop();
      }
    });
  });
}
