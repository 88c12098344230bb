import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { recordAudit } from '../../modules/audit/audit.repository.js';
import { validateKeySetupClaims } from '../../modules/drp/claims.fns.js';
import { type DrpAgentRow, findPairableAgents } from '../../modules/drp/drp-agent.repository.js';
import { fail, ok, type DrpResult } from '../../modules/drp/drp-failure.types.js';
import { keepDigest, REPLACED_TOKEN_GRACE_MS, storePairing } from '../../modules/drp/drp-pairing.repository.js';
import { checkSignedMessage, type DrpSigner } from '../../modules/drp/message-checks.fns.js';
import { newPairingToken, pairingTokenHash } from '../../modules/drp/pairing-token.fns.js';
import { storedVerifyKey } from './verify-keys.js';

/** A registration as a possible signer of a DRP message. */
export type AgentSigner = DrpSigner & { readonly row: DrpAgentRow };

/** The audit actor of an agent's own action (PRODUCT §2.19: `{type:"agent", id, name}`). */
export function agentActor(row: Pick<DrpAgentRow, 'agent_id' | 'name'>): { actor: string; actorName: string } {
  return { actor: `agent:${row.agent_id}`, actorName: row.name };
}

/**
 * Pair-wise Key Setup (DRP §2.05; PRODUCT §2.19 "Key setup", `POST /drp/v1/agent/{agent-id}`):
 * the signed body is checked against every enabled registration of the path's agent in a
 * workspace with DRP on (the business it names picks the one), then `drp.version`, then the
 * single-use rule; a new `drp_…` token replaces the pair's previous one (valid 24 h longer) and
 * only its SHA-256 is stored. Audited (`drp.agent_paired`, the agent as actor).
 * @returns the agent id and the token (shown once), or the failure (answered 403 without a body;
 *   nothing stored, nothing audited).
 */
export async function pairDrpAgent(
  deps: { db: Executor; clock: Clock },
  pathAgentId: string,
  body: string | Uint8Array,
): Promise<DrpResult<{ agentId: string; token: string }>> {
  const now = deps.clock();
  const signers: AgentSigner[] = [];
  for (const row of await findPairableAgents(deps.db, pathAgentId)) {
    const verifyKey = storedVerifyKey(row.verify_key);
    if (verifyKey) signers.push({ agentId: row.agent_id, businessId: row.business_id, verifyKey, row });
  }
  if (signers.length === 0) return fail({ reason: 'agent_unknown' });
  const checked = await checkSignedMessage(body, { signers, now, envelope: 'required' });
  if (!checked.ok) return checked;
  const claims = validateKeySetupClaims(checked.value.message);
  if (!claims.ok) return claims;
  const agent = checked.value.signer.row;
  const token = newPairingToken();
  const at = toTimestamp(now);
  const stored = await runUnitOfWork(deps.db, async (unit) => {
    const kept = await keepDigest(unit.tx, {
      digest: checked.value.digest,
      requestId: null,
      expiresAt: toTimestamp(new Date(checked.value.expiresAt as number)),
      now: at,
    });
    if (!kept) return false;
    await storePairing(unit.tx, {
      tokenHash: pairingTokenHash(token),
      agentRef: agent.id,
      workspaceId: agent.workspace_id,
      at,
      graceStart: toTimestamp(new Date(now.getTime() - REPLACED_TOKEN_GRACE_MS)),
    });
    recordAudit(unit, {
      ...agentActor(agent),
      action: 'drp.agent_paired',
      targetType: 'drp_agent',
      targetId: agent.id,
      workspaceId: agent.workspace_id,
      details: { agent_id: agent.agent_id, key_fingerprint: agent.key_fingerprint },
      occurredAt: at,
    });
    return true;
  });
  return stored ? ok({ agentId: agent.agent_id, token }) : fail({ reason: 'replayed', requestId: null });
}
