import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { DrpAgentTable } from '../../db/tables/drp.table.js';

export type DrpAgentRow = Selectable<DrpAgentTable>;

const COLUMNS = [
  'id',
  'workspace_id',
  'agent_id',
  'name',
  'verify_key',
  'key_fingerprint',
  'details',
  'confirm_with_consumer',
  'disabled',
  'paired_at',
  'created_at',
  'updated_at',
] as const;

/** Stores a new agent registration. */
export async function insertDrpAgent(db: Executor, row: DrpAgentRow): Promise<void> {
  await db.insertInto('drp_agents').values(row).execute();
}

/** The registration `id` (`agt_…`), or undefined. */
export async function findDrpAgent(db: Executor, id: string): Promise<DrpAgentRow | undefined> {
  return db.selectFrom('drp_agents').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The registration of `agentId` in the workspace, or undefined. */
export async function findDrpAgentInWorkspace(
  db: Executor,
  workspaceId: string,
  agentId: string,
): Promise<DrpAgentRow | undefined> {
  return db
    .selectFrom('drp_agents')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('agent_id', '=', agentId)
    .executeTakeFirst();
}

/**
 * Every enabled registration of the DRP `agentId` in workspaces whose DRP is on, with the
 * workspace's `business_id` (key setup's candidate signers, PRODUCT §2.19).
 */
export async function findPairableAgents(db: Executor, agentId: string): Promise<(DrpAgentRow & { business_id: string })[]> {
  return db
    .selectFrom('drp_agents as a')
    .innerJoin('drp_settings as s', 's.workspace_id', 'a.workspace_id')
    .select(COLUMNS.map((c) => `a.${c}` as const))
    .select('s.business_id')
    .where('a.agent_id', '=', agentId)
    .where('a.disabled', '=', 0)
    .where('s.enabled', '=', 1)
    .execute();
}

/** Registrations in the given workspaces (or all), oldest first. */
export async function listDrpAgents(db: Executor, workspaces: readonly string[] | '*'): Promise<DrpAgentRow[]> {
  if (workspaces !== '*' && workspaces.length === 0) return [];
  let query = db.selectFrom('drp_agents').select(COLUMNS);
  if (workspaces !== '*') query = query.where('workspace_id', 'in', workspaces);
  return query.orderBy('id').execute();
}

/** Changes a registration; @returns the row as stored, or undefined when it is gone. */
export async function updateDrpAgent(
  db: Executor,
  id: string,
  changes: Updateable<DrpAgentTable>,
): Promise<DrpAgentRow | undefined> {
  await db.updateTable('drp_agents').set(changes).where('id', '=', id).execute();
  return findDrpAgent(db, id);
}

/** Deletes a registration and its pairings (its DRP requests stay). */
export async function deleteDrpAgent(db: Executor, id: string): Promise<void> {
  await voidPairings(db, id);
  await db.deleteFrom('drp_agents').where('id', '=', id).execute();
}

/** Voids every token of the agent registration at once (a new key, disabled, deleted). */
export async function voidPairings(db: Executor, agentRef: string): Promise<void> {
  await db.deleteFrom('drp_pairings').where('agent_ref', '=', agentRef).execute();
}
