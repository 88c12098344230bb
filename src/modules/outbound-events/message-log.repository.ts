import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { findRow } from '../../db/row-match.js';
import type { DeferredWrites, UnitOfWork } from '../../db/unit-of-work.js';
import type { OutboundMessageStatus, OutboundMessageTable } from '../../db/tables/outbound-event.table.js';

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
  return findRow(db, 'outbound_messages', { id, endpoint_id: endpointId });
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

/**
 * Replaces the payload of every sent message (`delivered` or `failed`) about the requests `ids`
 * with `{"type","timestamp","data":{"id","redacted":true}}`: an erasure's step, since a
 * `data_task.created` payload names the subject's accounts (PRODUCT §2.9) and no copy of erased
 * data may stay. Pending messages keep theirs until sent. @returns how many were redacted.
 */
export async function redactSentMessages(db: Executor, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .selectFrom('outbound_messages')
    .select(['id', 'event_type', 'created_at', 'request_id'])
    .where('request_id', 'in', [...ids])
    .where('status', 'in', ['delivered', 'failed'])
    .where('payload', 'not like', '%"redacted":true%')
    .execute();
  for (const row of rows) {
    const payload = JSON.stringify({
      type: row.event_type,
      timestamp: row.created_at,
      data: { id: row.request_id, redacted: true },
    });
    await db.updateTable('outbound_messages').set({ payload }).where('id', '=', row.id).execute();
  }
  return rows.length;
}

/** Redaction of sent payloads as a deferred write: the requests' sent messages lose their payload at commit. */
const payloadRedaction: DeferredWrites<string> = {
  name: 'outbound payload redaction',
  flush: async (tx, ids) => {
    await redactSentMessages(tx, [...new Set(ids)]);
  },
};

/**
 * Redacts, right before `unit` commits, the payloads of the messages already sent about request
 * `requestId` ({@link redactSentMessages}): for a deletion that ends, whose `data_task.created`
 * messages named the accounts it erased.
 */
export function redactSentMessagesAtCommit(unit: UnitOfWork, requestId: string): void {
  unit.defer(payloadRedaction, requestId);
}
