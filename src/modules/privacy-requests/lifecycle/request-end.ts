import type { Executor } from '../../../db/executor.js';
import { nextTurn } from '../../../lib/yielding.js';
import { dropTaskData, systemNames, taskStatusesOfRequest, tasksOfRequest } from '../../data-systems/data-task.repository.js';
import { withSystems } from '../../data-systems/data-task-result.fns.js';
import type { PrivacyRequestRow } from '../../request-model/request-model.js';
import { traitsOf } from '../request-types.js';
import { findLayers } from '../../policies/policy.repository.js';
import { mergePolicy } from '../../policies/policy-merge.fns.js';
import { awaitsIdentityReview, decideFromTasks, IDENTITY_UNMATCHED } from './lifecycle.fns.js';

/** The workspace policy's `confirm_no_data` (PRODUCT §2.13; default true). */
async function confirmsNoData(tx: Executor, workspaceId: string): Promise<boolean> {
  const workspace = (await findLayers(tx, workspaceId, '')).find((layer) => layer.repository === '');
  return mergePolicy({ workspace: workspace ? JSON.parse(workspace.settings) : null, repository: null }).policy.confirm_no_data;
}

/** What a request whose own step is done becomes, given its tasks, with its result to store. */
export interface AfterOwnStep {
  status: 'processing' | 'completed' | 'failed' | 'action_required';
  status_reason: string | null;
  /** Set when `completed`. */
  completed_at: string | null;
  pkg: string | null;
  report: string | null;
  /** How many tasks the request has. */
  tasks: number;
}

/**
 * Decides how a request ends now that its own step (this service's store) is done: the caller
 * holds the request's row (the worker's lease, an operator's lock), so a task result waits for
 * it. The decision reads the tasks' statuses only ({@link decideFromTasks}). With no task:
 * `completed`, exactly as before data systems. While a task is pending: `processing`, unleased
 * (the claim skips it), with the pending systems in `status_reason`. Failed: the systems whose
 * task failed; the result stays the own step's. Completed: the results are read once, now, and
 * the package (or report) gets the systems' part (`systems.<key>`, built yielding to the event
 * loop between systems); the tasks' stored results then lose their `data` ({@link dropTaskData}:
 * the package is its one copy). A request whose own step found nothing (`subject_found` 0) and
 * whose systems found nothing either waits in `action_required` as `identity_unmatched` with
 * that result stored, unless the workspace policy's `confirm_no_data` is false (PRODUCT §2.13).
 *
 * @param own - the package and report this service produced (JSON text or null).
 * @param pause - awaited between systems while the package is assembled (default: the next turn).
 */
export async function afterOwnStep(
  tx: Executor,
  request: Pick<PrivacyRequestRow, 'id' | 'request_type' | 'workspace_id' | 'subject_found'>,
  own: { pkg: string | null; report: string | null },
  at: string,
  pause: () => Promise<void> = nextTurn,
): Promise<AfterOwnStep> {
  const statuses = await taskStatusesOfRequest(tx, request.id);
  const decision = decideFromTasks(statuses);
  const base = { pkg: own.pkg, report: own.report, tasks: statuses.length };
  if (decision.status === 'pending') return { ...base, status: 'processing', status_reason: decision.reason, completed_at: null };
  if (decision.status === 'failed') {
    if (statuses.length > 0) await dropTaskData(tx, await tasksOfRequest(tx, request.id), at);
    return { ...base, status: 'failed', status_reason: decision.reason, completed_at: null };
  }
  const review = async (tasks: readonly { status: string; result: string | null }[]) =>
    request.subject_found === 0 &&
    awaitsIdentityReview(request.subject_found, tasks, await confirmsNoData(tx, request.workspace_id));
  if (statuses.length === 0) {
    if (await review([])) return { ...base, status: 'action_required', status_reason: IDENTITY_UNMATCHED, completed_at: null };
    return { ...base, status: 'completed', status_reason: null, completed_at: at };
  }
  const tasks = await tasksOfRequest(tx, request.id);
  const unmatched = await review(tasks);
  const assembled =
    traitsOf(request.request_type).result === 'package'
      ? { pkg: await withSystems('package', own.pkg, tasks, new Map(), pause), report: own.report }
      : {
          pkg: own.pkg,
          report: await withSystems(
            'report',
            own.report,
            tasks,
            await systemNames(
              tx,
              request.workspace_id,
              tasks.map((t) => t.system_key),
            ),
            pause,
          ),
        };
  await dropTaskData(tx, tasks, at);
  if (unmatched)
    return { ...base, ...assembled, status: 'action_required', status_reason: IDENTITY_UNMATCHED, completed_at: null };
  return { ...base, ...assembled, status: 'completed', status_reason: null, completed_at: at };
}
