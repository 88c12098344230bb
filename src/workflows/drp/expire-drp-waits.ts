import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { endWait, expiredUserVerifications } from '../../modules/drp/drp-verification.repository.js';
import { NOT_CONFIRMED_DETAILS } from '../../modules/drp/user-verification.fns.js';

/** Waits ended per sweep at most (the next sweep takes the rest). */
const EXPIRY_BATCH = 200;

/**
 * Ends the DRP requests whose person did not enter the code within 14 days (PRODUCT §2.19
 * "Identity"): each becomes `denied`/`insuf_verification` (due at the end of the 14 days, with
 * {@link NOT_CONFIRMED_DETAILS}) and its wait, with the sealed address, is deleted, in one commit
 * each ({@link endExpiredWait}). A wait verified but not yet filed is left to the person's next entry
 * (it files then), also when it was verified after this sweep read it.
 * The callbacks' sweep that follows sends the change to the agent.
 * @returns how many were ended.
 */
export async function expireDrpWaits(deps: { db: Executor; clock: Clock }): Promise<number> {
  const now = toTimestamp(deps.clock());
  const ids = await expiredUserVerifications(deps.db, now, EXPIRY_BATCH);
  let ended = 0;
  for (const requestId of ids) if (await endExpiredWait(deps.db, requestId, now)) ended++;
  return ended;
}

/**
 * Ends one expired wait in one commit ({@link endWait}: the record locked first), unless the
 * person verified it since the sweep read it.
 * @returns whether it was ended.
 */
export async function endExpiredWait(db: Executor, requestId: string, now: string): Promise<boolean> {
  return runUnitOfWork(db, (unit) =>
    endWait(
      unit.tx,
      requestId,
      { status: 'denied', reason: 'insuf_verification', processing_details: NOT_CONFIRMED_DETAILS, due_at: now },
      { unverifiedOnly: true },
    ),
  );
}
