import type { ColumnDataType, ColumnDefinitionBuilder, CreateIndexBuilder, Kysely } from 'kysely';

/**
 * The column types and constraints the migrations share, by what they hold. Migrations run by name
 * once and must replay the same DDL forever: never change a value here, add a new name instead.
 * Portable across SQLite and PostgreSQL (both store these as text; times sort as text).
 */

/** An entity id (`req_…`, `ep_…`: a prefix and a ULID) and any column that refers to one. */
export const ID = 'varchar(40)';

/** A workspace id (1–200 characters). */
export const WORKSPACE_ID = 'varchar(200)';

/** A point in time: RFC 3339 UTC text, which sorts as it reads. */
export const TIME = 'varchar(30)';

/** A hex digest (a SHA-256's 64 characters at most): secret and token hashes, chain hashes, commit SHAs. */
export const DIGEST = 'varchar(64)';

/** `NOT NULL`. */
export const notNull = (column: ColumnDefinitionBuilder) => column.notNull();

/** `PRIMARY KEY` (a one-column key). */
export const primaryKey = (column: ColumnDefinitionBuilder) => column.primaryKey();

/**
 * `CREATE INDEX name ON table (columns)`, refined by `more` where it is unique or partial
 * (`(index) => index.unique().where(…)`).
 */
export async function createIndex(
  db: Kysely<any>,
  name: string,
  table: string,
  columns: string[],
  more: (index: CreateIndexBuilder<any>) => CreateIndexBuilder<any> = (index) => index,
): Promise<void> {
  await more(db.schema.createIndex(name).on(table).columns(columns)).execute();
}

/** A column as {@link addColumns} adds it: name, type, and its constraint where it has one. */
export type Column = [
  name: string,
  type: ColumnDataType,
  constraint?: (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder,
];
