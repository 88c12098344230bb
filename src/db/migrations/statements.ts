import type { Expression, Kysely } from 'kysely';
import type { Column } from './columns.js';

/**
 * Schema statements the migrations run once per item of a list, in the order given. Like
 * columns.ts, frozen with the migrations that use them: never change what one runs, add a new one.
 */

/**
 * `ALTER TABLE table ADD COLUMN …`, one statement per column in the order given (SQLite adds one
 * column per statement).
 */
export async function addColumns(db: Kysely<any>, table: string, columns: Column[]): Promise<void> {
  for (const [name, type, constraint] of columns) {
    const alter = db.schema.alterTable(table);
    await (constraint ? alter.addColumn(name, type, constraint) : alter.addColumn(name, type)).execute();
  }
}

/** `ALTER TABLE table DROP COLUMN …`, one statement per column in the order given. */
export async function dropColumns(db: Kysely<any>, table: string, columns: string[]): Promise<void> {
  for (const column of columns) await db.schema.alterTable(table).dropColumn(column).execute();
}

/** `DROP TABLE …`, one statement per table in the order given. */
export async function dropTables(db: Kysely<any>, tables: string[]): Promise<void> {
  for (const table of tables) await db.schema.dropTable(table).execute();
}

/** `DROP INDEX …`, one statement per index in the order given. */
export async function dropIndexes(db: Kysely<any>, indexes: string[]): Promise<void> {
  for (const index of indexes) await db.schema.dropIndex(index).execute();
}

/** An index as {@link createIndexes} creates it: name, table, and its columns (an expression where one is `sql`). */
export type Index = [name: string, table: string, columns: (string | Expression<unknown>)[]];

/** `CREATE INDEX name ON table (…)` for each index in the order given, its columns in order. */
export async function createIndexes(db: Kysely<any>, indexes: Index[]): Promise<void> {
  for (const [name, table, columns] of indexes) {
    let index = db.schema.createIndex(name).on(table);
    for (const column of columns) index = typeof column === 'string' ? index.column(column) : index.expression(column);
    await index.execute();
  }
}
