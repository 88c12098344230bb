import type { Executor } from '../../db/executor.js';
import type { DataTaskRow } from './data-task.repository.js';
import { replaceTaskResult, taskResultText, type TaskStatusRow } from './data-task-result.repository.js';
import { type TaskResult, withoutData } from './data-task-result.fns.js';

/**
 * Characters of stored results a {@link passTaskResults} reads between two pauses (a result
 * larger than this is a slice of its own; one result is at most `MAX_TASK_DATA_BYTES`).
 */
export const RESULT_SLICE_CHARS = 256 * 1024;

/** What a pass needs to know of a task before reading its result (and whether it changed since read ahead). */
export type TaskRef = TaskStatusRow;

/** A final task's result as {@link readResultsAhead} read it, with what identifies that version. */
export interface ResultAhead {
  updated_at: string;
  result_bytes: number | null;
  text: string | null;
  result: TaskResult | null;
}

/** Task id → its result read ahead of the transaction ({@link readResultsAhead}). */
export type ResultsAhead = ReadonlyMap<string, ResultAhead>;

/** Whether `ahead` is still the stored version of `task` (a final result changes only when its data or note is dropped). */
function isCurrent(ahead: ResultAhead | undefined, task: TaskRef): ahead is ResultAhead {
  return ahead !== undefined && ahead.updated_at === task.updated_at && ahead.result_bytes === task.result_bytes;
}

/**
 * Reads (and parses) the stored results of final `tasks` before the transaction that will end
 * their request, one statement each and outside any transaction, awaiting `pause` after every
 * {@link RESULT_SLICE_CHARS}: the fast path of {@link passTaskResults}. What it saves: on SQLite
 * the write transaction that assembles a package no longer holds the one write lock while
 * megabytes of results are read and parsed with event-loop turns in between (during each turn
 * the other posts' bodies were parsed while every write waited: a post's p99 1.8×); the
 * transaction uses what was read here for every task whose version (`updated_at`,
 * `result_bytes`) did not change, and reads the rest itself.
 */
export async function readResultsAhead(
  db: Executor,
  tasks: readonly TaskRef[],
  pause: () => Promise<void>,
): Promise<ResultsAhead> {
  const ahead = new Map<string, ResultAhead>();
  let read = 0;
  for (const task of tasks) {
    if (task.status === 'pending') continue;
    const text = await taskResultText(db, task.id);
    ahead.set(task.id, {
      updated_at: task.updated_at,
      result_bytes: task.result_bytes,
      text,
      result: text === null ? null : (JSON.parse(text) as TaskResult),
    });
    read += text?.length ?? 0;
    if (read >= RESULT_SLICE_CHARS) {
      read = 0;
      await pause();
    }
  }
  return ahead;
}

/**
 * Reads the stored results of `tasks` once, one task at a time, in the caller's transaction:
 * hands each to `visit` (its text, and parsed; null when it has none), then drops its `data`
 * (personal data; the task keeps which categories it held: the package is its one copy, or, for a
 * request that failed or was canceled, nothing is) and stores its new size. Awaits `pause` each
 * time {@link RESULT_SLICE_CHARS} were read here, so assembling the package of a request answered
 * by many systems never holds the event loop (better-sqlite3 is synchronous) for more than about
 * one system's result (issue 23 item 2); a result in `ahead` ({@link readResultsAhead}) that is
 * still current is not read again. Atomic with the caller's transaction: a crash mid-way rolls
 * every step back.
 */
export async function passTaskResults(
  tx: Executor,
  tasks: readonly TaskRef[],
  at: string,
  visit: (task: TaskRef, text: string | null, result: TaskResult | null) => void,
  pause: () => Promise<void>,
  ahead: ResultsAhead = new Map(),
): Promise<void> {
  let read = 0;
  for (const task of tasks) {
    const early = ahead.get(task.id);
    const known = isCurrent(early, task);
    const text = known ? early.text : await taskResultText(tx, task.id);
    const result = known ? early.result : text === null ? null : (JSON.parse(text) as TaskResult);
    visit(task, text, result);
    const dropped = result === null ? null : withoutData(result);
    if (dropped !== null) await replaceTaskResult(tx, task.id, dropped, at);
    if (known) continue;
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
