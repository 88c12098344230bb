import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { forUpdate } from '../../db/locking.js';
import type { DrpRequestTable, DrpUserVerificationTable } from '../../db/tables/drp.table.js';
import { lockDrpRequest, updateDrpRequest } from './drp-request.repository.js';

export type DrpUserVerificationRow = Selectable<DrpUserVerificationTable>;

/** Stores a DRP request's wait for the person's code (PRODUCT §2.19). */
export async function insertUserVerification(db: Executor, row: DrpUserVerificationRow): Promise<void> {
  await db.insertInto('drp_user_verifications').values(row).execute();
}

/** The wait of DRP request `requestId` in `workspaceId`, locked for update (PostgreSQL), or undefined. */
export async function lockUserVerification(
  db: Executor,
  workspaceId: string,
  requestId: string,
): Promise<DrpUserVerificationRow | undefined> {
  return forUpdate(
    db,
    db
      .selectFrom('drp_user_verifications')
      .selectAll()
      .where('request_id', '=', requestId)
      .where('workspace_id', '=', workspaceId),
  ).executeTakeFirst();
}

/** Changes a wait (a code sent, a try, verified). */
export async function updateUserVerification(
  db: Executor,
  requestId: string,
  changes: Updateable<DrpUserVerificationTable>,
): Promise<void> {
  await db.updateTable('drp_user_verifications').set(changes).where('request_id', '=', requestId).execute();
}

/**
 * Ends the wait of DRP request `requestId` and changes its record in the caller's transaction: the
 * record is locked first, then the wait deleted (the order the filing of a verified code takes
 * them in: modules/drp/drp-record-filing.ts), so a revoke, the expiry sweep and a filing never
 * deadlock on PostgreSQL; the record changes only when the wait was deleted. With
 * `unverifiedOnly` a wait the person verified meanwhile is kept (the expiry sweep: the person's
 * next entry files it); on PostgreSQL the delete waits for that entry's row lock and then finds
 * the row no longer matching.
 * @returns whether the wait was there to end (false: filed, revoked, lapsed or verified since the caller read it).
 */
export async function endWait(
  db: Executor,
  requestId: string,
  record: Updateable<DrpRequestTable>,
  options: { unverifiedOnly: boolean },
): Promise<boolean> {
  await lockDrpRequest(db, requestId);
  let deleting = db.deleteFrom('drp_user_verifications').where('request_id', '=', requestId);
  if (options.unverifiedOnly) deleting = deleting.where('verified_at', 'is', null);
  if (Number((await deleting.executeTakeFirst()).numDeletedRows) === 0) return false;
  await updateDrpRequest(db, requestId, record);
  return true;
}

/** Request ids of waits whose 14 days ended before `now` and that were never verified, at most `limit`. */
export async function expiredUserVerifications(db: Executor, now: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('drp_user_verifications')
    .select('request_id')
    .where('expires_at', '<', now)
    .where('verified_at', 'is', null)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.request_id);
}
