import type { Executor } from '../../db/executor.js';
import { DrpAgentNotFoundError } from '../../modules/drp/drp-admin.errors.js';
import { findDrpAgent } from '../../modules/drp/drp-agent.repository.js';
import { listAgentCallbacks } from '../../modules/drp/drp-callback.repository.js';

/** A status callback as an admin sees it (PRODUCT §2.19): never its payload. */
export interface DrpCallbackItem {
  readonly id: string;
  readonly request_id: string;
  readonly url: string;
  readonly status: string;
  readonly attempts: number;
  readonly last_error: string | null;
  readonly next_attempt_at: string | null;
  readonly created_at: string;
  readonly delivered_at: string | null;
}

/**
 * `GET /api/v1/drp/agents/{id}/callbacks?status=…` (admin, PRODUCT §2.19): the agent's status
 * callbacks, newest first, with their attempts so far and the last failure's short reason.
 * @param covers - whether the caller may see the registration's workspace (else 404).
 * @throws DrpAgentNotFoundError
 */
export async function listDrpCallbacks(
  deps: { db: Executor },
  agentRowId: string,
  filters: { status?: string; limit: number },
  covers: (workspaceId: string) => boolean,
): Promise<DrpCallbackItem[]> {
  const agent = await findDrpAgent(deps.db, agentRowId);
  if (!agent || !covers(agent.workspace_id)) throw new DrpAgentNotFoundError(agentRowId);
  const rows = await listAgentCallbacks(deps.db, agent.id, filters);
  return rows.map((r) => ({
    id: r.id,
    request_id: r.request_id,
    url: r.url,
    status: r.status,
    attempts: r.attempts,
    last_error: r.last_error,
    next_attempt_at: r.next_attempt_at,
    created_at: r.created_at,
    delivered_at: r.delivered_at,
  }));
}
