import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import type { Clock } from '../../lib/clock.js';
import { validateRevokeClaims } from '../../modules/drp/claims.fns.js';
import { fail, ok, type DrpResult } from '../../modules/drp/drp-failure.types.js';
import { type DrpRequestRow, updateDrpRequest } from '../../modules/drp/drp-request.repository.js';
import { endWait } from '../../modules/drp/drp-verification.repository.js';
import type { DrpStatusObject } from '../../modules/drp/drp.types.js';
import { checkSignedMessage } from '../../modules/drp/message-checks.fns.js';
import { InvalidTransitionError } from '../../modules/privacy-requests/privacy-request.errors.js';
import { actOnRequest } from '../requests/act-on-request.js';
import { sendStatusObject } from './drp-callbacks.js';
import { type DrpCaller, drpCaller } from './drp-caller.js';
import { callersRecord, currentStatusObject } from './drp-request-status.js';
import { agentPrincipal } from './drp-principal.js';
import type { ResultsLinks } from './drp-status-facts.js';

const FINAL = new Set(['fulfilled', 'denied', 'expired']);

/**
 * Data Rights Revoke (DRP §2.04; PRODUCT §2.19 "Revoke", `DELETE
 * /drp/v1/data-rights-request/{request_id}`): the bearer token's agent, the signed body (its
 * envelope claims checked when present), a `request_id` in it naming the path's; the agent's own
 * record. An open privacy request is canceled through the operator actions' one path, with the
 * reason "Revoked by the authorized agent: …" and the agent as the audit actor; the answer is the
 * status object, `revoked`, and a second revoke answers the same. A record already `fulfilled`,
 * `denied` or `expired` is a 409 and nothing changes; an opt-out still being applied is a 409
 * `not_revocable` (opt-outs have no cancel yet).
 */
export async function revokeDrpRequest(
  deps: { db: Executor; clock: Clock; resultsLinks: ResultsLinks },
  authorization: string | undefined,
  requestId: string,
  body: Uint8Array,
): Promise<DrpResult<DrpStatusObject>> {
  const now = deps.clock();
  const caller = await drpCaller(deps.db, authorization, now);
  if (!caller.ok) return caller;
  const checked = await checkSignedMessage(body, { signers: [caller.value.signer], now, envelope: 'when_present' });
  if (!checked.ok) return checked;
  const claims = validateRevokeClaims(checked.value.message, requestId);
  if (!claims.ok) return claims;
  const reason = `${REVOKED_REASON}${claims.value.reason === null ? '' : `: ${claims.value.reason}`}`;
  const first = await revokeRecord(deps, caller.value, requestId, reason, now);
  // The person's code filed it (or its 14 days ended) while the wait was being revoked: once more, as it is now.
  if (first !== 'no_longer_waiting') return first;
  const again = await revokeRecord(deps, caller.value, requestId, reason, now);
  // The wait ends in the same commit as the record's change, so a second read never finds it waiting.
  return again === 'no_longer_waiting' ? fail({ reason: 'not_revocable' }) : again;
}

/** The reason an agent's revoke gives a request it cancels (PRODUCT §2.19 "Revoke"). */
export const REVOKED_REASON = 'Revoked by the authorized agent';

/**
 * Revokes the caller's record as it is now: a waiting one ends its wait ({@link revokeWaiting}),
 * a filed one cancels its privacy request.
 * @returns the status object or the refusal; `no_longer_waiting` when the record was waiting at
 *   the read but its wait was gone at the revoke (the caller reads it again).
 */
async function revokeRecord(
  deps: { db: Executor; clock: Clock; resultsLinks: ResultsLinks },
  caller: DrpCaller,
  requestId: string,
  reason: string,
  now: Date,
): Promise<DrpResult<DrpStatusObject> | 'no_longer_waiting'> {
  const record = await callersRecord(deps.db, caller, requestId);
  if (!record.ok) return record;
  const before = await currentStatusObject(deps, requestId, now);
  if (before.status === 'revoked') return ok(before);
  if (FINAL.has(before.status)) return fail({ reason: 'already_final', status: before.status as 'fulfilled' });
  if (record.value.status === 'awaiting_person') {
    const answer = await revokeWaiting(deps, record.value, now);
    return answer === null ? 'no_longer_waiting' : ok(answer);
  }
  if (record.value.privacy_request_id === null) return fail({ reason: 'not_revocable' });
  try {
    await actOnRequest(deps, agentPrincipal(caller), record.value.privacy_request_id, 'cancel', { reason });
  } catch (error) {
    if (error instanceof InvalidTransitionError) return fail({ reason: 'not_revocable' });
    throw error;
  }
  await updateDrpRequest(deps.db, requestId, { revoked: 1 });
  const revoked = { ...record.value, revoked: 1 };
  // The agent's own revoke sends a callback too (PRODUCT §2.19 "Status callbacks").
  const answer = await currentStatusObject(deps, requestId, now, revoked.status_callback === null);
  await sendStatusObject(deps.db, revoked, answer, now);
  return ok(answer);
}

/**
 * Revokes a DRP request still waiting for the person's code: nothing was filed, so the record is
 * marked revoked and its wait (with the sealed address) deleted, in one commit; the page's link
 * opens nothing after. Answers `revoked`, and sends it as a callback like any revoke. A code
 * entered meanwhile may still file it: that filing then finds the record revoked and cancels
 * what it filed (verify-drp-person.ts `fileVerified`).
 * @returns null, changing nothing, when the wait was already gone (filed or lapsed since the read).
 */
async function revokeWaiting(
  deps: { db: Executor; clock: Clock; resultsLinks: ResultsLinks },
  record: DrpRequestRow,
  now: Date,
): Promise<DrpStatusObject | null> {
  const ended = await runUnitOfWork(deps.db, (unit) =>
    endWait(unit.tx, record.request_id, { revoked: 1 }, { unverifiedOnly: false }),
  );
  if (!ended) return null;
  const revoked = { ...record, revoked: 1 };
  const answer = await currentStatusObject(deps, record.request_id, now, revoked.status_callback === null);
  await sendStatusObject(deps.db, revoked, answer, now);
  return answer;
}
