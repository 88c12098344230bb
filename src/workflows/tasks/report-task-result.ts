import type { DataTaskResource } from '../../modules/data-systems/data-task.resource.js';
import { mayReadTask } from '../../modules/data-systems/data-task.service.js';
import type { Principal } from '../../modules/principals/principal.js';
import { recordTaskResult, type TaskResultDeps } from './record-task-result.js';
import type { TaskResultInput } from '../../modules/data-systems/data-task-result.fns.js';

/**
 * Records the result of task `id`, reported by `principal` (its workspace, and its system
 * when the token is limited to systems). `sent`: the body as the client sent it, echoed as the
 * `input` of a refusal at `["body"]` (default: `input`).
 * @throws DataTaskNotFoundError, TaskAlreadyFinalError, TaskResultRefusedError,
 *   TaskDataTooLargeError.
 */
export async function reportTaskResult(
  deps: TaskResultDeps,
  principal: Principal,
  id: string,
  input: TaskResultInput,
  sent?: unknown,
): Promise<DataTaskResource> {
  return recordTaskResult(deps, id, input, principal, (task) => mayReadTask(principal, task), sent);
}
