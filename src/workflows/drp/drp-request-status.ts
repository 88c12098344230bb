import type { Executor } from '../../db/executor.js';
import { fail, ok, type DrpResult } from '../../modules/drp/drp-failure.types.js';
import { drpRequestState } from '../../modules/drp/drp-record.fns.js';
import { type DrpRequestRow, findDrpRequest, updateDrpRequest } from '../../modules/drp/drp-request.repository.js';
import type { DrpStatusObject } from '../../modules/drp/drp.types.js';
import { drpStatusObject, statusObjectChanged } from '../../modules/drp/status-object.fns.js';
import { findOptOutById } from '../../modules/opt-outs/opt-out.repository.js';
import { findRequestById } from '../../modules/privacy-requests/privacy-request.repository.js';
import type { DrpCaller } from './drp-caller.js';

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
 * filed (read now) or its own decision; stored as the last object answered when it changed
 * (unless `remember` is false: the caller sends it as a callback instead).
 */
export async function currentStatusObject(
  db: Executor,
  record: DrpRequestRow,
  now: Date,
  remember = true,
): Promise<DrpStatusObject> {
  const request = record.privacy_request_id === null ? undefined : await findRequestById(db, record.privacy_request_id);
  const optOut = record.opt_out_id === null ? undefined : await findOptOutById(db, record.opt_out_id);
  const answer = drpStatusObject(drpRequestState(record, { request, optOut }), now);
  const last = record.last_status === null ? null : (JSON.parse(record.last_status) as DrpStatusObject);
  if (remember && statusObjectChanged(last, answer))
    await updateDrpRequest(db, record.request_id, { last_status: JSON.stringify(answer) });
  return answer;
}
