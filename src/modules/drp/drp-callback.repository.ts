import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { DrpCallbackTable } from '../../db/tables/drp.table.js';

export type DrpCallbackRow = Selectable<DrpCallbackTable>;

/**
 * Enqueues a callback (PRODUCT §2.19): the request's callbacks still pending are `superseded`
 * first (the most recent status is the one to get through).
 */
export async function enqueueCallback(db: Executor, row: DrpCallbackRow): Promise<void> {
  await db
    .updateTable('drp_callbacks')
    .set({ status: 'superseded', next_attempt_at: null })
    .where('request_id', '=', row.request_id)
    .where('status', '=', 'pending')
    .execute();
  await db.insertInto('drp_callbacks').values(row).execute();
}

/**
 * Claims up to `limit` due callbacks (`pending`, `next_attempt_at` ≤ now, no lease or a lapsed
 * one) until `leaseUntil`: each is taken by one conditional UPDATE, so two senders never hold
 * the same one. @returns the claimed rows.
 */
export async function claimDueCallbacks(db: Executor, now: string, leaseUntil: string, limit: number): Promise<DrpCallbackRow[]> {
  const due = await db
    .selectFrom('drp_callbacks')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  const claimed: DrpCallbackRow[] = [];
  for (const { id } of due) {
    const result = await db
      .updateTable('drp_callbacks')
      .set({ lease_expires_at: leaseUntil })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) continue;
    const row = await db.selectFrom('drp_callbacks').selectAll().where('id', '=', id).executeTakeFirst();
    if (row) claimed.push(row);
  }
  return claimed;
}

/**
 * Records an attempt of a claimed callback, only while it is still `pending` under this lease (a
 * newer callback may have superseded it meanwhile): delivered, retried at `nextAttemptAt`, or
 * `failed` when that is null.
 */
export async function recordCallbackAttempt(
  db: Executor,
  claimed: Pick<DrpCallbackRow, 'id' | 'attempts' | 'lease_expires_at'>,
  outcome: { ok: boolean; error: string | null; at: string; nextAttemptAt: string | null },
): Promise<void> {
  const attempts = claimed.attempts + 1;
  const changes = outcome.ok
    ? { status: 'delivered', delivered_at: outcome.at, next_attempt_at: null, last_error: null }
    : outcome.nextAttemptAt === null
      ? { status: 'failed', next_attempt_at: null, last_error: outcome.error }
      : { next_attempt_at: outcome.nextAttemptAt, last_error: outcome.error };
  let query = db
    .updateTable('drp_callbacks')
    .set({ ...changes, attempts, lease_expires_at: null })
    .where('id', '=', claimed.id)
    .where('status', '=', 'pending');
  query =
    claimed.lease_expires_at === null
      ? query.where('lease_expires_at', 'is', null)
      : query.where('lease_expires_at', '=', claimed.lease_expires_at);
  await query.execute();
}

/** The callbacks of an agent registration, newest first, at most `limit`; optionally of one `status`. */
export async function listAgentCallbacks(
  db: Executor,
  agentRef: string,
  filters: { status?: string; limit: number },
): Promise<DrpCallbackRow[]> {
  let query = db.selectFrom('drp_callbacks').selectAll().where('agent_ref', '=', agentRef);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  return query.orderBy('id', 'desc').limit(filters.limit).execute();
}
