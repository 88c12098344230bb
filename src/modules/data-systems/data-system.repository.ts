import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { findColumns, findRow } from '../../db/row-match.js';
import type { DataSystemTable } from '../../db/tables/data-system.table.js';

export type DataSystemRow = Selectable<DataSystemTable>;

/**
 * Inserts a system unless its (workspace_id, key) or (workspace_id, fides_key) is taken (the
 * unique indexes decide, deleted systems' keys included). @returns true when inserted.
 */
export async function insertSystemUnlessTaken(db: Executor, row: DataSystemRow): Promise<boolean> {
  const inserted = await db
    .insertInto('data_systems')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** One system by id (deleted ones included), or undefined. */
export async function findSystemById(db: Executor, id: string): Promise<DataSystemRow | undefined> {
  return db.selectFrom('data_systems').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The system of a workspace with this key, deleted or not (keys stay reserved), or undefined. */
export async function findSystemByKey(db: Executor, workspaceId: string, key: string): Promise<DataSystemRow | undefined> {
  return findRow(db, 'data_systems', { workspace_id: workspaceId, key });
}

/** One live (not deleted) system by workspace and key, or undefined. */
export async function findLiveSystemByKey(db: Executor, workspaceId: string, key: string): Promise<DataSystemRow | undefined> {
  return findRow(db, 'data_systems', { workspace_id: workspaceId, key, deleted_at: null });
}

/** The live systems of the workspaces (`'*'`: every workspace), by workspace then key. */
export async function listLiveSystems(db: Executor, workspaces: readonly string[] | '*'): Promise<DataSystemRow[]> {
  if (workspaces !== '*' && workspaces.length === 0) return [];
  let query = db.selectFrom('data_systems').selectAll().where('deleted_at', 'is', null);
  if (workspaces !== '*') query = query.where('workspace_id', 'in', workspaces);
  return query.orderBy('workspace_id').orderBy('key').execute();
}

/** Sets `fields` on a live system. @returns the row as stored, or undefined when there is none. */
export async function updateSystem(
  db: Executor,
  id: string,
  fields: Updateable<DataSystemTable>,
): Promise<DataSystemRow | undefined> {
  return db
    .updateTable('data_systems')
    .set(fields)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** True when `endpointId` is a webhook endpoint of the workspace (enabled or not). */
export async function endpointInWorkspace(db: Executor, workspaceId: string, endpointId: string): Promise<boolean> {
  return (await findColumns(db, 'webhook_endpoints', ['id'], { id: endpointId, workspace_id: workspaceId })) !== undefined;
}

/** Every system's name by key in a workspace, deleted ones included (their tasks' answers still name them). */
export async function systemNames(db: Executor, workspaceId: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('data_systems').select(['key', 'name']).where('workspace_id', '=', workspaceId).execute();
  return new Map(rows.map((r) => [r.key, r.name]));
}

/** The number of live systems of a workspace (`MAX_DATA_SYSTEMS_PER_WORKSPACE`). */
export async function countLiveSystems(db: Executor, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('data_systems')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** True when a system of the workspace other than `exceptId` holds `fidesKey` (deleted systems hold none). */
export async function fidesKeyTaken(
  db: Executor,
  workspaceId: string,
  fidesKey: string,
  exceptId: string | null,
): Promise<boolean> {
  let query = db
    .selectFrom('data_systems')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('fides_key', '=', fidesKey);
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}
