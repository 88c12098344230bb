import type { Executor } from '../../db/executor.js';
import type { Clock } from '../../lib/clock.js';
import { listDrpRequestRows } from '../../modules/drp/drp-request.repository.js';
import type { DrpStatus } from '../../modules/drp/drp.types.js';
import { statusObjectNow } from './drp-status-facts.js';

/** One DRP record as the officer's list shows it (PRODUCT §2.19): never a claim. */
export interface DrpRequestListItem {
  readonly request_id: string;
  readonly agent_id: string;
  readonly exercise: string;
  readonly regime: string | null;
  /** The DRP status now (the status object's). */
  readonly status: DrpStatus;
  readonly reason: string | null;
  readonly received_at: string;
  readonly privacy_request_id: string | null;
  readonly opt_out_id: string | null;
}

/**
 * `GET /api/v1/drp/requests` (PRODUCT §2.19): the DRP records of the caller's workspaces,
 * including those that never became a request (denied), newest first, at most `limit` read;
 * filtered by agent id and by DRP status (the status object's, computed now).
 */
export async function listDrpRequests(
  deps: { db: Executor; clock: Clock },
  workspaces: readonly string[] | '*',
  filters: { agentId?: string; status?: DrpStatus; limit: number },
): Promise<DrpRequestListItem[]> {
  const now = deps.clock();
  const rows = await listDrpRequestRows(deps.db, workspaces, {
    limit: filters.limit,
    ...(filters.agentId === undefined ? {} : { agentId: filters.agentId }),
  });
  const items: DrpRequestListItem[] = [];
  for (const row of rows) {
    // The status and reason only: no results link is made for a list.
    const object = await statusObjectNow({ db: deps.db }, row, now);
    items.push({
      request_id: row.request_id,
      agent_id: row.agent_id,
      exercise: row.exercise,
      regime: row.regime,
      status: object.status,
      reason: object.reason ?? null,
      received_at: row.received_at,
      privacy_request_id: row.privacy_request_id,
      opt_out_id: row.opt_out_id,
    });
  }
  return filters.status === undefined ? items : items.filter((item) => item.status === filters.status);
}
