import { isSystemCategory, withinScope } from '../data-categories/data-categories.fns.js';
import type { Collection, Dataset, Field } from './dataset.types.js';
import { maskValue } from './masking.fns.js';
import type { ReadResult } from './read-pass.js';
import type { Dialect } from './sql-dialect.fns.js';
import type { Row } from './sql-session.js';
import { batches, deleteRows, type RowKeys, type Statement, updateRows } from './statements.fns.js';
import type { Traversal } from './traversal.fns.js';

/** One collection's writes, run in one transaction. */
export interface CollectionWrite {
  readonly collection: string;
  readonly operation: 'update' | 'delete';
  /** Each statement with the number of rows its WHERE names. */
  readonly statements: readonly (Statement & { readonly rows: number })[];
  /** Rows the writes name (found by the access pass). */
  readonly rows: number;
  /** The `user.*` categories of the fields written (or of the deleted rows' fields in scope). */
  readonly categories: readonly string[];
}

/** True when one of the field's categories (not `system.*`) is within the scope. */
export function fieldInScope(field: Field, scope: readonly string[]): boolean {
  return field.data_categories.some((c) => !isSystemCategory(c) && withinScope(scope, c));
}

/** A field an erasure or correction may write: never a primary key or a `read_only` field. */
const writable = (f: Field) => !f.primary_key && !f.read_only;

/**
 * The keys naming each found row: the primary key when the dataset declares one (all its
 * columns), else the first lookup column that holds a value in the row (grouped by column).
 */
function rowKeys(collection: Collection, rows: readonly Row[], lookupColumns: readonly string[]): RowKeys[] {
  const pk = collection.fields.filter((f) => f.primary_key).map((f) => f.name);
  if (pk.length > 0) return [{ columns: pk, rows: rows.map((r) => pk.map((c) => r[c])) }];
  const groups = new Map<string, unknown[][]>();
  for (const row of rows) {
    const column = lookupColumns.find((c) => row[c] !== null && row[c] !== undefined);
    if (column) groups.set(column, [...(groups.get(column) ?? []), [row[column]]]);
  }
  return [...groups].map(([column, values]) => ({ columns: [column], rows: values }));
}

function keyBatches(keys: RowKeys[]): RowKeys[] {
  return keys.flatMap((k) => batches(k.rows).map((rows) => ({ columns: k.columns, rows })));
}

/** Rows grouped by the values their writes set, so rows with equal values (the `null` and `string_rewrite` strategies) share statements. */
function groupBySet(
  rows: readonly Row[],
  set: (row: Row) => [string, unknown][],
): { values: [string, unknown][]; rows: Row[] }[] {
  const groups = new Map<string, { values: [string, unknown][]; rows: Row[] }>();
  for (const row of rows) {
    const values = set(row);
    const key = JSON.stringify(values);
    const group = groups.get(key) ?? { values, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function updates(
  dialect: Dialect,
  dataset: Dataset,
  c: Collection,
  rows: readonly Row[],
  lookups: readonly string[],
  set: (row: Row) => [string, unknown][],
): (Statement & { rows: number })[] {
  return groupBySet(rows, set).flatMap((g) =>
    keyBatches(rowKeys(c, g.rows, lookups)).map((keys) => ({
      ...updateRows(dialect, dataset, c.name, g.values, keys),
      rows: keys.rows.length,
    })),
  );
}

/**
 * The erasure's writes (PRODUCT §2.14), collection by collection in erase order: a collection
 * that says `masking_strategy_override: delete` loses its found rows when one of its fields is in
 * scope; otherwise its in-scope fields (never primary keys, `read_only` or `system.*`-only
 * fields) are masked by their strategy (`maskValue`) in every found row.
 */
export function planErasure(
  dialect: Dialect,
  dataset: Dataset,
  traversal: Traversal,
  read: ReadResult,
  scope: readonly string[],
  hmacKey: string,
): CollectionWrite[] {
  return traversal.erase.flatMap((name): CollectionWrite[] => {
    const c = dataset.collections.find((x) => x.name === name) as Collection;
    const rows = read.rows.get(name) ?? [];
    const inScope = c.fields.filter((f) => fieldInScope(f, scope));
    const lookups = (read.conditions.get(name) ?? []).map((l) => l.column);
    const categories = [
      ...new Set(inScope.flatMap((f) => f.data_categories.filter((k) => !isSystemCategory(k) && withinScope(scope, k)))),
    ];
    if (rows.length === 0 || inScope.length === 0) return [];
    if (c.delete_rows) {
      const statements = keyBatches(rowKeys(c, rows, lookups)).map((keys) => ({
        ...deleteRows(dialect, dataset, c.name, keys),
        rows: keys.rows.length,
      }));
      return [{ collection: name, operation: 'delete', statements, rows: rows.length, categories }];
    }
    const masked = inScope.filter(writable);
    if (masked.length === 0) return [];
    const set = (row: Row) =>
      masked
        .filter((f) => row[f.name] !== null && row[f.name] !== undefined)
        .map((f): [string, unknown] => [f.name, maskValue(f, row[f.name], hmacKey)]);
    const targets = rows.filter((r) => set(r).length > 0);
    if (targets.length === 0) return [];
    const written = [
      ...new Set(masked.flatMap((f) => f.data_categories.filter((k) => !isSystemCategory(k) && withinScope(scope, k)))),
    ];
    return [
      {
        collection: name,
        operation: 'update',
        statements: updates(dialect, dataset, c, targets, lookups, set),
        rows: targets.length,
        categories: written,
      },
    ];
  });
}

/**
 * The correction's writes (PRODUCT §2.14, GDPR Art. 16): every writable field labelled with a
 * corrected category (exactly that key) is set to the corrected value in every found row.
 */
export function planCorrection(
  dialect: Dialect,
  dataset: Dataset,
  traversal: Traversal,
  read: ReadResult,
  corrections: Readonly<Record<string, string>>,
): CollectionWrite[] {
  return traversal.erase.flatMap((name): CollectionWrite[] => {
    const c = dataset.collections.find((x) => x.name === name) as Collection;
    const rows = read.rows.get(name) ?? [];
    const fields = c.fields.filter((f) => writable(f) && f.data_categories.some((k) => k in corrections));
    if (rows.length === 0 || fields.length === 0) return [];
    const values = fields.map((f): [string, unknown] => [
      f.name,
      corrections[f.data_categories.find((k) => k in corrections) as string],
    ]);
    const lookups = (read.conditions.get(name) ?? []).map((l) => l.column);
    return [
      {
        collection: name,
        operation: 'update',
        statements: updates(dialect, dataset, c, rows, lookups, () => values),
        rows: rows.length,
        categories: [...new Set(fields.flatMap((f) => f.data_categories.filter((k) => k in corrections)))],
      },
    ];
  });
}
