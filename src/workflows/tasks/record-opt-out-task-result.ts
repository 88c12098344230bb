import type { UnitOfWork } from '../../db/unit-of-work.js';
import { type ActorRef, actorFields, recordAudit } from '../../modules/audit/audit.repository.js';
import {
  DataTaskNotFoundError,
  TaskAlreadyFinalError,
  TaskResultRefusedError,
} from '../../modules/data-systems/data-task.errors.js';
import { type DataTaskRow, findTask } from '../../modules/data-systems/data-task.repository.js';
import { finishTask } from '../../modules/data-systems/data-task-lifecycle.repository.js';
import { taskStatusesOfRequest } from '../../modules/data-systems/data-task-result.repository.js';
import { type DataTaskResource, toTaskResource } from '../../modules/data-systems/data-task.resource.js';
import { resultProblems, storedResult, type TaskResultInput } from '../../modules/data-systems/data-task-result.fns.js';
import { optOutStatusAfterTasks } from '../../modules/opt-outs/opt-out.fns.js';
import { endOptOut, lockOptOut, type OptOutRow } from '../../modules/opt-outs/opt-out.repository.js';
import { OPEN_OPT_OUT_STATUSES } from '../../modules/opt-outs/opt-out.types.js';
import { taskAudit } from './task-audit.js';

/**
 * After an opt-out's task became final: ends the opt-out when none of its tasks is pending
 * (PRODUCT §2.18, "status and tasks as §2.9"): `failed` when one failed, else `completed`
 * (`optOutStatusAfterTasks`), audited as `opt_out.<status>` by `actor`. The caller holds its lock.
 */
async function endOptOutIfDone(unit: UnitOfWork, optOut: OptOutRow, actor: ActorRef, at: string): Promise<void> {
  if (!(OPEN_OPT_OUT_STATUSES as readonly string[]).includes(optOut.status)) return;
  const statuses = (await taskStatusesOfRequest(unit.tx, optOut.id)).map((t) => t.status);
  const next = optOutStatusAfterTasks(statuses);
  if (next === 'processing' || !(await endOptOut(unit.tx, optOut.id, next, at, OPEN_OPT_OUT_STATUSES))) return;
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  recordAudit(unit, {
    ...actorFields(actor),
    action: `opt_out.${next}`,
    targetType: 'opt_out',
    targetId: optOut.id,
    workspaceId: optOut.workspace_id,
    details: { from: optOut.status, to: next, tasks: counts },
    occurredAt: at,
  });
}

/**
 * The result of an opt-out's task (PRODUCT §2.18; `POST /api/v1/data-tasks/{id}/result` as for a
 * request's, §2.9), in the caller's unit of work: the opt-out's row is locked first (as its
 * superseding by a later choice locks it), then the task read again; a task no longer pending is a
 * {@link TaskAlreadyFinalError} (a later choice may have superseded it). The task covers no data
 * category and produces no package, so `records`, `data`, `erased` and `kept` are refused (422);
 * `outcome` and `note` are what a system reports. Final and audited (`data_task.<outcome>`, the
 * opt-out id in `details`, the note by its SHA-256); the opt-out ends when it was its last pending task.
 */
export async function recordOptOutTaskResult(
  unit: UnitOfWork,
  seen: DataTaskRow & { opt_out_id: string },
  input: TaskResultInput,
  actor: ActorRef,
  at: string,
  sent: unknown,
): Promise<DataTaskResource> {
  const optOut = await lockOptOut(unit.tx, seen.opt_out_id);
  const task = await findTask(unit.tx, seen.id);
  if (!task || !optOut) throw new DataTaskNotFoundError(seen.id);
  if (task.status !== 'pending') throw new TaskAlreadyFinalError(task.status);
  const problems = resultProblems(task, input, false, sent);
  if (problems.length > 0) throw new TaskResultRefusedError(problems);
  const result = JSON.stringify(storedResult(input));
  if (!(await finishTask(unit.tx, task.id, { status: input.outcome, result, completed_at: at, updated_at: at })))
    throw new TaskAlreadyFinalError('final');
  recordAudit(unit, {
    ...actorFields(actor),
    action: `data_task.${input.outcome}`,
    targetType: 'data_task',
    targetId: task.id,
    workspaceId: task.workspace_id,
    details: taskAudit(task, input),
    occurredAt: at,
  });
  await endOptOutIfDone(unit, optOut, actor, at);
  return toTaskResource({ ...task, status: input.outcome, result, completed_at: at, updated_at: at }, at);
}
