import type { UnitOfWork } from '../../../db/unit-of-work.js';
import type { Executor } from '../../../db/executor.js';
import { type ActorRef, actorFields, recordAudit } from '../../audit/audit.repository.js';
import type { PrivacyRequestRow } from '../../request-model/request-model.js';
import { updateRequest } from '../privacy-request.repository.js';
import { requestStatusChanged } from './request-events.js';
import { findResult, replaceResultAtCompletion } from '../result.repository.js';
import { requestOutcome } from '../../data-systems/data-task.fns.js';
import { type DataTaskRow, dropTaskData, systemNames, tasksOfRequest } from '../../data-systems/data-task.repository.js';
import { withSystems } from '../../data-systems/data-task-result.fns.js';

/** The `status_reason` of a request whose own step is done while tasks are pending. */
export function waitingReason(tasks: readonly DataTaskRow[]): string {
  const keys = tasks.filter((t) => t.status === 'pending').map((t) => t.system_key);
  return `waiting for data tasks: ${keys.join(', ')}`;
}

/** What a request whose own step is done becomes, given its tasks, with its result to store. */
export interface AfterOwnStep {
  status: 'processing' | 'completed' | 'failed';
  status_reason: string | null;
  /** Set when `completed`. */
  completed_at: string | null;
  pkg: string | null;
  report: string | null;
  /** How many tasks the request has. */
  tasks: number;
}

/** True for request types whose result is a package (access, export); the others have a report. */
function hasPackage(requestType: string): boolean {
  return requestType === 'access' || requestType === 'export';
}

/**
 * Decides how a request ends now that its own step (this service's store) is done: the caller
 * holds the request's row (the worker's lease, an operator's lock), so a task result waits for
 * it. With no task: `completed`, exactly as before data systems. While a task is pending:
 * `processing`, unleased (the claim skips it), with the pending systems in `status_reason`.
 * Otherwise `failed` naming the systems whose task failed, or `completed`; the package (or
 * report) gets the systems' part (`systems.<key>`), and the tasks' stored results lose their
 * `data` ({@link dropTaskData}: the package is now its one copy).
 *
 * @param own - the package and report this service produced (JSON text or null).
 */
export async function afterOwnStep(
  tx: Executor,
  request: Pick<PrivacyRequestRow, 'id' | 'request_type' | 'workspace_id'>,
  own: { pkg: string | null; report: string | null },
  at: string,
): Promise<AfterOwnStep> {
  const tasks = await tasksOfRequest(tx, request.id);
  const decision = requestOutcome(tasks);
  const base = { pkg: own.pkg, report: own.report, tasks: tasks.length };
  if (decision.status === 'pending')
    return { ...base, status: 'processing', status_reason: waitingReason(tasks), completed_at: null };
  const assembled = hasPackage(request.request_type)
    ? { pkg: withSystems('package', own.pkg, tasks), report: own.report }
    : {
        pkg: own.pkg,
        report: withSystems(
          'report',
          own.report,
          tasks,
          await systemNames(
            tx,
            request.workspace_id,
            tasks.map((t) => t.system_key),
          ),
        ),
      };
  await dropTaskData(tx, tasks, at);
  if (decision.status === 'failed')
    return { ...base, ...assembled, status: 'failed', status_reason: decision.reason, completed_at: null };
  return { ...base, ...assembled, status: 'completed', status_reason: null, completed_at: at };
}

/**
 * After a task became final (a result, or the request's end): completes or fails `request` when
 * its own step is done (`processing` and unleased) and no task is pending, in `unit` (status,
 * `completed_at`, the stored package or report with the systems' part, an audit entry by
 * `actor`, the `privacy_request.status_changed`/`.completed` events). The caller holds the request's row lock. A request still leased (the worker has not
 * recorded its own step yet) is left alone: the worker decides when it records.
 *
 * @returns the updated request, or null when it does not end now.
 */
export async function endRequestIfDone(
  unit: UnitOfWork,
  request: PrivacyRequestRow,
  actor: ActorRef,
  at: string,
): Promise<PrivacyRequestRow | null> {
  if (request.status !== 'processing' || request.lease_owner !== null) return null;
  const stored = await findResult(unit.tx, request.id);
  const own = { pkg: stored?.package ?? null, report: stored?.report ?? null };
  const next = await afterOwnStep(unit.tx, request, own, at);
  if (next.status === 'processing') {
    if (next.status_reason !== request.status_reason)
      await updateRequest(unit.tx, request.id, { status_reason: next.status_reason, updated_at: at });
    return null;
  }
  if (stored) await replaceResultAtCompletion(unit.tx, request.id, next.pkg, next.report, at);
  const updated = await updateRequest(unit.tx, request.id, {
    status: next.status,
    status_reason: next.status_reason,
    completed_at: next.completed_at,
    updated_at: at,
  });
  recordAudit(unit, {
    ...actorFields(actor),
    requestId: request.id,
    action: `privacy_request.${next.status}`,
    targetType: 'privacy_request',
    targetId: request.id,
    workspaceId: request.workspace_id,
    details: {
      from: 'processing',
      to: next.status,
      tasks: next.tasks,
      ...(next.status_reason ? { reason: next.status_reason } : {}),
    },
    occurredAt: at,
  });
  // privacy_request.status_changed (and .completed) to the workspace's endpoints (PRODUCT §2.8).
  requestStatusChanged(unit, updated, request.status, at);
  return updated;
}
