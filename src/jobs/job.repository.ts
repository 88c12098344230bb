import type { Executor } from '../db/executor.js';
import { isPostgres } from '../db/locking.js';
import type { PrivacyRequestRow } from '../modules/privacy-requests/privacy-request.repository.js';

/**
 * Claims the next request to process: `queued` and due (no backoff pending), or `processing`
 * with an expired lease (its worker died). One statement; on PostgreSQL the candidate row is
 * taken `FOR UPDATE SKIP LOCKED`, so concurrent workers never claim the same request.
 *
 * @returns the claimed row (status `processing`, leased to `owner` until `leaseUntil`), or undefined.
 */
export async function claimNext(
  db: Executor,
  owner: string,
  now: string,
  leaseUntil: string,
): Promise<PrivacyRequestRow | undefined> {
  let candidate = db
    .selectFrom('privacy_requests')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)])]),
        eb.and([eb('status', '=', 'processing'), eb('lease_expires_at', '<', now)]),
      ]),
    )
    .orderBy('id')
    .limit(1);
  if (isPostgres(db)) candidate = candidate.forUpdate().skipLocked();
  return db
    .updateTable('privacy_requests')
    .set((eb) => ({
      status: 'processing',
      lease_owner: owner,
      lease_expires_at: leaseUntil,
      attempts: eb('attempts', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', (eb) => eb.selectFrom(candidate.as('c')).select('c.id'))
    .returningAll()
    .executeTakeFirst();
}

/** Extends the lease while the owner still holds it. @returns false when the lease was lost. */
export async function extendLease(db: Executor, id: string, owner: string, leaseUntil: string): Promise<boolean> {
  const result = await db
    .updateTable('privacy_requests')
    .set({ lease_expires_at: leaseUntil })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Ends an attempt: sets the new status (and fields) only while `owner` still holds the request
 * in `processing`. @returns false when it does not (lease lost, or canceled meanwhile).
 */
export async function finishAttempt(
  db: Executor,
  id: string,
  owner: string,
  fields: {
    status: string;
    status_reason?: string | null;
    completed_at?: string | null;
    next_attempt_at?: string | null;
    updated_at: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('privacy_requests')
    .set({ ...fields, lease_owner: null, lease_expires_at: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
