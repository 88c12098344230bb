import { type CreateIndexBuilder, type Kysely, sql } from 'kysely';

/**
 * Drops `privacy_requests_workspace_status_due_idx` and creates it again on `workspace_id, status,
 * coalesce(extended_due_at, due_at)`, then the columns `more` appends.
 */
async function replaceDueIndex(
  db: Kysely<any>,
  more: (index: CreateIndexBuilder<any>) => CreateIndexBuilder<any>,
): Promise<void> {
  await db.schema.dropIndex('privacy_requests_workspace_status_due_idx').execute();
  const index = db.schema
    .createIndex('privacy_requests_workspace_status_due_idx')
    .on('privacy_requests')
    .columns(['workspace_id', 'status'])
    .expression(sql`coalesce(extended_due_at, due_at)`);
  await more(index).execute();
}

/**
 * The queue's counts (`GET /api/v1/privacy/requests/stats`, `queueCounts` in
 * queue-stats.repository.ts) read every open request of the caller's workspaces through
 * `privacy_requests_workspace_status_due_idx` (0005: `workspace_id, status, coalesce(extended_due_at,
 * due_at)`), then each request's table row for one more column, `assignee` (`unassigned_open`).
 * Replaced here by the same index with `assignee` last, so on SQLite the counts are read from the
 * index alone (`USING COVERING INDEX`: no table row per open request). The same number of
 * indexes: a filing writes one entry into it as before, a few bytes longer (`assignee` is null
 * when a request is filed). Every query that used the old index can use this one (its leading
 * columns are the old index's). PostgreSQL cannot answer an expression from an index alone (it
 * needs the expression's columns), so there it only replaces the old index.
 *
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await replaceDueIndex(db, (index) => index.column('assignee'));
}

/** Restores the index of 2026-11-21T0005-overdue-index. */
export async function down(db: Kysely<any>): Promise<void> {
  await replaceDueIndex(db, (index) => index);
}
