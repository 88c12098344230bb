import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import type { TaskResultDeps } from './record-task-result.js';
import { recordTaskRun } from './record-task-run.js';
import { reportTaskResult } from './report-task-result.js';

/** A data task's result, bound to the database, clock and limits: what routes and the task runner call. */
export interface TaskResults {
  /** A system's (or an operator's) report: {@link reportTaskResult}. */
  readonly report: Bound<typeof reportTaskResult>;
  /** The worker's answer for a task the service ran itself: {@link recordTaskRun}. */
  readonly recordRun: Bound<typeof recordTaskRun>;
}

/** Binds the task results to `deps` (src/services.ts wires them once). */
export function bindTaskResults(deps: TaskResultDeps): TaskResults {
  return { report: bindDeps(reportTaskResult, deps), recordRun: bindDeps(recordTaskRun, deps) };
}
