import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { ChangeEventTable } from './change-event.table.js';

export type ChangeEventRow = Selectable<ChangeEventTable>;

const CHANGE_EVENT_COLUMNS = [
  'id',
  'workspace_id',
  'integration_id',
  'provider',
  'repository',
  'number',
  'action',
  'head_sha',
  'title',
  'author_account_id',
  'author_login',
  'author_pseudonym',
  'decision',
  'policy_version',
  'received_at',
] as const satisfies readonly (keyof ChangeEventRow)[];

const insertRow = preparedQuery<ChangeEventRow, never>(CHANGE_EVENT_COLUMNS, (db, row) =>
  db.insertInto('change_events').values(row),
);

/** Inserts a change event (every column of `row`). */
export async function insertChangeEvent(db: Executor, row: ChangeEventRow): Promise<void> {
  await insertRow(db, row);
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
