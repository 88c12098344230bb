import type { FilterObject, Kysely, Selectable, UpdateObject } from 'kysely';
import type { Executor } from './executor.js';
import type { DB } from './schema.js';

/**
 * Columns and the values a row must hold in them, compared with `=` (`null`: `IS NULL`), all of
 * them: `WHERE (a = ? AND b IS NULL …)`. A column named with the value `undefined` is refused
 * ({@link matchOf}): Kysely would leave it out, and a lookup by a missing token hash or workspace
 * would then match any row.
 */
export type RowMatch<T extends keyof DB> = FilterObject<DB, T>;

/** The tables with a `workspace_id` column. */
export type WorkspaceTable = { [K in keyof DB]: 'workspace_id' extends keyof DB[K] ? K : never }[keyof DB] & string;

/**
 * The database seen as tables of unknown columns: Kysely cannot resolve the column types of a
 * table that is a type parameter, so the helpers build their statement on this view; their own
 * signatures keep the caller's table and row types.
 */
type Untyped = Record<string, Record<string, unknown>>;

function untyped(db: Executor): Kysely<Untyped> {
  return db as unknown as Kysely<Untyped>;
}

/**
 * `match` as the helpers' statements take it.
 * @throws TypeError when a column is named with the value `undefined` (a caller's bug; it must
 *   never widen a lookup to any row).
 */
function matchOf<T extends keyof DB & string>(table: T, match: RowMatch<T>): FilterObject<Untyped, string> {
  for (const [column, value] of Object.entries(match)) {
    if (value === undefined) throw new TypeError(`${table}.${column}: no value to match`);
  }
  return match as FilterObject<Untyped, string>;
}

/**
 * `SELECT * FROM table WHERE <match>`: the first row of `table` that matches, or undefined. For a
 * lookup by a key (an id, a workspace and a key), where at most one row matches.
 */
export async function findRow<T extends keyof DB & string>(
  db: Executor,
  table: T,
  match: RowMatch<T>,
): Promise<Selectable<DB[T]> | undefined> {
  const row = await untyped(db)
    .selectFrom(table as string)
    .selectAll()
    .where((eb) => eb.and(matchOf(table, match)))
    .executeTakeFirst();
  return row as Selectable<DB[T]> | undefined;
}

/**
 * `SELECT columns FROM table WHERE <match>`: those columns of the first row that matches, or
 * undefined (an existence check selects the key it matched).
 */
export async function findColumns<T extends keyof DB & string, C extends keyof Selectable<DB[T]> & string>(
  db: Executor,
  table: T,
  columns: readonly C[],
  match: RowMatch<T>,
): Promise<Pick<Selectable<DB[T]>, C> | undefined> {
  const row = await untyped(db)
    .selectFrom(table as string)
    .select(columns)
    .where((eb) => eb.and(matchOf(table, match)))
    .executeTakeFirst();
  return row as Pick<Selectable<DB[T]>, C> | undefined;
}

/**
 * `UPDATE table SET <set> WHERE <match>`. @returns how many rows changed (a mark set once, with
 * its column `null` in `match`, changes its row only the first time).
 */
export async function updateRows<T extends keyof DB & string>(
  db: Executor,
  table: T,
  set: UpdateObject<DB, T>,
  match: RowMatch<T>,
): Promise<bigint> {
  const result = await untyped(db)
    .updateTable(table as string)
    .set(set as UpdateObject<Untyped, string>)
    .where((eb) => eb.and(matchOf(table, match)))
    .executeTakeFirst();
  return result.numUpdatedRows;
}

/**
 * `SELECT * FROM table WHERE workspace_id IN (…) ORDER BY id`: the rows of the `workspaces`
 * (`'*'`: of every workspace, no WHERE), oldest first (ids are ULIDs); none for no workspaces.
 */
export async function listInWorkspaces<T extends WorkspaceTable>(
  db: Executor,
  table: T,
  workspaces: readonly string[] | '*',
): Promise<Selectable<DB[T]>[]> {
  if (workspaces !== '*' && workspaces.length === 0) return [];
  let query = untyped(db)
    .selectFrom(table as string)
    .selectAll()
    .orderBy('id');
  if (workspaces !== '*') query = query.where('workspace_id', 'in', [...workspaces]);
  return (await query.execute()) as Selectable<DB[T]>[];
}
