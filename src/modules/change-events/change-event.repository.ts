import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { ChangeEventTable } from './change-event.table.js';

export type ChangeEventRow = Selectable<ChangeEventTable>;

/** Inserts a change event. */
export async function insertChangeEvent(db: Executor, row: ChangeEventRow): Promise<void> {
  await db.insertInto('change_events').values(row).execute();
}

/** A page of a workspace's change events, newest first, optionally of one repository. */
export async function listChangeEvents(
  db: Executor,
  filter: { workspaceId: string; repository?: string; before?: string; limit: number },
): Promise<ChangeEventRow[]> {
  let query = db.selectFrom('change_events').selectAll().where('workspace_id', '=', filter.workspaceId);
  if (filter.repository !== undefined) query = query.where('repository', '=', filter.repository);
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}
