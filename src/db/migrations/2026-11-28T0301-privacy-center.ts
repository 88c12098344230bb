import type { Kysely } from 'kysely';
import { createIndex, ID, WORKSPACE_ID, TIME, DIGEST, notNull, primaryKey } from './columns.js';
import { documentTable, lastWrite, workspaceTable } from './table-shapes.js';
import { dropTables } from './statements.js';

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
  await documentTable(db, 'privacy_center_settings')
    .addColumn('enabled', 'integer', notNull)
    .addColumn('request_types', 'text', notNull)
    .addColumn('title', 'varchar(200)')
    .$call(lastWrite('varchar(200)'))
    .execute();
  await workspaceTable(db, 'privacy_center_submissions')
    .addColumn('request_type', 'varchar(20)', notNull)
    .addColumn('email', 'varchar(254)', notNull)
    .addColumn('code_hash', DIGEST, notNull)
    .addColumn('code_expires_at', TIME, notNull)
    .addColumn('attempts_left', 'integer', notNull)
    .addColumn('submitted_at', TIME, notNull)
    .addColumn('verified_at', TIME)
    .addColumn('request_id', ID)
    .execute();
  await createIndex(db, 'privacy_center_submissions_submitted', 'privacy_center_submissions', ['submitted_at']);
  await db.schema
    .createTable('privacy_center_status_tokens')
    .addColumn('token_hash', DIGEST, primaryKey)
    .addColumn('request_id', ID, notNull)
    .addColumn('workspace_id', WORKSPACE_ID, notNull)
    .addColumn('created_at', TIME, notNull)
    .execute();
  await workspaceTable(db, 'privacy_center_mails')
    .addColumn('request_id', ID)
    .addColumn('kind', 'varchar(30)', notNull)
    .addColumn('recipient', 'varchar(254)', notNull)
    .addColumn('payload', 'text', notNull)
    .addColumn('created_at', TIME, notNull)
    .addColumn('next_attempt_at', TIME, notNull)
    .addColumn('attempts', 'integer', notNull)
    .addColumn('lease_expires_at', TIME)
    .addColumn('sent_at', TIME)
    .execute();
  await createIndex(db, 'privacy_center_mails_due', 'privacy_center_mails', ['sent_at', 'next_attempt_at']);
  await db.schema
    .createTable('request_notify_addresses')
    .addColumn('request_id', ID, primaryKey)
    .addColumn('workspace_id', WORKSPACE_ID, notNull)
    .addColumn('email', 'varchar(254)', notNull)
    .addColumn('status_link', 'integer', notNull)
    .addColumn('extension_reason', 'text')
    .execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, [
    'request_notify_addresses',
    'privacy_center_mails',
    'privacy_center_status_tokens',
    'privacy_center_submissions',
    'privacy_center_settings',
  ]);
}
