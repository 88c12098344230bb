// Reading data tasks (and the names of their systems): the systems a new request fans out to, a
// request's tasks, one task, the task list. Its changes are in data-task-lifecycle.repository.ts
// (created, finished, closed, reopened), data-task-run.repository.ts (a run the service does itself)
// and data-task-overdue.repository.ts (overdue counts and events).
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
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

/** Every task of a request with its result, by system key. */
export async function tasksOfRequest(db: Executor, requestId: string): Promise<DataTaskRow[]> {
  return db.selectFrom('data_tasks').selectAll().where('request_id', '=', requestId).orderBy('system_key').execute();
}

/** One task by id, or undefined. */
export async function findTask(db: Executor, id: string): Promise<DataTaskRow | undefined> {
  return db.selectFrom('data_tasks').selectAll().where('id', '=', id).executeTakeFirst();
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
