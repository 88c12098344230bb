import type { Kysely } from 'kysely';

/**
 * `privacy_requests.filed_by`: the principal that filed the request (`token:tok_…`, `oidc:<sub>`,
 * `integration:int_…`), so that it cannot approve it itself (separation of duties, issue 11 item
 * 10; docs/decisions.md). Requests filed before are filled in from their `privacy_request.created`
 * audit entry, which has always named the filer as its actor, in one joined UPDATE (no index on
 * `audit_events.target_id` is needed for a one-off join). A request without such an entry keeps
 * NULL: its filer is unknown. Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').addColumn('filed_by', 'varchar(300)').execute();
  await db
    .updateTable('privacy_requests')
    .from('audit_events')
    .set((eb) => ({ filed_by: eb.ref('audit_events.actor') }))
    .whereRef('audit_events.target_id', '=', 'privacy_requests.id')
    .where('audit_events.target_type', '=', 'privacy_request')
    .where('audit_events.action', '=', 'privacy_request.created')
    .execute();
}

/** Drops the column {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').dropColumn('filed_by').execute();
}
