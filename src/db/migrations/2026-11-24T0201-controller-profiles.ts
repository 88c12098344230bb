import type { Kysely } from 'kysely';
import { WORKSPACE_ID, TIME, notNull, primaryKey } from './columns.js';

/**
 * Controller profiles (issue 13 item 3, PRODUCT §2.10): one row per workspace naming who answers
 * for its data (GDPR Art. 4(7)). `profile` is the JSON object the API accepted (name,
 * contact_email, dpo_contact, representative, supervisory_authority, privacy_notice_url);
 * `version` counts the writes (1 for the first). Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('controller_profiles')
    .addColumn('workspace_id', WORKSPACE_ID, primaryKey)
    .addColumn('profile', 'text', notNull)
    .addColumn('version', 'integer', notNull)
    .addColumn('updated_at', TIME, notNull)
    .addColumn('updated_by', 'varchar(200)', notNull)
    .execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('controller_profiles').execute();
}
