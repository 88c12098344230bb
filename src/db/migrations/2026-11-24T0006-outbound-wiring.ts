import { type Kysely, sql } from 'kysely';
import { createIndex, ID, TIME } from './columns.js';

/**
 * Outbound events wired into the service (issue 14 part 1, PRODUCT §2.8):
 * - `privacy_requests.due_soon_notified_at` / `overdue_notified_at`: when the deadline sweep
 *   dealt with the request's due-soon / overdue moment (enqueued the event, or found the request
 *   final and had nothing to send), with one partial index on the binding due date of requests
 *   whose overdue moment is not dealt with yet, so a sweep reads only what is left to do (and, for
 *   due-soon, at most the requests due within the coming week), however many requests there are.
 * - `outbound_messages.request_id`: the privacy request a message reports (null for endpoint
 *   events), so a subject's erasure can clear the payloads of delivered messages about it.
 * - `webhook_endpoints.updated_at`: the endpoint's last change.
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').addColumn('due_soon_notified_at', TIME).execute();
  await db.schema.alterTable('privacy_requests').addColumn('overdue_notified_at', TIME).execute();
  // One partial index serves both moments: a request's overdue moment comes after its due-soon
  // one, so the index holds only requests whose deadline events are not all dealt with.
  await db.schema
    .createIndex('privacy_requests_deadline_sweep_idx')
    .on('privacy_requests')
    .expression(sql`coalesce(extended_due_at, due_at)`)
    .where(sql.ref('overdue_notified_at'), 'is', null)
    .execute();
  await db.schema.alterTable('outbound_messages').addColumn('request_id', ID).execute();
  await createIndex(db, 'outbound_messages_request', 'outbound_messages', ['request_id']);
  await db.schema.alterTable('webhook_endpoints').addColumn('updated_at', TIME).execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbound_messages_request').execute();
  await db.schema.alterTable('outbound_messages').dropColumn('request_id').execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('updated_at').execute();
  await db.schema.dropIndex('privacy_requests_deadline_sweep_idx').execute();
  await db.schema.alterTable('privacy_requests').dropColumn('due_soon_notified_at').execute();
  await db.schema.alterTable('privacy_requests').dropColumn('overdue_notified_at').execute();
}
