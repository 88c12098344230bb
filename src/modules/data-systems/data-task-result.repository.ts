// Reading and rewriting data tasks' stored results: the statuses a request's end is decided
// from, one result at a time when its package is assembled, and the size caps (issue 23 item 2).
import type { Executor } from '../../db/executor.js';
import type { DataTaskRow } from './data-task.repository.js';

/** What deciding a request's end needs of a task, and what tells whether its result changed since it was read. */
export type TaskStatusRow = Pick<DataTaskRow, 'id' | 'system_key' | 'status' | 'updated_at' | 'result_bytes'>;

/**
 * The status of every task of a request, by system key: what deciding the request's end needs,
 * without the results (a system's `data` may be large; it is read once, when the request ends).
 */
export async function taskStatusesOfRequest(db: Executor, requestId: string): Promise<TaskStatusRow[]> {
  return db
    .selectFrom('data_tasks')
    .select(['id', 'system_key', 'status', 'updated_at', 'result_bytes'])
    .where('request_id', '=', requestId)
    .orderBy('system_key')
    .execute();
}

/** One task's stored result (JSON text), or null (none, or no such task). */
export async function taskResultText(db: Executor, id: string): Promise<string | null> {
  const row = await db.selectFrom('data_tasks').select('result').where('id', '=', id).executeTakeFirst();
  return row?.result ?? null;
}

/** Replaces a task's stored result (and its size) by `result`, as of `at`. */
export async function replaceTaskResult(db: Executor, id: string, result: string, at: string): Promise<void> {
  await db
    .updateTable('data_tasks')
    .set({ result, result_bytes: Buffer.byteLength(result), updated_at: at })
    .where('id', '=', id)
    .execute();
}

/**
 * Bytes of the stored results of a request's tasks (their JSON, UTF-8): the sum of the sizes
 * written with them (`result_bytes`), read from the index `data_tasks_request_bytes`, so it costs
 * the number of tasks, never their results' size.
 */
export async function storedResultBytes(db: Executor, requestId: string): Promise<number> {
  const row = await db
    .selectFrom('data_tasks')
    .select((eb) => eb.fn.sum<number | string | null>('result_bytes').as('bytes'))
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/**
 * The other tasks of `task`'s request when `task` is its only pending task (so its result may end
 * the request); null when `task` is not pending or another task is. One indexed read, without the
 * results.
 */
export async function othersIfLastPending(
  db: Executor,
  task: Pick<DataTaskRow, 'id' | 'request_id' | 'status'>,
): Promise<TaskStatusRow[] | null> {
  if (task.status !== 'pending') return null;
  const others = (await taskStatusesOfRequest(db, task.request_id)).filter((t) => t.id !== task.id);
  return others.some((t) => t.status === 'pending') ? null : others;
}
