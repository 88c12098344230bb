import type { Kysely } from 'kysely';
import { notNull } from './columns.js';
import { documentTable, lastWrite } from './table-shapes.js';
import { dropTables } from './statements.js';

/**
 * Controller profiles (issue 13 item 3, PRODUCT §2.10): one row per workspace naming who answers
 * for its data (GDPR Art. 4(7)). `profile` is the JSON object the API accepted (name,
 * contact_email, dpo_contact, representative, supervisory_authority, privacy_notice_url);
 * `version` counts the writes (1 for the first). Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await documentTable(db, 'controller_profiles')
    .addColumn('profile', 'text', notNull)
    .addColumn('version', 'integer', notNull)
    .$call(lastWrite('varchar(200)'))
    .execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['controller_profiles']);
}
