/**
 * Migration 2026-11-21T0004-growth-indexes: the indexes that keep erasures, access packages, the
 * list endpoint and the retention sweeper off full table scans (issue 5, cost as data grows;
 * measured by `npm run bench:growth`). On SQLite the planner's choice is checked too: with an
 * index it SEARCHes, without one it would SCAN the table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { createDatabase, type Database } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { FINAL_STATUSES, OPEN_STATUSES } from '../../../src/modules/request-model/request-model.js';
import { findAuthoredChangeEvents } from '../../../src/modules/subject-data/subject-data.repository.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const INDEXES = [
  'change_events_author_account_idx',
  // 0004's privacy_requests_subject_idx, replaced by this one in 2026-11-24T0401 (same searches).
  'privacy_requests_subject_key_idx',
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
        assert.match(requests, /privacy_requests_subject_key_idx/);
        assert.doesNotMatch(requests, /SCAN privacy_requests/);
        const events = await plan(
          `select * from change_events where workspace_id = 'w' and (author_pseudonym in ('p') or (provider = 'github' and author_account_id = '1')) order by id`,
        );
        assert.match(events, /change_events_author_account_idx/);
        assert.doesNotMatch(events, /SCAN change_events/);
      });
      it("plans the erasure's own search for the subject's change events as index searches, not a workspace scan", async () => {
        // 5,000 events in 50 workspaces, 1,000 authors, no account ids (pseudonymous policies), then
        // statistics: the shape on which `workspace_id = ? AND (… OR …)` read the whole workspace.
        await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 5000)
          insert into change_events (id, workspace_id, integration_id, provider, repository, number, action, author_account_id,
            author_pseudonym, decision, policy_version, received_at)
          select printf('chg_%08d', i), 'ws' || (i % 50), 'int', 'github', 'r' || (i % 20), i, 'opened',
            null, 'p' || (i % 1000), '{}', 'v', '2026-01-01T00:00:00.000Z' from n`.execute(database.db);
        await sql`analyze`.execute(database.db);
        // The statement the repository runs, as it runs it (captured, then explained with its parameters).
        const nodes: RootOperationNode[] = [];
        const capture: KyselyPlugin = {
          transformQuery: ({ node }) => (nodes.push(node), node),
          transformResult: async ({ result }) => result,
        };
        const accounts = [
          { provider: 'github', account_id: '1' },
          { provider: 'okta', account_id: 'u1' },
        ];
        const found = await findAuthoredChangeEvents(database.db.withPlugin(capture), 'ws1', accounts, 'k'.repeat(64));
        assert.deepEqual(found, []);
        const statement = database.db.getExecutor().compileQuery(nodes[0] as RootOperationNode, { queryId: 'plan' });
        const explained = await database.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
        );
        const events = explained.rows.map((r) => r.detail).join(' | ');
        assert.match(events, /MULTI-INDEX OR/);
        assert.match(events, /change_events_author_pseudonym_idx \(workspace_id=\? AND author_pseudonym=\?\)/);
        assert.match(events, /change_events_author_account_idx \(workspace_id=\? AND author_account_id=\?\)/);
      });
      it('walks the retention pairs with index searches that stop at the first entry', async () => {
        const sameWorkspace = await plan(
          `select workspace_id, repository, received_at from change_events where workspace_id = 'w' and repository > 'w/r1' order by workspace_id, repository, received_at limit 1`,
        );
        assert.match(sameWorkspace, /COVERING INDEX change_events_retention_idx \(workspace_id=\? AND repository>\?\)/);
        assert.doesNotMatch(sameWorkspace, /TEMP B-TREE/);
        const nextWorkspace = await plan(
          `select workspace_id, repository, received_at from change_events where workspace_id > 'w' order by workspace_id, repository, received_at limit 1`,
        );
        assert.match(nextWorkspace, /COVERING INDEX change_events_retention_idx \(workspace_id>\?\)/);
        assert.doesNotMatch(nextWorkspace, /TEMP B-TREE/);
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
