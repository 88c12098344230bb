// A data task's status changes: created by a request's fan-out, finished with its result, closed
// with its request or opt-out, opened again for a re-pointed request.
import type { Executor } from '../../db/executor.js';
import type { DataTaskStatus } from '../../db/tables/data-system.table.js';
import type { DataTaskRow } from './data-task.repository.js';

/**
 * Inserts a task unless the request already has one for the system (a retried fan-out).
 * @returns true when inserted.
 */
export async function insertTaskUnlessPresent(db: Executor, row: DataTaskRow): Promise<boolean> {
  const inserted = await db
    .insertInto('data_tasks')
    .values(row)
    .onConflict((oc) => oc.columns(['request_id', 'system_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Sets a pending task's final status, result and completion time (and ends a runner's lease and
 * drops the identities it kept).
 * @returns false when the task is no longer pending (a concurrent result won).
 */
export async function finishTask(
  db: Executor,
  id: string,
  fields: { status: DataTaskStatus; result: string | null; completed_at: string; updated_at: string },
): Promise<boolean> {
  const updated = await db
    .updateTable('data_tasks')
    .set({
      ...fields,
      result_bytes: fields.result === null ? null : Buffer.byteLength(fields.result),
      lease_owner: null,
      lease_expires_at: null,
      identities_ciphertext: null,
      run_progress: null,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/**
 * Every pending task of a request (or of an opt-out: its id), closed as `status`: `not_applicable`
 * when the request was canceled or rejected, `superseded` when a later opt-out or opt-in replaced
 * the opt-out's choice (PRODUCT §2.18). @returns their rows before.
 */
export async function closePendingTasks(
  db: Executor,
  requestId: string,
  at: string,
  status: Extract<DataTaskStatus, 'not_applicable' | 'superseded'> = 'not_applicable',
): Promise<DataTaskRow[]> {
  const pending = await db
    .selectFrom('data_tasks')
    .selectAll()
    .where('request_id', '=', requestId)
    .where('status', '=', 'pending')
    .execute();
  if (pending.length === 0) return [];
  await db
    .updateTable('data_tasks')
    .set({ status, completed_at: at, updated_at: at, identities_ciphertext: null, run_progress: null })
    .where('request_id', '=', requestId)
    .where('status', '=', 'pending')
    .execute();
  return pending;
}

/**
 * Opens task `id` again as a new task in the same row (PRODUCT §2.17: a re-pointed request's
 * systems are asked again for the new identity): under the new id `fields.id`, `pending`, due at
 * `fields.due_at`, created at `fields.at`; its result, attempts, lease, backoff, kept identities
 * and overdue mark cleared. @returns the task as stored, or undefined when there is no such task.
 */
export async function reopenTask(
  db: Executor,
  id: string,
  fields: { id: string; due_at: string; at: string },
): Promise<DataTaskRow | undefined> {
  return db
    .updateTable('data_tasks')
    .set({
      id: fields.id,
      status: 'pending',
      due_at: fields.due_at,
      created_at: fields.at,
      updated_at: fields.at,
      completed_at: null,
      result: null,
      result_bytes: null,
      overdue_notified_at: null,
      attempts: 0,
      lease_owner: null,
      lease_expires_at: null,
      next_attempt_at: null,
      identities_ciphertext: null,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
