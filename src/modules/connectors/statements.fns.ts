import type { Collection, Dataset } from './dataset.types.js';
import { type Dialect, tableName } from './sql-dialect.fns.js';

/** A parameterised statement: identifiers quoted from the dataset, every value a placeholder. */
export interface Statement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** `column IN (values)`: one condition of a lookup; conditions are OR-ed. */
export interface Condition {
  readonly column: string;
  readonly values: readonly unknown[];
}

/** Rows to change, named by the values of their key columns (the primary key, or the lookup fields). */
export interface RowKeys {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

/** How many rows one changing statement names at most (its key list). */
export const WRITE_BATCH = 500;

class Builder {
  readonly params: unknown[] = [];
  constructor(readonly dialect: Dialect) {}
  value(v: unknown): string {
    this.params.push(v);
    return this.dialect.param(this.params.length);
  }
}

function whereAny(b: Builder, conditions: readonly Condition[]): string {
  return conditions
    .filter((c) => c.values.length > 0)
    .map((c) => `${b.dialect.quote(c.column)} IN (${c.values.map((v) => b.value(v)).join(', ')})`)
    .join(' OR ');
}

function whereKeys(b: Builder, keys: RowKeys): string {
  return keys.rows
    .map((row) => `(${keys.columns.map((col, i) => `${b.dialect.quote(col)} = ${b.value(row[i])}`).join(' AND ')})`)
    .join(' OR ');
}

/**
 * `SELECT <the collection's declared fields> FROM <table> WHERE a IN (…) OR b IN (…) LIMIT cap+1`:
 * the declared fields only (never `*`), one more row than the cap so a larger match is seen.
 * @returns null when no condition has a value (nothing to look up).
 */
export function selectRows(
  dialect: Dialect,
  dataset: Dataset,
  collection: Collection,
  conditions: readonly Condition[],
  cap: number,
): Statement | null {
  if (!conditions.some((c) => c.values.length > 0)) return null;
  const b = new Builder(dialect);
  const columns = collection.fields.map((f) => dialect.quote(f.name)).join(', ');
  const where = whereAny(b, conditions);
  return {
    sql: `SELECT ${columns} FROM ${tableName(dialect, dataset.schema, collection.name)} WHERE ${where} LIMIT ${Math.trunc(cap) + 1}`,
    params: b.params,
  };
}

/** `UPDATE <table> SET a = ?, b = ? WHERE (keys = …) OR …`: the same values for every row named. */
export function updateRows(
  dialect: Dialect,
  dataset: Dataset,
  table: string,
  values: readonly (readonly [string, unknown])[],
  keys: RowKeys,
): Statement {
  const b = new Builder(dialect);
  const set = values.map(([column, value]) => `${dialect.quote(column)} = ${b.value(value)}`).join(', ');
  return { sql: `UPDATE ${tableName(dialect, dataset.schema, table)} SET ${set} WHERE ${whereKeys(b, keys)}`, params: b.params };
}

/** `DELETE FROM <table> WHERE (keys = …) OR …`. */
export function deleteRows(dialect: Dialect, dataset: Dataset, table: string, keys: RowKeys): Statement {
  const b = new Builder(dialect);
  return { sql: `DELETE FROM ${tableName(dialect, dataset.schema, table)} WHERE ${whereKeys(b, keys)}`, params: b.params };
}

/** Splits rows into batches of at most {@link WRITE_BATCH}. */
export function batches<T>(items: readonly T[], size = WRITE_BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
