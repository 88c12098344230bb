import type { Kysely } from 'kysely';
import { createIndex, ID, notNull, primaryKey, TIME } from './columns.js';
import { dropTables } from './statements.js';

/**
 * DRP status callbacks (issue 37, PRODUCT §2.19 "Status callbacks"): `drp_callbacks`, one row per
 * status object to POST to a DRP request's `status_callback` (`cb_…`, the `drp-callback-id`
 * header on every retry), `pending` until `delivered`, `failed` after the last retry, or
 * `superseded` by a newer one for the same request. Due ones are found by
 * `drp_callbacks_due_idx`. Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('drp_callbacks')
    .addColumn('id', ID, primaryKey)
    .addColumn('request_id', 'varchar(36)', notNull)
    .addColumn('workspace_id', 'varchar(200)', notNull)
    .addColumn('agent_ref', ID, notNull)
    .addColumn('url', 'varchar(2000)', notNull)
    .addColumn('payload', 'text', notNull)
    .addColumn('status', 'varchar(20)', notNull)
    .addColumn('attempts', 'integer', notNull)
    .addColumn('next_attempt_at', TIME)
    .addColumn('lease_expires_at', TIME)
    .addColumn('last_error', 'varchar(200)')
    .addColumn('created_at', TIME, notNull)
    .addColumn('delivered_at', TIME)
    .execute();
  await createIndex(db, 'drp_callbacks_due_idx', 'drp_callbacks', ['status', 'next_attempt_at']);
  await createIndex(db, 'drp_callbacks_request_idx', 'drp_callbacks', ['request_id']);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['drp_callbacks']);
}
