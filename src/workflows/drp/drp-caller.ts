import type { Executor } from '../../db/executor.js';
import { fail, ok, type DrpResult } from '../../modules/drp/drp-failure.types.js';
import {
  findPairing,
  findPairingWithEarlier,
  type PairedCaller,
  REPLACED_TOKEN_GRACE_MS,
} from '../../modules/drp/drp-pairing.repository.js';
import type { EarlierExercise } from '../../modules/drp/drp-request.repository.js';
import { bearerPairingToken, pairingTokenHash } from '../../modules/drp/pairing-token.fns.js';
import { storedVerifyKey } from './verify-keys.js';
import type { AgentSigner } from './pair-drp-agent.js';

/** The agent a bearer token stands for, ready to check its signed bodies. */
export interface DrpCaller extends PairedCaller {
  /** The one key its messages may be signed with, for `agent` and `businessId`. */
  readonly signer: AgentSigner;
  /** What was read with the pairing for an exercise ({@link findPairingWithEarlier}), when asked. */
  readonly prefetched?: { readonly agentRequestId: string | null; readonly earlier: EarlierExercise | undefined };
}

/**
 * The caller of a DRP route behind a bearer token (src/modules/drp/README.md "Wiring it", step 1;
 * PRODUCT §2.19 "Bearer token"): the token of `Authorization`, found by its SHA-256; unknown,
 * replaced more than 24 h ago, or of a disabled agent → `token_invalid` (401); DRP off for the
 * workspace → `drp_disabled` (403).
 * @param exercise - an exercise's digest and `agent-request-id` as read from its unverified
 *   bytes: the single-use read is made in the same statement (`prefetched`).
 */
export async function drpCaller(
  db: Executor,
  authorization: string | undefined,
  now: Date,
  exercise?: { digest: string; agentRequestId: string | null },
): Promise<DrpResult<DrpCaller>> {
  const token = bearerPairingToken(authorization);
  if (token === null) return fail({ reason: 'token_invalid' });
  const hash = pairingTokenHash(token);
  let prefetched: DrpCaller['prefetched'];
  let paired: PairedCaller | undefined;
  if (exercise === undefined) paired = await findPairing(db, hash);
  else {
    const found = await findPairingWithEarlier(db, hash, exercise);
    if (found) {
      const { earlier, ...pairing } = found;
      paired = pairing;
      prefetched = { agentRequestId: exercise.agentRequestId, earlier };
    }
  }
  if (!paired || paired.agent.disabled === 1) return fail({ reason: 'token_invalid' });
  if (paired.replacedAt !== null && Date.parse(paired.replacedAt) + REPLACED_TOKEN_GRACE_MS <= now.getTime())
    return fail({ reason: 'token_invalid' });
  if (!paired.drpEnabled) return fail({ reason: 'drp_disabled' });
  const verifyKey = storedVerifyKey(paired.agent.verify_key);
  if (verifyKey === null) return fail({ reason: 'token_invalid' });
  return ok({
    ...paired,
    ...(prefetched === undefined ? {} : { prefetched }),
    signer: { agentId: paired.agent.agent_id, businessId: paired.businessId, verifyKey, row: paired.agent },
  });
}
