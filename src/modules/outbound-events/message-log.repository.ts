import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { OutboundMessageStatus, OutboundMessageTable } from './outbound-event.table.js';

export type OutboundMessageRow = Selectable<OutboundMessageTable>;

/** A page of an endpoint's messages, newest first, after the cursor id `before` when given. */
export async function listMessages(
  db: Executor,
  query: { endpointId: string; status?: OutboundMessageStatus; before?: string; limit: number },
): Promise<OutboundMessageRow[]> {
  let select = db.selectFrom('outbound_messages').selectAll().where('endpoint_id', '=', query.endpointId);
  if (query.status) select = select.where('status', '=', query.status);
  if (query.before) select = select.where('id', '<', query.before);
  return select.orderBy('id', 'desc').limit(query.limit).execute();
}

/** One message of an endpoint, or undefined. */
export async function findMessage(db: Executor, endpointId: string, id: string): Promise<OutboundMessageRow | undefined> {
  return db
    .selectFrom('outbound_messages')
    .selectAll()
    .where('id', '=', id)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst();
}

/**
 * Makes message `id` due at `now` again, whatever its status (a manual retry): `pending`, next
 * attempt now, no lease. A worker holding it in an attempt loses the lease; its record is dropped.
 */
export async function requeueMessage(db: Executor, id: string, now: string): Promise<void> {
  await db
    .updateTable('outbound_messages')
    .set({ status: 'pending', next_attempt_at: now, lease_until: null })
    .where('id', '=', id)
    .execute();
}

/** Makes every `failed` message of an endpoint created at or after `since` due at `now`. @returns how many. */
export async function requeueFailedSince(db: Executor, endpointId: string, since: string, now: string): Promise<number> {
  const result = await db
    .updateTable('outbound_messages')
    .set({ status: 'pending', next_attempt_at: now, lease_until: null })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'failed')
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
