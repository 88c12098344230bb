import type { ColumnDataType, CreateTableBuilder, Kysely } from 'kysely';
import { type Column, ID, notNull, primaryKey, TIME, WORKSPACE_ID } from './columns.js';

/**
 * Column groups and table beginnings that several migrations' tables share. Frozen with the
 * migrations that use them, like columns.ts: never change what one adds, add a new name instead.
 */

/**
 * A queue row's lease with retries (a request's, a data task's): `attempts` (from 0), the worker
 * holding it (`owner`: that column's type) until when, and when to try it next.
 */
export function leaseColumns(owner: ColumnDataType): Column[] {
  return [
    ['attempts', 'integer', (c) => c.notNull().defaultTo(0)],
    ['lease_owner', owner],
    ['lease_expires_at', TIME],
    ['next_attempt_at', TIME],
  ];
}

/**
 * `CREATE TABLE name` with the first columns of a workspace's entities: `id` (the primary key),
 * the id of the `parent` the rows belong to where they belong to one (a request's data tasks, an
 * endpoint's messages), then `workspace_id`. The caller adds the rest and executes it.
 */
export function workspaceTable(db: Kysely<any>, name: string, parent?: string): CreateTableBuilder<string, string> {
  const table: CreateTableBuilder<string, string> = db.schema.createTable(name).addColumn('id', ID, primaryKey);
  return (parent ? table.addColumn(parent, ID, notNull) : table).addColumn('workspace_id', WORKSPACE_ID, notNull);
}

/**
 * `CREATE TABLE name` of a document a workspace has at most one of (its controller profile, its
 * privacy center switch): `workspace_id` is the primary key. The caller adds the rest.
 */
export function documentTable(db: Kysely<any>, name: string): CreateTableBuilder<string, string> {
  return db.schema.createTable(name).addColumn('workspace_id', WORKSPACE_ID, primaryKey);
}

/**
 * `updated_at`, `updated_by`: when a row was last written and by whom (`by`: the writer column's
 * type), both `NOT NULL`; for `table.$call(lastWrite(…))`.
 */
export function lastWrite(by: ColumnDataType) {
  return (table: CreateTableBuilder<string, string>) =>
    table.addColumn('updated_at', TIME, notNull).addColumn('updated_by', by, notNull);
}

/**
 * `CREATE TABLE name` keyed by its first columns: the `key` columns (each `NOT NULL`, in order)
 * and the primary key constraint `<name>_pkey` over them. The caller adds the other columns.
 */
export function keyedTable(
  db: Kysely<any>,
  name: string,
  key: [column: string, type: ColumnDataType][],
): CreateTableBuilder<string, string> {
  let table: CreateTableBuilder<string, string> = db.schema.createTable(name);
  for (const [column, type] of key) table = table.addColumn(column, type, notNull);
  return table.addPrimaryKeyConstraint(
    `${name}_pkey`,
    key.map(([column]) => column),
  );
}
