import type { Executor } from '../../db/executor.js';
import { updateRows } from '../../db/row-match.js';

/** What processing a request produced, or undefined. */
export async function findResult(db: Executor, requestId: string) {
  return db.selectFrom('request_results').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}

/** Stored packages whose expiry the retention sweeper has not computed yet, oldest first, at most `limit`. */
export async function packagesWithoutExpiry(db: Executor, limit: number) {
  return db
    .selectFrom('request_results')
    .select(['request_id', 'package', 'created_at'])
    .where('package', 'is not', null)
    .where('package_expires_at', 'is', null)
    .orderBy('request_id')
    .limit(limit)
    .execute();
}

/** Records when a request's package is to be deleted. */
export async function setPackageExpiry(db: Executor, requestId: string, expiresAt: string): Promise<void> {
  await db.updateTable('request_results').set({ package_expires_at: expiresAt }).where('request_id', '=', requestId).execute();
}

/**
 * Deletes (sets to null, marking `package_expired_at`) up to `limit` packages whose expiry is at
 * or before `now`. @returns how many.
 */
export async function deleteDuePackages(db: Executor, now: string, limit: number): Promise<number> {
  const due = db
    .selectFrom('request_results')
    .select('request_id')
    .where('package', 'is not', null)
    .where('package_expires_at', '<=', now)
    .limit(limit);
  const result = await db
    .updateTable('request_results')
    .set({ package: null, package_expired_at: now, package_erasure_held: null })
    .where('request_id', 'in', due)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Records the first fetch of a request's package (its delivery, PRODUCT §2.13), unless one was
 * recorded already. @returns true when this call recorded it: exactly one fetch does, even
 * across processes (a conditional update).
 */
export async function markPackageFetched(db: Executor, requestId: string, now: string): Promise<boolean> {
  return (
    (await updateRows(
      db,
      'request_results',
      { package_fetched_at: now },
      { request_id: requestId, package_fetched_at: null },
    )) === 1n
  );
}

/**
 * Packages a deletion held an erasure on (in transit then) that have been fetched since, at most
 * `limit`: the retention sweep erases them now (through `request_results_held_idx`).
 */
export async function deliveredHeldPackages(db: Executor, limit: number) {
  return db
    .selectFrom('request_results')
    .select(['request_id', 'package', 'package_erasure_held'])
    .where('package_erasure_held', 'is not', null)
    .where('package_fetched_at', 'is not', null)
    .orderBy('request_id')
    .limit(limit)
    .execute();
}

/**
 * Stores a delivered package after its held erasure (null: nothing left, erased) and clears the
 * hold, only while the hold is still `held` as read: a deletion that cut the package meanwhile
 * cleared it, and its cut stands (a stale copy is never written back).
 */
export async function finishHeldErasure(db: Executor, requestId: string, held: string, pkg: string | null): Promise<void> {
  await db
    .updateTable('request_results')
    .set({ package: pkg, package_erasure_held: null })
    .where('request_id', '=', requestId)
    .where('package_erasure_held', '=', held)
    .execute();
}
