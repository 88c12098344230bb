import { isSystemCategory } from '../data-categories/data-categories.fns.js';
import type { ColumnFacts, TableFacts } from './catalog.js';
import type { Collection, Field } from './dataset.types.js';
import { maskValue } from './masking.fns.js';
import type { Traversal } from './traversal.fns.js';

/** A field whose masking the column will refuse (PRODUCT §2.17): which, and why, in a sentence. */
export interface CannotMask {
  readonly field: string;
  readonly reason: string;
}

/** A column the traversal searches by with no index starting with it, and its table's row estimate (null: none yet). */
export interface Unindexed {
  readonly field: string;
  readonly estimated_rows: number | null;
}

/** One collection's warnings: what an erasure cannot write, and what the search reads without an index. */
export interface CollectionWarnings {
  readonly collection: string;
  readonly cannot_mask: readonly CannotMask[];
  readonly unindexed: readonly Unindexed[];
}

// Inputs for probing a strategy: what it writes does not depend on the value's content except
// through hmac (a different digest per value) and random_string_rewrite (random), so three
// different values tell a fixed rewrite (the same text each time) from the others.
const SAMPLES = ['sample-value-1', 'sample-value-2', 'sample-value-3'];
const PROBE_KEY = 'masking-fit-probe';

/** True when an erasure may write this field (PRODUCT §2.14): a `user.*` category, never a key or `read_only`. */
export function maskable(collection: Collection, field: Field): boolean {
  return (
    !collection.delete_rows && !field.primary_key && !field.read_only && field.data_categories.some((k) => !isSystemCategory(k))
  );
}

/**
 * Why `column` refuses what the dataset's masking of `field` writes, or null when it takes it:
 * NULL into a NOT NULL column; one fixed value (`string_rewrite`) into a UNIQUE column, which
 * the second erased row would break; a value longer than the column's length. The strategy is
 * asked for what it writes (`maskValue`), so every strategy is judged by the same code that masks.
 */
export function maskingRefusal(field: Field, column: ColumnFacts): string | null {
  const written = SAMPLES.map((v) => maskValue(field, v, PROBE_KEY));
  const first = written[0];
  if (first === null || first === undefined) {
    return column.nullable
      ? null
      : 'the column is NOT NULL and the dataset masks it with null: an erasure would be refused (use string_rewrite, random_string_rewrite or hmac)';
  }
  if (column.unique && written.every((w) => w === first))
    return 'the column is UNIQUE and the dataset rewrites every row to one fixed value: a second erased row would be refused (use random_string_rewrite or hmac)';
  const longest = Math.max(...written.map((w) => [...String(w)].length));
  if (column.length !== null && longest > column.length)
    return `the masked value has ${longest} characters and the column holds at most ${column.length} (set the field's length to ${column.length})`;
  return null;
}

/** The fields of `collection` an erasure may write (within `scope` when given) whose column refuses the masking. */
export function cannotMask(collection: Collection, table: TableFacts, scope: ((f: Field) => boolean) | null): CannotMask[] {
  return collection.fields.flatMap((f): CannotMask[] => {
    const column = table.columns.get(f.name);
    if (!column || !maskable(collection, f) || (scope !== null && !scope(f))) return [];
    const reason = maskingRefusal(f, column);
    return reason === null ? [] : [{ field: f.name, reason }];
  });
}

/** The columns the traversal searches `collection` by (identity fields and reference fields that find its rows), each once. */
export function searchedFields(traversal: Traversal, collection: string): string[] {
  const step = traversal.access.find((s) => s.collection.name === collection);
  return [...new Set((step?.criteria ?? []).map((c) => c.field))];
}

/** The searched columns with no index starting with them, with the table's row estimate. */
export function unindexed(traversal: Traversal, collection: string, table: TableFacts): Unindexed[] {
  return searchedFields(traversal, collection).flatMap((name): Unindexed[] => {
    const column = table.columns.get(name);
    return column && !column.indexed ? [{ field: name, estimated_rows: table.estimatedRows }] : [];
  });
}
