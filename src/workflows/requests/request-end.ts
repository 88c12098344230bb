import type { Executor } from '../../db/executor.js';
import { nextTurn } from '../../lib/yielding.js';
import { systemNames, tasksOfRequest } from '../../modules/data-systems/data-task.repository.js';
import { taskStatusesOfRequest } from '../../modules/data-systems/data-task-result.repository.js';
import { packageMember, reportWithSystems, withMember } from '../../modules/data-systems/data-task-result.fns.js';
import type { DeclaredProcessing } from '../../modules/data-systems/data-system.types.js';
import { describeSystems, NOT_DECLARED, systemAnswer } from '../../modules/data-systems/system-description.js';
import { dropTaskData, passTaskResults, type TaskRef } from '../../modules/data-systems/task-data-pass.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { traitsOf } from '../../modules/privacy-requests/request-types.js';
import { workspacePolicy } from '../../modules/policies/workspace-policy.js';
import type { Policy } from '../../modules/policies/policy.types.js';
import {
  AWAITING_REVIEW,
  awaitsReviewAtEnd,
  decideFromTasks,
  IDENTITY_UNMATCHED,
  taskFoundSomething,
} from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';

/**
 * How a request that has its answer ends (PRODUCT §2.20): `completed`, or, for an access or
 * export request under the policy's `review_packages`, `action_required` / `awaiting_review`
 * with its package stored, until an operator releases it.
 */
function finished(
  requestType: string,
  policy: Policy,
  at: string,
): Pick<AfterOwnStep, 'status' | 'status_reason' | 'completed_at'> {
  if (awaitsReviewAtEnd(traitsOf(requestType).result, policy.review_packages))
    return { status: 'action_required', status_reason: AWAITING_REVIEW, completed_at: null };
  return { status: 'completed', status_reason: null, completed_at: at };
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
 * An access/export package with its systems' part (`systems.<key>`): each task's result read once
 * ({@link passTaskResults}: one task at a time, yielding with `pause`, its `data` dropped from the
 * task once copied), what else each said under `system_answers.<key>` and what its controller
 * declared about its processing under `system_processing.<key>` (PRODUCT §2.17). @returns the package (null stays null) and, when `askFound`, whether any task
 * found the subject (false otherwise: only a request whose own step found nothing asks).
 */
async function assemblePackage(
  tx: Executor,
  pkg: string | null,
  tasks: readonly TaskRef[],
  at: string,
  pause: () => Promise<void>,
  askFound: boolean,
  workspaceId: string,
): Promise<{ pkg: string | null; found: boolean }> {
  const members: string[] = [];
  const answers: Record<string, ReturnType<typeof systemAnswer>> = {};
  const processing: Record<string, DeclaredProcessing> = {};
  const described = await describeSystems(
    tx,
    workspaceId,
    tasks.map((t) => t.system_key),
  );
  let found = false;
  await passTaskResults(
    tx,
    tasks,
    at,
    (task, text, result) => {
      if (askFound && !found) found = taskFoundSomething({ status: task.status, result: text });
      const description = described.get(task.system_key);
      const answer = systemAnswer(task.status, result, description);
      if (answer !== null) answers[task.system_key] = answer;
      if (task.status !== 'completed') return;
      members.push(packageMember(task.system_key, result));
      processing[task.system_key] = description?.processing ?? NOT_DECLARED;
    },
    pause,
  );
  const withData = withMember(pkg, 'systems', `{${members.join(',')}}`);
  if (Object.keys(answers).length === 0) return { pkg: withData, found };
  // What the systems said besides their data (PRODUCT §2.13), which could not be searched and
  // what was declared of them (§2.17): the letter reads all three.
  const withAnswers = withMember(withData, 'system_answers', JSON.stringify(answers));
  return { pkg: withMember(withAnswers, 'system_processing', JSON.stringify(processing)), found };
}

/** A deletion's (or correction's) report with its systems' part; the tasks' results are small (counts, no data). */
async function assembleReport(
  tx: Executor,
  request: Pick<PrivacyRequestRow, 'id' | 'workspace_id'>,
  report: string | null,
  at: string,
): Promise<{ report: string | null; found: boolean }> {
  const tasks = await tasksOfRequest(tx, request.id);
  const names = await systemNames(
    tx,
    request.workspace_id,
    tasks.map((t) => t.system_key),
  );
  const assembled = reportWithSystems(report, tasks, names);
  await dropTaskData(tx, tasks, at);
  return { report: assembled, found: tasks.some(taskFoundSomething) };
}

/**
 * Decides how a request ends now that its own step (this service's store) is done: the caller
 * holds the request's row (the worker's lease, an operator's lock), so a task result waits for
 * it. The decision reads the tasks' statuses only ({@link decideFromTasks}). With no task:
 * `completed`, exactly as before data systems. While a task is pending: `processing`, unleased
 * (the claim skips it), with the pending systems in `status_reason`. Failed: the systems whose
 * task failed; the result stays the own step's, and the tasks' `data` is dropped. Completed: the
 * results are read once, now, one task at a time, and the package (or report) gets the systems'
 * part (`systems.<key>`, the event loop free between systems' results); the tasks' stored
 * results lose their `data` as they are read (the package is its one copy). A request whose own
 * step found nothing (`subject_found` 0) and whose systems found nothing either waits in
 * `action_required` as `identity_unmatched` with that result stored, unless the workspace
 * policy's `confirm_no_data` is false (PRODUCT §2.13). An access or export request that would
 * complete waits as `awaiting_review` instead under the policy's `review_packages` (§2.20).
 *
 * @param own - the package and report this service produced (JSON text or null).
 * @param pause - awaited between slices of results while the package is assembled (default: the next turn).
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
    await passTaskResults(tx, statuses, at, () => undefined, pause);
    return { ...base, status: 'failed', status_reason: decision.reason, completed_at: null };
  }
  const policy = await workspacePolicy(tx, request.workspace_id);
  // awaitsIdentityReview (lifecycle.fns.ts), with what the systems found known from the one read.
  const unmatched = (found: boolean) => request.subject_found === 0 && !found && policy.confirm_no_data;
  if (statuses.length === 0) {
    if (unmatched(false)) return { ...base, status: 'action_required', status_reason: IDENTITY_UNMATCHED, completed_at: null };
    return { ...base, ...finished(request.request_type, policy, at) };
  }
  let assembled: { pkg: string | null; report: string | null; found: boolean };
  if (traitsOf(request.request_type).result === 'package')
    assembled = {
      ...(await assemblePackage(tx, own.pkg, statuses, at, pause, request.subject_found === 0, request.workspace_id)),
      report: own.report,
    };
  else assembled = { ...(await assembleReport(tx, request, own.report, at)), pkg: own.pkg };
  const stored = { ...base, pkg: assembled.pkg, report: assembled.report };
  if (unmatched(assembled.found))
    return { ...stored, status: 'action_required', status_reason: IDENTITY_UNMATCHED, completed_at: null };
  return { ...stored, ...finished(request.request_type, policy, at) };
}

/**
 * Whether a request whose own step completed must pass through {@link afterOwnStep} even without
 * data tasks: its package waits for a review (PRODUCT §2.20) when the workspace policy's
 * `review_packages` is on. Read in the caller's transaction.
 */
export async function reviewsPackage(
  tx: Executor,
  request: Pick<PrivacyRequestRow, 'request_type' | 'workspace_id'>,
): Promise<boolean> {
  if (traitsOf(request.request_type).result !== 'package') return false;
  return (await workspacePolicy(tx, request.workspace_id)).review_packages;
}
