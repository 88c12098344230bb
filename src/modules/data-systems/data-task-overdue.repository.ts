// Overdue data tasks (pending past their due date): counted for the metrics and sent once as an
// overdue event by the sweep (src/jobs/task-overdue-sweep.ts).
import type { Executor } from '../../db/executor.js';
import { updateRows } from '../../db/row-match.js';
import type { DataTaskRow } from './data-task.repository.js';

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
