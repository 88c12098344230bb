import type { Kysely } from 'kysely';

/**
 * The privacy center (issue 25, PRODUCT §2.15), four tables:
 * - `privacy_center_settings`: per workspace, whether the public form is on and which request
 *   types it offers (`request_types`, a JSON array) under which `title`;
 * - `privacy_center_submissions`: what a person submitted before proving the address is theirs
 *   (not a privacy request: no event, no task); the 6-digit code only as a keyed hash
 *   (`code_hash`), its expiry and the attempts left; `request_id` once verified. Deleted 24 h
 *   after `submitted_at` by the retention sweeper;
 * - `privacy_center_status_tokens`: capability tokens of a request's status page, as hashes (one
 *   per mail that links it);
 * - `privacy_center_mails`: the mail outbox (written in the unit of work of the change it reports;
 *   delivered by the worker's mail loop, `sent_at` set once sent).
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('privacy_center_settings')
    .addColumn('workspace_id', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('request_types', 'text', (c) => c.notNull())
    .addColumn('title', 'varchar(200)')
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(200)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('privacy_center_submissions')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('request_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('code_expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('attempts_left', 'integer', (c) => c.notNull())
    .addColumn('submitted_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('verified_at', 'varchar(30)')
    .addColumn('request_id', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('privacy_center_submissions_submitted')
    .on('privacy_center_submissions')
    .column('submitted_at')
    .execute();
  await db.schema
    .createTable('privacy_center_status_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('request_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('privacy_center_mails')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('request_id', 'varchar(40)')
    .addColumn('kind', 'varchar(30)', (c) => c.notNull())
    .addColumn('recipient', 'varchar(254)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('next_attempt_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('lease_expires_at', 'varchar(30)')
    .addColumn('sent_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('privacy_center_mails_due')
    .on('privacy_center_mails')
    .columns(['sent_at', 'next_attempt_at'])
    .execute();
  await db.schema
    .createTable('request_notify_addresses')
    .addColumn('request_id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('status_link', 'integer', (c) => c.notNull())
    .addColumn('extension_reason', 'text')
    .execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'request_notify_addresses',
    'privacy_center_mails',
    'privacy_center_status_tokens',
    'privacy_center_submissions',
    'privacy_center_settings',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
