import { skipLocked } from '../../db/locking.js';
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { updateRows } from '../../db/row-match.js';
import type { DataSystemRow } from './data-system.repository.js';
import type { DataTaskStatus, DataTaskTable } from '../../db/tables/data-system.table.js';

export type DataTaskRow = Selectable<DataTaskTable>;

/**
 * The live systems of a workspace that take requests of `requestType` (their `request_types`
 * JSON array holds it; the category overlap is decided by the caller). One indexed read.
 */
export async function systemsForRequest(db: Executor, workspaceId: string, requestType: string): Promise<DataSystemRow[]> {
  const rows = await db
    .selectFrom('data_systems')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .orderBy('key')
    .execute();
  return rows.filter((r) => (JSON.parse(r.request_types) as string[]).includes(requestType));
}

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

/** Every task of a request with its result, by system key. */
export async function tasksOfRequest(db: Executor, requestId: string): Promise<DataTaskRow[]> {
  return db.selectFrom('data_tasks').selectAll().where('request_id', '=', requestId).orderBy('system_key').execute();
}

/** One task by id, or undefined. */
export async function findTask(db: Executor, id: string): Promise<DataTaskRow | undefined> {
  return db.selectFrom('data_tasks').selectAll().where('id', '=', id).executeTakeFirst();
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
 * Keeps what a run of a pending task has done so far (PRODUCT §2.17: a resumed erasure reports all
 * it did): counts only, JSON. @returns false when the task is no longer pending.
 */
export async function setTaskProgress(db: Executor, id: string, progress: string): Promise<boolean> {
  const updated = await db
    .updateTable('data_tasks')
    .set({ run_progress: progress })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** Keeps a task's identities for its run (sealed by the caller), in the unit that creates it. */
export async function setTaskIdentities(db: Executor, id: string, sealed: string): Promise<void> {
  await db.updateTable('data_tasks').set({ identities_ciphertext: sealed }).where('id', '=', id).execute();
}

/**
 * Claims the oldest pending task of one of `executors` (kinds the service runs itself) that is
 * due (no backoff pending) and not leased (or its lease expired: its runner died): leased to
 * `owner` until `leaseUntil`, `attempts` counted. One statement; on PostgreSQL the candidate is
 * taken `FOR UPDATE SKIP LOCKED`, so any number of workers claim each task once.
 * @returns the claimed task, or undefined.
 */
export async function claimRunnableTask(
  db: Executor,
  executors: readonly string[],
  owner: string,
  now: string,
  leaseUntil: string,
): Promise<DataTaskRow | undefined> {
  if (executors.length === 0) return undefined;
  const candidate = skipLocked(
    db,
    db
      .selectFrom('data_tasks')
      .select('id')
      .where('status', '=', 'pending')
      .where('executor', 'in', [...executors])
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
      .orderBy('id')
      .limit(1),
  );
  return db
    .updateTable('data_tasks')
    .set((eb) => ({ lease_owner: owner, lease_expires_at: leaseUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
    .where('id', '=', db.selectFrom(candidate.as('c')).select('c.id'))
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** An update of a task that applies only while `owner` holds it, pending. */
function whileRunning(db: Executor, id: string, owner: string) {
  return db.updateTable('data_tasks').where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'pending');
}

/** Extends a runner's lease while it holds the task. @returns false when it lost it. */
export async function extendTaskLease(db: Executor, id: string, owner: string, leaseUntil: string): Promise<boolean> {
  const result = await whileRunning(db, id, owner).set({ lease_expires_at: leaseUntil }).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A claimed task that cannot run yet (its correction request still waits for the corrected
 * values): given back unleased, due at `dueAt`, the claim not counted as an attempt.
 * @returns false when `owner` no longer holds it.
 */
export async function putTaskBack(db: Executor, id: string, owner: string, dueAt: string, at: string): Promise<boolean> {
  const result = await whileRunning(db, id, owner)
    .set((eb) => ({
      lease_owner: null,
      lease_expires_at: null,
      next_attempt_at: dueAt,
      attempts: eb('attempts', '-', 1),
      updated_at: at,
    }))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A failed run to try again after a backoff: unleased, due at `nextAttemptAt`, while `owner`
 * still holds it. @returns false when it does not.
 */
export async function retryTaskLater(
  db: Executor,
  id: string,
  owner: string,
  nextAttemptAt: string,
  at: string,
): Promise<boolean> {
  const result = await whileRunning(db, id, owner)
    .set({ lease_owner: null, lease_expires_at: null, next_attempt_at: nextAttemptAt, updated_at: at })
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Filters of the task list; `before` is the cursor's id (newest first). */
export interface TaskListFilter {
  workspaces: readonly string[] | '*';
  systemKey?: string;
  /** Only tasks of these systems (a token limited to systems). */
  systems?: readonly string[];
  status?: DataTaskStatus;
  /** Only pending tasks due before this time (RFC 3339 UTC). */
  overdueAt?: string;
  before?: string;
  limit: number;
}

/** Tasks matching `f`, newest first, at most `f.limit`. */
export async function listTasks(db: Executor, f: TaskListFilter): Promise<DataTaskRow[]> {
  if (f.workspaces !== '*' && f.workspaces.length === 0) return [];
  let query = db.selectFrom('data_tasks').selectAll();
  if (f.workspaces !== '*') query = query.where('workspace_id', 'in', f.workspaces);
  if (f.systemKey !== undefined) query = query.where('system_key', '=', f.systemKey);
  if (f.systems !== undefined) {
    if (f.systems.length === 0) return [];
    query = query.where('system_key', 'in', f.systems);
  }
  if (f.status !== undefined) query = query.where('status', '=', f.status);
  if (f.overdueAt !== undefined) query = query.where('status', '=', 'pending').where('due_at', '<', f.overdueAt);
  if (f.before !== undefined) query = query.where('id', '<', f.before);
  return query.orderBy('id', 'desc').limit(f.limit).execute();
}

/** How many tasks are overdue at `at` (pending, due before it), by status. */
export async function countOverdueTasks(db: Executor, at: string): Promise<{ status: string; count: number }[]> {
  const rows = await db
    .selectFrom('data_tasks')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
    .where('status', '=', 'pending')
    .where('due_at', '<', at)
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
}

/** Up to `limit` overdue tasks whose overdue event was not sent yet, oldest due first. */
export async function overdueUnnotified(db: Executor, at: string, limit: number): Promise<DataTaskRow[]> {
  return db
    .selectFrom('data_tasks')
    .selectAll()
    .where('status', '=', 'pending')
    .where('due_at', '<', at)
    .where('overdue_notified_at', 'is', null)
    .orderBy('due_at')
    .limit(limit)
    .execute();
}

/** Marks the overdue event of a task sent. @returns false when another sweep marked it first. */
export async function markOverdueNotified(db: Executor, id: string, at: string): Promise<boolean> {
  return (await updateRows(db, 'data_tasks', { overdue_notified_at: at }, { id, overdue_notified_at: null })) > 0n;
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

/** Key → name of the workspace's systems with these keys (deleted ones included). */
export async function systemNames(db: Executor, workspaceId: string, keys: readonly string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('data_systems')
    .select(['key', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where('key', 'in', [...new Set(keys)])
    .execute();
  return new Map(rows.map((r) => [r.key, r.name]));
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
