import type { Kysely } from 'kysely';
import { skipLocked } from '../../db/locking.js';
import type { DB } from '../../db/schema.js';
import type { OutboundMessageStatus } from '../../db/tables/outbound-event.table.js';

/** A message claimed for delivery, with what its attempt needs from its endpoint. */
export interface ClaimedMessage {
  id: string;
  endpoint_id: string;
  workspace_id: string;
  payload: string;
  attempts: string;
  attempt_count: number;
  /** The lease this claim holds; recording the attempt requires it to still match. */
  lease_until: string;
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: string | null;
  /** The endpoint's run of failures as of the claim (null: its last attempt succeeded). */
  failing_since: string | null;
}

/**
 * Claims up to `limit` pending messages due at `now` whose lease (if any) ran out, leasing them
 * until `leaseUntil`, in one short transaction (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so N
 * workers claim different messages without waiting). The attempt itself happens after the
 * commit, outside any transaction; a worker that dies mid-attempt leaves the lease to run out
 * and another worker sends the message again (at-least-once).
 */
export async function claimDueMessages(
  db: Kysely<DB>,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<ClaimedMessage[]> {
  return db.transaction().execute(async (tx) => {
    const due = await skipLocked(
      tx,
      tx
        .selectFrom('outbound_messages')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit),
    ).execute();
    if (due.length === 0) return [];
    const ids = due.map((d) => d.id);
    await tx.updateTable('outbound_messages').set({ lease_until: leaseUntil }).where('id', 'in', ids).execute();
    const rows = await tx
      .selectFrom('outbound_messages as m')
      .innerJoin('webhook_endpoints as e', 'e.id', 'm.endpoint_id')
      .select([
        'm.id',
        'm.endpoint_id',
        'm.workspace_id',
        'm.payload',
        'm.attempts',
        'm.attempt_count',
        'e.url',
        'e.secret_ciphertext',
        'e.previous_secret_ciphertext',
        'e.previous_secret_expires_at',
        'e.failing_since',
      ])
      .where('m.id', 'in', ids)
      .execute();
    return rows.map((r) => ({ ...r, lease_until: leaseUntil }));
  });
}

/** What an attempt changes on its message. */
export interface AttemptRecord {
  status: OutboundMessageStatus;
  attempts: string;
  attempt_count: number;
  next_attempt_at: string | null;
}

/**
 * Records an attempt on message `id` if this worker's lease still holds it (`lease_until`
 * unchanged), and releases the lease. Answers false when another worker took the message over
 * after the lease ran out (its record wins).
 */
export async function recordAttempt(db: Kysely<DB>, id: string, lease: string, record: AttemptRecord): Promise<boolean> {
  const result = await db
    .updateTable('outbound_messages')
    .set({ ...record, lease_until: null })
    .where('id', '=', id)
    .where('lease_until', '=', lease)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
