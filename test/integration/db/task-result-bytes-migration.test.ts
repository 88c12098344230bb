/**
 * The migration that adds `data_tasks.result_bytes` (issue 23 item 2) gives results stored before
 * it their size in bytes (UTF-8), so the per-request cap counts them from the first post after an
 * upgrade. On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDatabase } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { dialects } from '../../helpers/databases.js';
import { migrateBefore } from '../../helpers/migrate-before.js';

const MIGRATION = '2026-11-28T0501-task-result-bytes';

for (const dialect of dialects()) {
  describe(`data_tasks.result_bytes migration (${dialect.name})`, () => {
    it('results stored before it get their size; tasks without a result get none', async () => {
      const target = await dialect.create();
      const database = createDatabase(target.url);
      try {
        const db = database.db;
        await migrateBefore(db, MIGRATION);
        const result = JSON.stringify({ outcome: 'completed', data: { 'user.name': 'Zoë Ångström ✓' } });
        const task = (id: string, stored: string | null) => ({
          id,
          request_id: 'pr_1',
          workspace_id: 'acme',
          system_key: id,
          request_type: 'access',
          categories: '["user"]',
          status: stored === null ? 'pending' : 'completed',
          due_at: '2026-12-01T00:00:00.000Z',
          created_at: '2026-11-01T00:00:00.000Z',
          updated_at: '2026-11-01T00:00:00.000Z',
          completed_at: null,
          result: stored,
          overdue_notified_at: null,
          executor: 'manual',
          attempts: 0,
          lease_owner: null,
          lease_expires_at: null,
          next_attempt_at: null,
          identities_ciphertext: null,
        });
        await db
          .insertInto('data_tasks')
          .values([task('crm', result), task('erp', null)] as never)
          .execute();
        await migrateToLatest(db);
        const rows = await db.selectFrom('data_tasks').select(['id', 'result_bytes']).orderBy('id').execute();
        assert.deepEqual(
          rows.map((r) => [r.id, r.result_bytes === null ? null : Number(r.result_bytes)]),
          [
            ['crm', Buffer.byteLength(result)],
            ['erp', null],
          ],
        );
      } finally {
        await database.close();
        await target.drop();
      }
    });
  });
}
