import type { DataTaskExecutor } from './data-task-executor.js';

/**
 * A system without an endpoint: an operator sees its task in the console (or the task list)
 * and marks it done with `POST …/result` (PRODUCT §2.9). Nothing is sent when it is created.
 */
export const manualExecutor: DataTaskExecutor = {
  manual: true,
  async announce() {},
};
