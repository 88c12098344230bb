/**
 * Migration 2026-11-21T0004-growth-indexes: the indexes that keep erasures, access packages, the
 * list endpoint and the retention sweeper off full table scans (issue 5, cost as data grows;
 * measured by `npm run bench:growth`). On SQLite the planner's choice is checked too: with an
 * index it SEARCHes, without one it would SCAN the table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { FINAL_STATUSES, OPEN_STATUSES } from '../../src/modules/privacy-requests/deadline.fns.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';

const INDEXES = [
  'change_events_author_account_idx',
  'privacy_requests_subject_idx',
  'privacy_requests_workspace_status_idx',
  'idempotency_records_response_location_idx',
  'idempotency_records_expires_at_idx',
  'webhook_deliveries_expires_at_idx',
];

/** The statuses of PRODUCT.md §2.3 "Lifecycle". */
const LIFECYCLE = ['pending_approval', 'queued', 'processing', 'completed', 'action_required', 'failed', 'rejected', 'canceled'];

describe('open and final statuses', () => {
  it('split the lifecycle: every status is exactly one of them', () => {
    for (const status of LIFECYCLE) {
      const open = (OPEN_STATUSES as readonly string[]).includes(status);
      const final = (FINAL_STATUSES as readonly string[]).includes(status);
      assert.ok(open !== final, `${status}: open ${open}, final ${final}`);
    }
    assert.equal(OPEN_STATUSES.length + FINAL_STATUSES.length, LIFECYCLE.length);
  });
});

for (const dialect of dialects()) {
  describe(`growth indexes (${dialect.name})`, () => {
    let target: TestDatabase;
    let database: Database;

    before(async () => {
      target = await dialect.create();
      database = createDatabase(target.url);
      await migrateToLatest(database.db);
    });
    after(async () => {
      await database.close();
      await target.drop();
    });

    it('creates every index of the migration', async () => {
      const names =
        dialect.name === 'sqlite'
          ? await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(database.db)
          : await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(
              database.db,
            );
      const found = new Set(names.rows.map((r) => r.name));
      for (const index of INDEXES) assert.ok(found.has(index), `missing ${index}`);
    });

    if (dialect.name === 'sqlite') {
      const plan = async (query: string) => {
        const rows = await sql<{ detail: string }>`explain query plan ${sql.raw(query)}`.execute(database.db);
        return rows.rows.map((r) => r.detail).join(' | ');
      };
      it("finds a subject's requests and authored change events through indexes (after ANALYZE of a filled workspace)", async () => {
        // 2,000 requests of 1,000 subjects in one workspace: with statistics, the planner prefers the subject index.
        await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 2000)
          insert into privacy_requests (id, workspace_id, request_type, scope, subject_provider, subject_id, client_request_id,
            intake_ref, regulation, status, created_at, due_at, updated_at)
          select printf('pr_%08d', i), 'w', 'access', '["user"]', 'okta', 'u' || (i % 1000), 'c' || i, 'r', 'gdpr', 'completed',
            '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' from n`.execute(database.db);
        await sql`analyze`.execute(database.db);
        const requests = await plan(
          `select * from privacy_requests where workspace_id = 'w' and id != 'x' and ((subject_provider = 'okta' and subject_id = 'u1') or (subject_provider = 'github' and subject_id = '1')) order by id`,
        );
        assert.match(requests, /privacy_requests_subject_idx/);
        assert.doesNotMatch(requests, /SCAN privacy_requests/);
        const events = await plan(
          `select * from change_events where workspace_id = 'w' and (author_pseudonym in ('p') or (provider = 'github' and author_account_id = '1')) order by id`,
        );
        assert.match(events, /change_events_author_account_idx/);
        assert.doesNotMatch(events, /SCAN change_events/);
      });
      it('serves erasure and sweeper deletes, the status filter and the gauges through indexes', async () => {
        assert.match(await plan(`delete from idempotency_records where response_location in ('a')`), /response_location_idx/);
        assert.match(await plan(`select 1 from idempotency_records where expires_at <= 'x' limit 500`), /expires_at_idx/);
        assert.match(await plan(`select 1 from webhook_deliveries where expires_at <= 'x' limit 500`), /expires_at_idx/);
        assert.match(
          await plan(`select * from privacy_requests where workspace_id = 'w' and status = 'failed' order by id desc limit 51`),
          /privacy_requests_workspace_status_idx/,
        );
        const open = OPEN_STATUSES.map((s) => `'${s}'`).join(', ');
        assert.doesNotMatch(
          await plan(`select regulation, count(*) from privacy_requests where status in (${open}) group by regulation`),
          /SCAN privacy_requests/,
        );
      });
    }
  });
}
