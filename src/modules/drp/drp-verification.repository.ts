import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { forUpdate } from '../../db/locking.js';
import type { DrpUserVerificationTable } from '../../db/tables/drp.table.js';

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
 * Deletes a wait (filed, revoked, or its 14 days passed).
 * @returns whether there was one to delete (false: another path ended the wait first).
 */
export async function deleteUserVerification(db: Executor, requestId: string): Promise<boolean> {
  const result = await db.deleteFrom('drp_user_verifications').where('request_id', '=', requestId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Deletes a wait only while it is not verified (the expiry sweep's end of a wait: a person who
 * entered the right code since the sweep read it keeps it; on PostgreSQL the delete waits for
 * that entry's row lock and then finds the row no longer matching).
 * @returns whether it was deleted.
 */
export async function deleteUnverifiedWait(db: Executor, requestId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('drp_user_verifications')
    .where('request_id', '=', requestId)
    .where('verified_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
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
