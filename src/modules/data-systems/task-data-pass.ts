import type { Executor } from '../../db/executor.js';
import type { DataTaskRow } from './data-task.repository.js';
import { replaceTaskResult, taskResultText } from './data-task-result.repository.js';
import { type TaskResult, withoutData } from './data-task-result.fns.js';

/**
 * Characters of stored results a {@link passTaskResults} reads between two pauses (a result
 * larger than this is a slice of its own; one result is at most `MAX_TASK_DATA_BYTES`).
 */
export const RESULT_SLICE_CHARS = 256 * 1024;

/** What a pass needs to know of a task before reading its result. */
export type TaskRef = Pick<DataTaskRow, 'id' | 'system_key' | 'status'>;

/**
 * Reads the stored results of `tasks` once, one task at a time, in the caller's transaction:
 * hands each to `visit` (its text, and parsed; null when it has none), then drops its `data`
 * (personal data; the task keeps which categories it held: the package is its one copy, or, for a
 * request that failed or was canceled, nothing is) and stores its new size. Awaits `pause` each
 * time {@link RESULT_SLICE_CHARS} were read, so assembling the package of a request answered by
 * many systems never holds the event loop (better-sqlite3 is synchronous) for more than about one
 * system's result (issue 23 item 2). Atomic with the caller's transaction: a crash mid-way rolls
 * every step back.
 */
export async function passTaskResults(
  tx: Executor,
  tasks: readonly TaskRef[],
  at: string,
  visit: (task: TaskRef, text: string | null, result: TaskResult | null) => void,
  pause: () => Promise<void>,
): Promise<void> {
  let read = 0;
  for (const task of tasks) {
    const text = await taskResultText(tx, task.id);
    const result = text === null ? null : (JSON.parse(text) as TaskResult);
    visit(task, text, result);
    const dropped = result === null ? null : withoutData(result);
    if (dropped !== null) await replaceTaskResult(tx, task.id, dropped, at);
    read += text?.length ?? 0;
    if (read >= RESULT_SLICE_CHARS) {
      read = 0;
      await pause();
    }
  }
}

/** {@link passTaskResults} of rows already read (a report's tasks): drops the `data` any of them holds. */
export async function dropTaskData(tx: Executor, tasks: readonly DataTaskRow[], at: string): Promise<void> {
  for (const task of tasks) {
    const dropped = task.result === null ? null : withoutData(JSON.parse(task.result) as TaskResult);
    if (dropped !== null) await replaceTaskResult(tx, task.id, dropped, at);
  }
}
