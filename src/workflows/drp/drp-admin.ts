import type { Executor } from '../../db/executor.js';
import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import type { Clock } from '../../lib/clock.js';
import { toDrpAgent, toDrpSettings } from '../../modules/drp/drp-admin.fns.js';
import type { DrpAgent, DrpSettings } from '../../modules/drp/drp-admin.types.js';
import { findDrpAgent, listDrpAgents } from '../../modules/drp/drp-agent.repository.js';
import { findDrpSettings } from '../../modules/drp/drp-settings.repository.js';
import { removeDrpAgent, updateDrpAgentRegistration } from './change-drp-agent.js';
import { registerDrpAgent } from './register-drp-agent.js';
import { listDrpCallbacks } from './list-drp-callbacks.js';
import { listDrpRequests, readDrpRequest } from './list-drp-requests.js';
import { writeDrpSettings } from './write-drp-settings.js';

/** A business's side of DRP, administered (PRODUCT §2.19): settings and agent registrations. */
export interface DrpAdmin {
  /** The workspace's DRP settings with their directory entry, or null when never set. */
  getSettings(workspaceId: string): Promise<DrpSettings | null>;
  /** {@link writeDrpSettings}. */
  readonly putSettings: Bound<typeof writeDrpSettings>;
  /** {@link registerDrpAgent}. */
  readonly registerAgent: Bound<typeof registerDrpAgent>;
  /** Registrations of the given workspaces (or all), oldest first. */
  listAgents(workspaces: readonly string[] | '*'): Promise<DrpAgent[]>;
  /** One registration, or null. */
  getAgent(id: string): Promise<DrpAgent | null>;
  /** {@link updateDrpAgentRegistration}. */
  readonly updateAgent: Bound<typeof updateDrpAgentRegistration>;
  /** {@link removeDrpAgent}. */
  readonly removeAgent: Bound<typeof removeDrpAgent>;
  /** {@link listDrpRequests}: the officer's list of DRP records. */
  readonly listRequests: Bound<typeof listDrpRequests>;
  /** {@link readDrpRequest}: one DRP record with the agent's hints. */
  readonly readRequest: Bound<typeof readDrpRequest>;
  /** {@link listDrpCallbacks}: an agent's status callbacks. */
  readonly listCallbacks: Bound<typeof listDrpCallbacks>;
}

/**
 * Binds DRP's administration to `deps` (src/services.ts wires it once).
 * @param deps.publicBaseUrl - `PUBLIC_BASE_URL`, for the directory entry's `api_base`.
 */
export function bindDrpAdmin(deps: { db: Executor; clock: Clock; publicBaseUrl: string }): DrpAdmin {
  const { db, publicBaseUrl } = deps;
  return {
    getSettings: async (workspaceId) => {
      const row = await findDrpSettings(db, workspaceId);
      return row ? toDrpSettings(row, publicBaseUrl) : null;
    },
    putSettings: bindDeps(writeDrpSettings, deps),
    registerAgent: bindDeps(registerDrpAgent, deps),
    listAgents: async (workspaces) => (await listDrpAgents(db, workspaces)).map(toDrpAgent),
    getAgent: async (id) => {
      const row = await findDrpAgent(db, id);
      return row ? toDrpAgent(row) : null;
    },
    updateAgent: bindDeps(updateDrpAgentRegistration, deps),
    removeAgent: bindDeps(removeDrpAgent, deps),
    listRequests: bindDeps(listDrpRequests, deps),
    readRequest: bindDeps(readDrpRequest, deps),
    listCallbacks: bindDeps(listDrpCallbacks, deps),
  };
}
