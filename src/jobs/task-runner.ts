import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { type Clock, toTimestamp } from '../lib/clock.js';
import { nextTurn } from '../lib/yielding.js';
import { findSystemByKey } from '../modules/data-systems/data-system.repository.js';
import {
  claimRunnableTask,
  extendTaskLease,
  putTaskBack,
  retryTaskLater,
} from '../modules/data-systems/data-task-run.repository.js';
import type { DataTaskRow } from '../modules/data-systems/data-task.repository.js';
import { findRequestById } from '../modules/privacy-requests/privacy-request.repository.js';
import type { TaskResultInput } from '../modules/data-systems/data-task-result.fns.js';
import { type DataTaskExecutor, type TaskRunContext, TaskRunError } from '../workflows/data-systems/data-task-executor.js';
import { DATA_TASK_EXECUTORS } from '../workflows/data-systems/executors.js';
import { retryDelayMs } from '../modules/privacy-requests/lifecycle/lifecycle.fns.js';
import type { TaskResults } from '../workflows/tasks/task-results.js';
import { failureReason } from './attempt-errors.js';
import { createIdleWait, type IdleWait } from './idle-wait.js';

/** Task runner settings: the worker's (PRODUCT §3). Times in ms. */
export interface TaskRunnerOptions {
  pollMs: number;
  leaseMs: number;
  maxAttempts: number;
}

/** How long a correction task waiting for its corrected values waits before it is looked at again, ms. */
export const WAITING_RECHECK_MS = 30_000;

/** Kinds whose executor runs tasks in-process, among `executors`. */
export function runnableKinds(executors: Readonly<Record<string, DataTaskExecutor | undefined>>): string[] {
  return Object.entries(executors)
    .filter(([, executor]) => executor?.run !== undefined)
    .map(([kind]) => kind);
}

/** The stored failure of a run: the executor's own safe message, or the error's class (PRODUCT §2.14). */
function runFailure(task: DataTaskRow, error: unknown): { note: string; retryable: boolean } {
  if (error instanceof TaskRunError) return { note: error.message, retryable: error.retryable };
  return { note: `${task.system_key}: ${failureReason(error)}`, retryable: true };
}

/**
 * Runs the data tasks of systems the service answers itself (PRODUCT §2.14: database connectors),
 * beside the request worker: claims a pending task of a runnable kind (once across any number of
 * workers: a lease, `FOR UPDATE SKIP LOCKED` on PostgreSQL), calls its executor's `run` outside
 * any transaction while a heartbeat keeps the lease, and records the answer as the task's result
 * through the request lifecycle (so deadlines, status, events, audit, package and report work as
 * for every other system). A failed run is tried again after the request worker's backoff; after
 * `maxAttempts` runs (or a failure that cannot succeed) the task fails with a note naming the
 * system and what failed, never a connection URL.
 */
export function createTaskRunner(deps: {
  database: Database;
  clock: Clock;
  log: Logger;
  taskResults: Pick<TaskResults, 'recordRun'>;
  /** What executors read: the secret box (connections), the connector settings, the pseudonym key (masking). */
  keys: Omit<TaskRunContext, 'db' | 'request'>;
  options: TaskRunnerOptions;
  /** Default: every kind's executor; tests pass their own. */
  executors?: Readonly<Record<string, DataTaskExecutor>>;
}) {
  const { database, clock, log, options } = deps;
  const db = database.db;
  const executors: Readonly<Record<string, DataTaskExecutor | undefined>> = deps.executors ?? DATA_TASK_EXECUTORS;
  const kinds = runnableKinds(executors);
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}:tasks`;
  let running = false;
  let loop: Promise<void> | null = null;
  /** The wait between claims that found nothing: `pollMs`, cut short by a commit (db/wakeup.ts) or `stop()`. */
  let idle: IdleWait | undefined;
  const leaseUntil = () => toTimestamp(new Date(clock().getTime() + options.leaseMs));

  /** Records a failed run: again after the backoff, or the task fails (a result, audited). */
  async function failed(task: DataTaskRow, error: unknown): Promise<void> {
    const { note, retryable } = runFailure(task, error);
    const now = clock();
    if (retryable && task.attempts < options.maxAttempts) {
      await retryTaskLater(
        db,
        task.id,
        owner,
        toTimestamp(new Date(now.getTime() + retryDelayMs(task.attempts))),
        toTimestamp(now),
      );
      log.warn({ taskId: task.id, attempt: task.attempts, error: failureReason(error) }, 'data task run failed; retried later');
      return;
    }
    await deps.taskResults.recordRun(owner, task.id, { outcome: 'failed', note });
    log.warn({ taskId: task.id, attempts: task.attempts, error: failureReason(error) }, 'data task failed');
  }

  /** Runs `task` with its system's executor and records the answer. */
  async function run(task: DataTaskRow): Promise<void> {
    const executor = executors[task.executor];
    const system = await findSystemByKey(db, task.workspace_id, task.system_key);
    const request = await findRequestById(db, task.request_id);
    if (request?.status === 'action_required') {
      // A correction waiting for its corrected values (POST …/corrections): run once they are there.
      const now = clock();
      await putTaskBack(db, task.id, owner, toTimestamp(new Date(now.getTime() + WAITING_RECHECK_MS)), toTimestamp(now));
      return;
    }
    const heartbeat = setInterval(
      () => void extendTaskLease(db, task.id, owner, leaseUntil()).catch(() => undefined),
      Math.max(10, Math.floor(options.leaseMs / 3)),
    );
    let answer: TaskResultInput;
    try {
      if (!executor?.run || !system || !request)
        throw new TaskRunError(`${task.system_key}: the system can no longer run its tasks`, false);
      answer = await executor.run(task, system, { ...deps.keys, db, request });
    } catch (error) {
      clearInterval(heartbeat);
      return failed(task, error);
    }
    clearInterval(heartbeat);
    await deps.taskResults.recordRun(owner, task.id, answer).catch((error: unknown) => failed(task, error));
  }

  /** Claims and runs at most one task. @returns true when one was claimed. */
  async function runOnce(): Promise<boolean> {
    const task = await claimRunnableTask(db, kinds, owner, toTimestamp(clock()), leaseUntil());
    if (!task) return false;
    log.debug({ taskId: task.id, executor: task.executor, attempt: task.attempts }, 'data task claimed');
    await run(task);
    return true;
  }

  async function loopOnce(wait: IdleWait): Promise<void> {
    while (running) {
      await nextTurn();
      wait.clear();
      const worked = await runOnce().catch((error: unknown) => {
        log.warn({ error: failureReason(error) }, 'data task poll failed');
        return false;
      });
      if (!worked && running) await wait.wait();
    }
  }

  return {
    owner,
    runOnce,
    /**
     * Starts polling in the background (nothing when no kind runs in-process), woken at once by
     * every commit on the database (db/wakeup.ts): a task fanned out claims without waiting the poll.
     */
    start(): void {
      if (running || kinds.length === 0) return;
      running = true;
      idle = createIdleWait(options.pollMs, database.wakeups);
      loop = loopOnce(idle);
    },
    /** Stops after the task in hand; its lease brings an abandoned one back. */
    async stop(): Promise<void> {
      running = false;
      idle?.wake();
      await loop;
      idle?.close();
    },
  };
}

export type TaskRunner = ReturnType<typeof createTaskRunner>;
