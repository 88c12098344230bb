import type { ResultProblem } from './data-task-result.fns.js';

/** No such task, or not one the caller may see (another workspace, or a system its token is not limited to): 404. */
export class DataTaskNotFoundError extends Error {}

/** The task already has its final result; results are immutable (409). */
export class TaskAlreadyFinalError extends Error {
  constructor(readonly status: string) {
    super(`the task is already ${status}`);
  }
}

/** A result names categories outside the task, or data a task of its type does not take (422). */
export class TaskResultRefusedError extends Error {
  constructor(readonly problems: readonly ResultProblem[]) {
    super('task result refused');
  }
}

/**
 * A result's `data` is larger than a limit (413): one task's (`MAX_TASK_DATA_BYTES`) or all of
 * a request's tasks together (`MAX_REQUEST_DATA_BYTES`). Nothing is stored.
 */
export class TaskDataTooLargeError extends Error {
  constructor(
    readonly limit: 'MAX_TASK_DATA_BYTES' | 'MAX_REQUEST_DATA_BYTES',
    readonly bytes: number,
    readonly max: number,
  ) {
    super(`task result data over ${limit}`);
  }
}
