import type { Executor } from '../../db/executor.js';
import { runUnitOfWork, type UnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { type ActorRef, actorFields, recordAudit } from '../../modules/audit/audit.repository.js';
import { DrpAgentNotFoundError } from '../../modules/drp/drp-admin.errors.js';
import { storedDetails, toDrpAgent } from '../../modules/drp/drp-admin.fns.js';
import { DRP_AGENT_DETAILS, type DrpAgent, type DrpAgentChanges } from '../../modules/drp/drp-admin.types.js';
import {
  deleteDrpAgent,
  type DrpAgentRow,
  findDrpAgent,
  updateDrpAgent,
  voidPairings,
} from '../../modules/drp/drp-agent.repository.js';
import { registeredKey } from './register-drp-agent.js';

type Deps = { db: Executor; clock: Clock };
type Covers = (workspaceId: string) => boolean;

async function found(unit: UnitOfWork, id: string, covers: Covers): Promise<DrpAgentRow> {
  const row = await findDrpAgent(unit.tx, id);
  if (!row || !covers(row.workspace_id)) throw new DrpAgentNotFoundError(id);
  return row;
}

function audit(unit: UnitOfWork, actor: ActorRef, action: string, row: DrpAgentRow, at: string, details: object) {
  recordAudit(unit, {
    ...actorFields(actor),
    action: `drp.agent_${action}`,
    targetType: 'drp_agent',
    targetId: row.id,
    workspaceId: row.workspace_id,
    details: { agent_id: row.agent_id, ...details },
    occurredAt: at,
  });
}

/**
 * Changes an agent registration (PRODUCT §2.19, `PATCH /api/v1/drp/agents/{id}`): absent fields
 * stay. A new key or `disabled: true` voids the agent's tokens at once (it pairs again); its
 * requests stay. Audited (`drp.agent_updated`: the fields changed, the key's fingerprint).
 * @param covers - whether the caller may see the registration's workspace (else 404).
 * @throws DrpAgentNotFoundError; VerifyKeyInvalidError (422).
 */
export async function updateDrpAgentRegistration(
  deps: Deps,
  id: string,
  changes: DrpAgentChanges,
  actor: ActorRef,
  covers: Covers,
): Promise<DrpAgent> {
  const key = changes.verify_key === undefined ? null : registeredKey(changes.verify_key);
  return runUnitOfWork(deps.db, async (unit) => {
    const row = await found(unit, id, covers);
    const at = toTimestamp(deps.clock());
    const details = { ...toDrpAgent(row), ...changes };
    const newKey = key !== null && key.text !== row.verify_key;
    const updated = await updateDrpAgent(unit.tx, id, {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(key !== null ? { verify_key: key.text, key_fingerprint: key.fingerprint } : {}),
      ...(changes.confirm_with_consumer !== undefined ? { confirm_with_consumer: changes.confirm_with_consumer ? 1 : 0 } : {}),
      ...(changes.disabled !== undefined ? { disabled: changes.disabled ? 1 : 0 } : {}),
      details: storedDetails(DRP_AGENT_DETAILS, details),
      updated_at: at,
    });
    if (!updated) throw new DrpAgentNotFoundError(id);
    if (newKey || (changes.disabled === true && row.disabled === 0)) await voidPairings(unit.tx, id);
    audit(unit, actor, 'updated', updated, at, {
      fields: Object.keys(changes).sort(),
      key_fingerprint: updated.key_fingerprint,
    });
    return toDrpAgent(updated);
  });
}

/**
 * Removes an agent registration and voids its tokens (PRODUCT §2.19, `DELETE
 * /api/v1/drp/agents/{id}`); its DRP requests stay. Audited (`drp.agent_removed`).
 * @throws DrpAgentNotFoundError
 */
export async function removeDrpAgent(deps: Deps, id: string, actor: ActorRef, covers: Covers): Promise<void> {
  await runUnitOfWork(deps.db, async (unit) => {
    const row = await found(unit, id, covers);
    await deleteDrpAgent(unit.tx, id);
    audit(unit, actor, 'removed', row, toTimestamp(deps.clock()), {});
  });
}
