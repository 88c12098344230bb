import type { Kysely } from 'kysely';

/**
 * Repeated requests (issue 38, PRODUCT §2.20): `privacy_requests.related_request_id`, the most
 * recent request of the same type for the same matched subject in the workspace that was open,
 * or completed within the policy's `repeat_window_days`, when this one was filed (it then waits in
 * `action_required` as `repeat_request`); null for every other request. Not indexed: nothing
 * searches by it, and a filing writes no index page for it. Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').addColumn('related_request_id', 'varchar(40)').execute();
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').dropColumn('related_request_id').execute();
}
