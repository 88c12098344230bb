import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { type ActorRef, actorFields, recordAudit } from '../../modules/audit/audit.repository.js';
import { DrpAgentIdTakenError, VerifyKeyInvalidError } from '../../modules/drp/drp-admin.errors.js';
import { storedDetails, toDrpAgent } from '../../modules/drp/drp-admin.fns.js';
import { DRP_AGENT_DETAILS, type DrpAgent, type DrpAgentInput } from '../../modules/drp/drp-admin.types.js';
import { type DrpAgentRow, findDrpAgentInWorkspace, insertDrpAgent } from '../../modules/drp/drp-agent.repository.js';
import { type DrpVerifyKey, parseVerifyKey } from '../../modules/drp/signed-body.fns.js';

/**
 * The verify key of a registration, parsed (PRODUCT §2.19: standard Base64 of the 32 raw Ed25519
 * bytes, padding optional; the 64-hex form and low-order points refused).
 * @throws VerifyKeyInvalidError (the 422 `verify_key_invalid` at `["body","verify_key"]`).
 */
export function registeredKey(text: string): DrpVerifyKey {
  const parsed = parseVerifyKey(text);
  if (!parsed.ok) throw new VerifyKeyInvalidError(parsed.problem, text);
  return parsed.key;
}

/**
 * Registers an authorized agent in a workspace (PRODUCT §2.19, `POST /api/v1/drp/agents`): trust
 * comes from this registration alone. Audited (`drp.agent_registered`: the agent id and the key's
 * fingerprint; no contact).
 * @returns the registration (`agt_…`), not yet paired.
 * @throws VerifyKeyInvalidError (422); DrpAgentIdTakenError when the workspace holds `agent_id` (409).
 */
export async function registerDrpAgent(
  deps: { db: Executor; clock: Clock },
  input: DrpAgentInput,
  actor: ActorRef,
): Promise<DrpAgent> {
  const key = registeredKey(input.verify_key);
  const at = toTimestamp(deps.clock());
  const row: DrpAgentRow = {
    id: newId('agt'),
    workspace_id: input.workspace_id,
    agent_id: input.agent_id,
    name: input.name,
    verify_key: key.text,
    key_fingerprint: key.fingerprint,
    details: storedDetails(DRP_AGENT_DETAILS, input),
    confirm_with_consumer: input.confirm_with_consumer ? 1 : 0,
    disabled: 0,
    paired_at: null,
    created_at: at,
    updated_at: at,
  };
  await runUnitOfWork(deps.db, async (unit) => {
    if (await findDrpAgentInWorkspace(unit.tx, input.workspace_id, input.agent_id))
      throw new DrpAgentIdTakenError(input.agent_id);
    await insertDrpAgent(unit.tx, row);
    recordAudit(unit, {
      ...actorFields(actor),
      action: 'drp.agent_registered',
      targetType: 'drp_agent',
      targetId: row.id,
      workspaceId: row.workspace_id,
      details: { agent_id: row.agent_id, key_fingerprint: row.key_fingerprint },
      occurredAt: at,
    });
  });
  return toDrpAgent(row);
}
