/**
 * What differs between the target dialects (PostgreSQL; MySQL and MariaDB): identifier quoting,
 * placeholders, transaction starts. Identifiers come only from a validated dataset and are always
 * quoted here, the quote character doubled inside (PostgreSQL §4.1.1, MySQL "Schema Object Names").
 */
export interface Dialect {
  readonly name: 'postgres' | 'mysql';
  /** A quoted identifier. */
  quote(identifier: string): string;
  /** The placeholder of the `index`-th value (1-based). */
  param(index: number): string;
  /** Starts a read-only transaction (access, preview, test). */
  readonly beginReadOnly: string;
  /** Starts a read-write transaction (erasure, correction). */
  readonly beginWrite: string;
}

export const DIALECTS: Readonly<Record<'postgres' | 'mysql', Dialect>> = {
  postgres: {
    name: 'postgres',
    quote: (id) => `"${id.replaceAll('"', '""')}"`,
    param: (i) => `$${i}`,
    beginReadOnly: 'BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY',
    beginWrite: 'BEGIN',
  },
  mysql: {
    name: 'mysql',
    quote: (id) => `\`${id.replaceAll('`', '``')}\``,
    param: () => '?',
    beginReadOnly: 'START TRANSACTION READ ONLY',
    beginWrite: 'START TRANSACTION',
  },
};

/** A qualified table name: `schema.table` when the dataset names a namespace. */
export function tableName(dialect: Dialect, schema: string | null, table: string): string {
  return schema === null ? dialect.quote(table) : `${dialect.quote(schema)}.${dialect.quote(table)}`;
}
