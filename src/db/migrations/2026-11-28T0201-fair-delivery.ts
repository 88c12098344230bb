import { type Kysely, sql } from 'kysely';
import { createIndex } from './columns.js';

/**
 * Fair outbound delivery (issue 23 item 1): the claim reads, per endpoint, its oldest due pending
 * messages (`outbound_messages_endpoint_due`: endpoint, status, due time, id: the claim's order, no sort) and how many of its
 * messages are leased now (`outbound_messages_leased`, partial: only rows with a lease, which are
 * the attempts in flight and few), index probes whatever the backlog or the delivered history.
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createIndex(db, 'outbound_messages_endpoint_due', 'outbound_messages', [
    'endpoint_id',
    'status',
    'next_attempt_at',
    'id',
  ]);
  await createIndex(db, 'outbound_messages_leased', 'outbound_messages', ['endpoint_id', 'lease_until'], (index) =>
    index.where(sql.ref('lease_until'), 'is not', null),
  );
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbound_messages_leased').execute();
  await db.schema.dropIndex('outbound_messages_endpoint_due').execute();
}
