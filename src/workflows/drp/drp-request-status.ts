import type { Executor } from '../../db/executor.js';
import { fail, ok, type DrpResult } from '../../modules/drp/drp-failure.types.js';
import {
  type DrpRequestRow,
  findDrpRequest,
  recordWithState,
  updateDrpRequest,
} from '../../modules/drp/drp-request.repository.js';
import type { DrpStatusObject } from '../../modules/drp/drp.types.js';
import { storedStatusObject } from '../../modules/drp/results-link.fns.js';
import { statusObjectChanged } from '../../modules/drp/status-object.fns.js';
import type { DrpCaller } from './drp-caller.js';
import { type ResultsLinks, statusObjectNow } from './drp-status-facts.js';

/**
 * The caller's DRP record `requestId` (PRODUCT §2.19): `request_not_found` (404) when unknown,
 * `not_this_agents_request` (403) when another agent registration filed it.
 */
export async function callersRecord(db: Executor, caller: DrpCaller, requestId: string): Promise<DrpResult<DrpRequestRow>> {
  const record = await findDrpRequest(db, requestId);
  if (!record) return fail({ reason: 'request_not_found' });
  if (record.agent_ref !== caller.agent.id) return fail({ reason: 'not_this_agents_request' });
  return ok(record);
}

/**
 * The status object of a DRP record now (DRP §3.03; PRODUCT §2.19 "Status object"), from what it
 * filed (read now, with the reasons of its extension and rejection) or its own decision; stored
 * as the last object answered when it changed (unless `remember` is false: the caller sends it as
 * a callback instead). The same computation as the callbacks' sweep and the officer's list
 * ({@link statusObjectNow}).
 */
export async function currentStatusObject(
  deps: { db: Executor; resultsLinks: ResultsLinks },
  requestId: string,
  now: Date,
  remember = true,
): Promise<DrpStatusObject> {
  const { db } = deps;
  const row = await recordWithState(db, requestId);
  if (!row) throw new Error(`DRP record ${requestId} is gone`);
  const answer = await statusObjectNow(deps, row, now);
  const last = row.last_status === null ? null : (JSON.parse(row.last_status) as DrpStatusObject);
  // Stored and compared without the results link's token (storedStatusObject).
  const stored = storedStatusObject(answer);
  if (remember && statusObjectChanged(last, stored))
    await updateDrpRequest(db, requestId, { last_status: JSON.stringify(stored) });
  return answer;
}
