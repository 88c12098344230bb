import { type Kysely, sql } from 'kysely';

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
  await db.schema
    .createIndex('privacy_requests_assignee_idx')
    .on('privacy_requests')
    .columns(['assignee', 'workspace_id', 'status'])
    .where(sql.ref('assignee'), 'is not', null)
    .execute();
  await db.schema
    .createTable('request_notes')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('request_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('text_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('author', 'varchar(300)', (c) => c.notNull())
    .addColumn('author_name', 'varchar(300)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('erased_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('request_notes_request_idx').on('request_notes').columns(['request_id', 'id']).execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('request_notes').execute();
  await db.schema.dropIndex('privacy_requests_assignee_idx').execute();
  await db.schema.alterTable('privacy_requests').dropColumn('assignee').execute();
}
