import { type Kysely, sql } from 'kysely';
import { createIndex, TIME, DIGEST, notNull } from './columns.js';
import { workspaceTable } from './table-shapes.js';
import { dropColumns, dropIndexes, dropTables } from './statements.js';

/**
 * The officer's day (issue 26, PRODUCT §2.16):
 *
 * - `privacy_requests.assignee`: the operator a request is assigned to (their name as the audit
 *   trail shows it), null when nobody holds it. Indexed only where set
 *   (`privacy_requests_assignee_idx`, partial `WHERE assignee IS NOT NULL`): a filing writes
 *   nothing to it (every request is filed unassigned), and `assignee=<name>` and the queue
 *   counts' assigned part are a range of it.
 * - `request_notes`: internal working notes on a request. `text` is null once a deletion of the
 *   request's subject erased it (`erased_at`); `text_sha256` is what the audit entry holds.
 *
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').addColumn('assignee', 'varchar(300)').execute();
  await createIndex(db, 'privacy_requests_assignee_idx', 'privacy_requests', ['assignee', 'workspace_id', 'status'], (index) =>
    index.where(sql.ref('assignee'), 'is not', null),
  );
  await workspaceTable(db, 'request_notes', 'request_id')
    .addColumn('text', 'text')
    .addColumn('text_sha256', DIGEST, notNull)
    .addColumn('author', 'varchar(300)', notNull)
    .addColumn('author_name', 'varchar(300)', notNull)
    .addColumn('created_at', TIME, notNull)
    .addColumn('erased_at', TIME)
    .execute();
  await createIndex(db, 'request_notes_request_idx', 'request_notes', ['request_id', 'id']);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['request_notes']);
  await dropIndexes(db, ['privacy_requests_assignee_idx']);
  await dropColumns(db, 'privacy_requests', ['assignee']);
}
