import { type Kysely, sql } from 'kysely';
import { TIME } from './columns.js';

/**
 * `privacy_requests.received_at` (issue 22 item 5, PRODUCT §2.13): when the controller received
 * the request (a letter that came by post, a ticket opened last week); deadlines count from it.
 * Requests filed before this migration were received when they were filed: backfilled from
 * `created_at`. The service writes it on every filing. Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').addColumn('received_at', TIME).execute();
  await sql`update privacy_requests set received_at = created_at where received_at is null`.execute(db);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').dropColumn('received_at').execute();
}
