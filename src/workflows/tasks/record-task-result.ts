import type { Executor } from '../../db/executor.js';
import { runUnitOfWork, type UnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { type ActorRef, actorFields, recordAudit } from '../../modules/audit/audit.repository.js';
import {
  DataTaskNotFoundError,
  TaskAlreadyFinalError,
  TaskDataTooLargeError,
  TaskResultRefusedError,
} from '../../modules/data-systems/data-task.errors.js';
import { type DataTaskRow, findTask } from '../../modules/data-systems/data-task.repository.js';
import { finishTask } from '../../modules/data-systems/data-task-lifecycle.repository.js';
import { storedResultBytes } from '../../modules/data-systems/data-task-result.repository.js';
import { type DataTaskResource, toTaskResource } from '../../modules/data-systems/data-task.resource.js';
import {
  heldCategories,
  resultProblems,
  storedResult,
  type TaskResultInput,
} from '../../modules/data-systems/data-task-result.fns.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { lockRequest } from '../../modules/privacy-requests/privacy-request.repository.js';
import { traitsOf } from '../../modules/privacy-requests/request-types.js';
import { findResult } from '../../modules/privacy-requests/result.repository.js';
import { afterOwnStep } from '../requests/request-end.js';
import { commitTransition } from '../../modules/privacy-requests/lifecycle/transition.js';
import { recordOptOutTaskResult } from './record-opt-out-task-result.js';
import { taskAudit } from './task-audit.js';

/** Limits on what systems report (PRODUCT §2.9; docs/operations.md, "Limits"), bytes of JSON. */
export interface TaskDataLimits {
  /** `MAX_TASK_DATA_BYTES`: one result's `data`. */
  taskDataBytes: number;
  /** `MAX_REQUEST_DATA_BYTES`: the stored results of all of a request's tasks together. */
  requestDataBytes: number;
}

/** The defaults of {@link TaskDataLimits}: 1 MiB a task, 64 MiB a request. */
export const DEFAULT_TASK_DATA_LIMITS: TaskDataLimits = { taskDataBytes: 1024 * 1024, requestDataBytes: 64 * 1024 * 1024 };

/**
 * Whether a package will hold the systems' data: false once the request's own package was erased
 * (a deletion of the same subject completed meanwhile: the result row is there, its package
 * gone). Then a result's `data` is not written at all, so no copy reaches a table or SQLite's
 * WAL (issue 23: "late data").
 */
async function packageAwaitsData(tx: Executor, request: PrivacyRequestRow): Promise<boolean> {
  if (traitsOf(request.request_type).result !== 'package') return false;
  const stored = await findResult(tx, request.id);
  return stored === undefined || stored.package !== null;
}

/** The result as stored: without `data` when no package will hold it (its categories are kept). */
function resultToStore(input: TaskResultInput, keepData: boolean): string {
  const stored = storedResult(input);
  if (keepData || stored.data === undefined) return JSON.stringify(stored);
  const { data, ...rest } = stored;
  return JSON.stringify({ ...rest, data_categories: heldCategories(data) });
}

/**
 * After a task became final: completes or fails `request` when its own step is done
 * (`processing` and unleased) and no task is pending, through the lifecycle's one writer (status,
 * the stored package or report with the systems' part, an audit entry by `actor`, the events).
 * The caller holds the request's row lock. A request still leased (the worker has not recorded
 * its own step yet) is left alone: the worker decides when it records.
 *
 * @returns the updated request, or null when it does not end now.
 */
async function endRequestIfDone(
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
      await commitTransition(unit, request, { at, change: { status_reason: next.status_reason } });
    return null;
  }
  return commitTransition(unit, request, {
    at,
    change: { status: next.status, status_reason: next.status_reason, completed_at: next.completed_at },
    ...(stored ? { result: { pkg: next.pkg, report: next.report, stored: 'completed' as const } } : {}),
    audit: {
      actor,
      action: `privacy_request.${next.status}`,
      details: {
        from: 'processing',
        to: next.status,
        tasks: next.tasks,
        ...(next.status_reason ? { reason: next.status_reason } : {}),
      },
    },
  });
}

/** Refuses `data` over the limits (413) before anything is written. */
async function checkDataSize(tx: Executor, task: DataTaskRow, input: TaskResultInput, limits: TaskDataLimits) {
  if (input.data === undefined) return;
  const bytes = Buffer.byteLength(JSON.stringify(input.data));
  if (bytes > limits.taskDataBytes) throw new TaskDataTooLargeError('MAX_TASK_DATA_BYTES', bytes, limits.taskDataBytes);
  const total = (await storedResultBytes(tx, task.request_id)) + bytes;
  if (total > limits.requestDataBytes) throw new TaskDataTooLargeError('MAX_REQUEST_DATA_BYTES', total, limits.requestDataBytes);
}

/** What recording a task's result needs. */
export interface TaskResultDeps {
  readonly db: Executor;
  readonly clock: Clock;
  /** Bounds of reported data (`TASK_DATA_MAX_BYTES`, `REQUEST_DATA_MAX_BYTES`); default {@link DEFAULT_TASK_DATA_LIMITS}. */
  readonly limits?: TaskDataLimits | undefined;
}

/**
 * A data task's result (PRODUCT §2.9), reported by its system (`tasks:write`), an operator, or
 * the worker for a task the service runs itself: final and immutable, audited
 * (`data_task.<outcome>`, the request id, counts and categories in `details`, never the data);
 * the request ends when it was the last pending task and the request's own step is done
 * ({@link endRequestIfDone}), in the same unit of work. An opt-out's task is recorded by
 * {@link recordOptOutTaskResult} instead, which may end its opt-out (PRODUCT §2.18).
 *
 * Records `input` as the result of task `id`, in one unit of work under the request's lock,
 * once `allowed(task)` says the actor may report it.
 */
export async function recordTaskResult(
  deps: TaskResultDeps,
  id: string,
  input: TaskResultInput,
  actor: ActorRef,
  allowed: (task: DataTaskRow) => boolean,
  sent: unknown = input,
): Promise<DataTaskResource> {
  const { db, clock } = deps;
  const limits = deps.limits ?? DEFAULT_TASK_DATA_LIMITS;
  return runUnitOfWork(db, async (unit) => {
    const { tx } = unit;
    const seen = await findTask(tx, id);
    if (!seen || !allowed(seen)) throw new DataTaskNotFoundError(id);
    // An opt-out's task (PRODUCT §2.18) ends its opt-out, not a request.
    if (seen.opt_out_id !== null)
      return recordOptOutTaskResult(unit, { ...seen, opt_out_id: seen.opt_out_id }, input, actor, toTimestamp(clock()), sent);
    // The request's row first (the worker recording the request's own step takes it too).
    const request = await lockRequest(tx, seen.request_id);
    const task = await findTask(tx, id);
    if (!task || !request) throw new DataTaskNotFoundError(id);
    if (task.status !== 'pending') throw new TaskAlreadyFinalError(task.status);
    const problems = resultProblems(task, input, traitsOf(task.request_type).result === 'package', sent);
    if (problems.length > 0) throw new TaskResultRefusedError(problems);
    await checkDataSize(tx, task, input, limits);
    const at = toTimestamp(clock());
    const result = resultToStore(input, await packageAwaitsData(tx, request));
    if (!(await finishTask(tx, id, { status: input.outcome, result, completed_at: at, updated_at: at })))
      throw new TaskAlreadyFinalError('final');
    recordAudit(unit, {
      ...actorFields(actor),
      requestId: task.request_id,
      action: `data_task.${input.outcome}`,
      targetType: 'data_task',
      targetId: id,
      workspaceId: task.workspace_id,
      details: taskAudit(task, input),
      occurredAt: at,
    });
    await endRequestIfDone(unit, request, actor, at);
    return toTaskResource({ ...task, status: input.outcome, result, completed_at: at, updated_at: at }, at);
  });
}
