import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import type { Transact } from '../../db/write-batcher.js';
import { toTimestamp } from '../../lib/clock.js';
import { fail, ok, type DrpResult } from '../../modules/drp/drp-failure.types.js';
import { digestRequest, keepDigest } from '../../modules/drp/drp-pairing.repository.js';
import { drpRequestState } from '../../modules/drp/drp-record.fns.js';
import { type DrpRequestRow, findEarlierExercise, insertDrpRequests } from '../../modules/drp/drp-request.repository.js';
import { insertUserVerification } from '../../modules/drp/drp-verification.repository.js';
import type { DrpStatusObject } from '../../modules/drp/drp.types.js';
import type { ExercisePlan } from '../../modules/drp/exercise-plan.fns.js';
import { storedStatusObject } from '../../modules/drp/results-link.fns.js';
import { drpStatusObject } from '../../modules/drp/status-object.fns.js';
import { USER_VERIFICATION_WINDOW_MS } from '../../modules/drp/user-verification.fns.js';
import type { PendingDrpFiling } from './file-drp-plan.js';

/** A signed body's digest, kept until its `expires-at` (the single-use rule), and the time now (ISO). */
export interface SingleUse {
  readonly digest: string;
  readonly expiresAt: string;
  readonly now: string;
}

/**
 * A DRP record that files nothing now (a denial, a fulfilment without filing, or a wait for the
 * person's code, PRODUCT §2.19): the record with its answered status object and the body's
 * digest, and for a wait what it will file (sealed) in `drp_user_verifications`, in one commit;
 * a digest or `agent-request-id` stored meanwhile is a 409.
 */
export async function storeUnfiledRecord(
  deps: {
    db: Executor;
    transact: Transact;
    seal: (plaintext: string) => string;
    verificationUrl: (workspaceId: string, requestId: string) => string;
  },
  record: DrpRequestRow,
  single: SingleUse,
  now: Date,
  plan: ExercisePlan,
): Promise<DrpResult<DrpStatusObject>> {
  const waiting = record.status === 'awaiting_person' && plan.outcome !== 'denied' && plan.outcome !== 'opt_out';
  const verificationUrl = waiting ? deps.verificationUrl(record.workspace_id, record.request_id) : null;
  const answer = drpStatusObject(drpRequestState(record, { verificationUrl }), now);
  try {
    return await deps.transact(async (unit) => {
      const kept = await keepDigest(unit.tx, { ...single, requestId: record.request_id });
      if (!kept) return fail({ reason: 'replayed', requestId: (await digestRequest(unit.tx, single.digest)) ?? null });
      await insertDrpRequests(unit.tx, [{ ...record, last_status: JSON.stringify(storedStatusObject(answer)) }]);
      if (waiting) {
        const pending: PendingDrpFiling = {
          filing:
            plan.outcome === 'privacy_request'
              ? { outcome: plan.outcome, request: plan.request }
              : { outcome: plan.outcome, optOut: plan.optOut },
          agent: {
            agent_id: record.agent_id,
            name: plan.outcome === 'privacy_request' ? plan.request.agent.name : plan.optOut.agent.name,
          },
        };
        await insertUserVerification(unit.tx, {
          request_id: record.request_id,
          workspace_id: record.workspace_id,
          filing_sealed: deps.seal(JSON.stringify(pending)),
          code_hash: null,
          code_expires_at: null,
          attempts_left: 0,
          codes_sent: 0,
          verified_at: null,
          expires_at: toTimestamp(new Date(now.getTime() + USER_VERIFICATION_WINDOW_MS)),
          created_at: single.now,
        });
      }
      return ok(answer);
    });
  } catch (error) {
    if (!isUniqueViolation(error) || record.agent_request_id === null) throw error;
    return alreadyReceived(deps.db, record, single.digest);
  }
}

/**
 * The 409 of a body or `agent-request-id` received before (PRODUCT §2.19), naming the first
 * DRP request when it is committed (null while it is still being filed).
 */
export async function alreadyReceived(db: Executor, record: DrpRequestRow, digest: string): Promise<DrpResult<never>> {
  const earlier = await findEarlierExercise(db, { digest, agentRef: record.agent_ref, agentRequestId: record.agent_request_id });
  return fail(earlier ?? { reason: record.agent_request_id === null ? 'replayed' : 'agent_request_id_reused', requestId: null });
}
