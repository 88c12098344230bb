import type { DataTaskResource } from '../../modules/data-systems/data-task.resource.js';
import { recordTaskResult, type TaskResultDeps } from './record-task-result.js';
import type { TaskResultInput } from '../../modules/data-systems/data-task-result.fns.js';

/**
 * Records the answer of a task the service ran itself (jobs/task-runner.ts), audited as the
 * `worker`, only while `owner` holds its lease.
 * @throws DataTaskNotFoundError when the lease is not (or no longer) `owner`'s, and as {@link reportTaskResult}.
 */
export async function recordTaskRun(
  deps: TaskResultDeps,
  owner: string,
  id: string,
  input: TaskResultInput,
): Promise<DataTaskResource> {
  return recordTaskResult(deps, id, input, 'worker', (task) => task.lease_owner === owner);
}
