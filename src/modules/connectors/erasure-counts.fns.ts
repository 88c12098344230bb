/** Rows masked and deleted in one collection. */
export interface CollectionCounts {
  masked: number;
  deleted: number;
}

/**
 * What an erasure did (PRODUCT §2.14): rows masked/deleted per collection (the report's
 * `systems.<key>.collections`) and rows per category (the task result's `erased`).
 */
export interface ErasureCounts {
  readonly collections: Readonly<Record<string, CollectionCounts>>;
  readonly erased: Readonly<Record<string, number>>;
}

/** No erasure yet. */
export const NO_ERASURE: ErasureCounts = { collections: {}, erased: {} };

/**
 * `counts` plus one committed write: `rows` rows of `collection` deleted (`operation: delete`) or
 * masked (`update`), each counted under every category the write touched. A collection written
 * with 0 rows is listed with zeros (it was looked at).
 */
export function countWrite(
  counts: ErasureCounts,
  write: { collection: string; operation: 'update' | 'delete'; categories: readonly string[] },
  rows: number,
): ErasureCounts {
  const add: CollectionCounts = write.operation === 'delete' ? { masked: 0, deleted: rows } : { masked: rows, deleted: 0 };
  return addErasureCounts(counts, {
    collections: { [write.collection]: add },
    erased: Object.fromEntries(write.categories.map((k) => [k, rows])),
  });
}

/**
 * Two erasures' counts added: a run resumed after an interruption reports what the earlier run
 * committed and what it did itself (PRODUCT §2.17). Collections and categories of either appear.
 */
export function addErasureCounts(a: ErasureCounts, b: ErasureCounts): ErasureCounts {
  const collections: Record<string, CollectionCounts> = {};
  for (const part of [a.collections, b.collections])
    for (const [name, c] of Object.entries(part)) {
      const sum = collections[name] ?? { masked: 0, deleted: 0 };
      collections[name] = { masked: sum.masked + c.masked, deleted: sum.deleted + c.deleted };
    }
  const erased: Record<string, number> = {};
  for (const part of [a.erased, b.erased]) for (const [k, n] of Object.entries(part)) erased[k] = (erased[k] ?? 0) + n;
  return { collections, erased };
}

/**
 * Reads stored counts (a task's `run_progress`): the shape {@link addErasureCounts} wrote, with
 * non-negative integer counts. @returns null for anything else (nothing is added then).
 */
export function readErasureCounts(json: string | null): ErasureCounts | null {
  if (json === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isRecord(value) || !isRecord(value.collections) || !isRecord(value.erased)) return null;
  const collections = Object.entries(value.collections);
  if (!collections.every(([, c]) => isRecord(c) && isCount(c.masked) && isCount(c.deleted))) return null;
  if (!Object.values(value.erased).every(isCount)) return null;
  return { collections: value.collections as Record<string, CollectionCounts>, erased: value.erased as Record<string, number> };
}
