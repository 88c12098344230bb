import type { Executor } from '../../db/executor.js';
import type { Clock } from '../../lib/clock.js';
import { type DrpRequestListRow, listDrpRequestRows, recordWithState } from '../../modules/drp/drp-request.repository.js';
import type { DrpRecordClaims } from '../../modules/drp/exercise-plan.fns.js';
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
  for (const row of rows) items.push(await listItem(deps.db, row, now));
  return filters.status === undefined ? items : items.filter((item) => item.status === filters.status);
}

/** A record as the list shows it: the status and reason only (no results link is made for a list). */
async function listItem(db: Executor, row: DrpRequestListRow, now: Date): Promise<DrpRequestListItem> {
  const object = await statusObjectNow({ db }, row, now);
  return {
    request_id: row.request_id,
    agent_id: row.agent_id,
    exercise: row.exercise,
    regime: row.regime,
    status: object.status,
    reason: object.reason ?? null,
    received_at: row.received_at,
    privacy_request_id: row.privacy_request_id,
    opt_out_id: row.opt_out_id,
  };
}

/**
 * One DRP record for the officer (the console's request page): the list's fields with its
 * workspace and what the agent said beside the person's identity (PRODUCT §2.19 "In the queue":
 * the relationships hints, the proof reference, the `*_verified` flags it attested). Never an
 * identity claim: the record holds none.
 */
export interface DrpRequestDetail extends DrpRequestListItem {
  readonly workspace_id: string;
  /** DRP's `relationships` hints (e.g. `customer`), shown, never acted on. */
  readonly relationships: readonly string[];
  /** The `power_of_attorney` claim, or null. */
  readonly proof_ref: string | null;
  readonly email_verified: boolean | null;
  readonly phone_number_verified: boolean | null;
  readonly address_verified: boolean | null;
}

/** `GET /api/v1/drp/requests/{request_id}`: the record, or null when none has that id. */
export async function readDrpRequest(deps: { db: Executor; clock: Clock }, requestId: string): Promise<DrpRequestDetail | null> {
  const row = await recordWithState(deps.db, requestId);
  if (!row) return null;
  const kept = JSON.parse(row.kept) as DrpRecordClaims;
  return {
    ...(await listItem(deps.db, row, deps.clock())),
    workspace_id: row.workspace_id,
    relationships: kept.relationships,
    proof_ref: kept.proof_ref,
    email_verified: kept.email_verified,
    phone_number_verified: kept.phone_number_verified,
    address_verified: kept.address_verified,
  };
}
