import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { toTimestamp } from '../../lib/clock.js';
import { deleteUnverifiedAgentSubmissionsBefore, lockUnansweredAgentSubmissions } from './agent-submission.repository.js';
import { CONFIRM_TTL_MS, endUnconfirmed } from './agent-submission.service.js';
import { SUBMISSION_TTL_MS } from './privacy-center.fns.js';

/** The actor of an agent submission ended for want of an answer. */
const SWEEPER = { id: 'retention-sweeper', name: 'retention-sweeper' };

/**
 * One batch of the agent path's expiries (PRODUCT §2.19), as of `now`: agent submissions never
 * verified, older than 24 h, are deleted (the agent never proved its address: no mail); verified
 * ones the person did not answer within 14 days are deleted, the agent mailed that the person did
 * not confirm, and audited (`agent_request.not_confirmed`, reason `no_answer`), up to `limit` each.
 * @returns how many were deleted.
 */
export async function expireAgentSubmissions(db: Kysely<DB>, now: Date, limit: number): Promise<number> {
  const unverified = await deleteUnverifiedAgentSubmissionsBefore(
    db,
    toTimestamp(new Date(now.getTime() - SUBMISSION_TTL_MS)),
    limit,
  );
  const unanswered = await runUnitOfWork(db, async (unit) => {
    const rows = await lockUnansweredAgentSubmissions(unit.tx, toTimestamp(new Date(now.getTime() - CONFIRM_TTL_MS)), limit);
    for (const row of rows) await endUnconfirmed(unit, row, SWEEPER, 'no_answer', toTimestamp(now));
    return rows.length;
  });
  return unverified + unanswered;
}
