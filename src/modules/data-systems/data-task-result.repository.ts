// Reading and rewriting data tasks' stored results: the statuses a request's end is decided
// from, one result at a time when its package is assembled, and the size caps (issue 23 item 2).
import type { Executor } from '../../db/executor.js';
import type { DataTaskRow } from './data-task.repository.js';

/** What deciding a request's end needs of a task. */
export type TaskStatusRow = Pick<DataTaskRow, 'id' | 'system_key' | 'status'>;

/**
 * The status of every task of a request, by system key: what deciding the request's end needs,
 * without the results (a system's `data` may be large; it is read once, when the request ends).
 */
export async function taskStatusesOfRequest(db: Executor, requestId: string): Promise<TaskStatusRow[]> {
  return db
    .selectFrom('data_tasks')
    .select(['id', 'system_key', 'status'])
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

/** How many of a request's tasks could not be searched (PRODUCT §2.17: status `not_searchable`). */
export async function countNotSearchable(db: Executor, requestId: string): Promise<number> {
  const row = await db
    .selectFrom('data_tasks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('request_id', '=', requestId)
    .where('status', '=', 'not_searchable')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
