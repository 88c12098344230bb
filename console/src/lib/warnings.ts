// What a database's Test or Preview says a deletion could not do well (PRODUCT §2.17): per
// collection, the fields a masking cannot write (`cannot_mask`) and the searched columns without an
// index (`unindexed`). The API adds them; until its schema names them they are read wherever an
// answer carries them (`collections[]`, `statements[]` or `warnings[]`), by collection name.
import type { CollectionWarnings } from '../api/types.js';

/**
 * A collection as Test or Preview may name it, with the warnings the API adds (PRODUCT §2.17); a
 * warning list that is null means the check could not be made (the database's catalog was not read).
 */
type Warned = { [K in keyof CollectionWarnings]?: CollectionWarnings[K] | null } & { name?: string; collection?: string };

/** The items of whichever list the answer carries its collections in. */
function itemsOf(answer: unknown): Warned[] {
  const lists = answer as { collections?: unknown; statements?: unknown; warnings?: unknown };
  return [lists.collections, lists.statements, lists.warnings].flatMap((list) => (Array.isArray(list) ? (list as Warned[]) : []));
}

/** Each field once (a preview may repeat a collection's warnings on each of its statements). */
function onceByField<T extends { field: string }>(items: T[]): T[] {
  return [...new Map(items.map((item) => [item.field, item])).values()];
}

/** The collections with a warning, from whichever list the answer carries them in. */
export function warnedCollections(answer: unknown): { name: string; warnings: CollectionWarnings }[] {
  const items = itemsOf(answer);
  const byName = new Map<string, CollectionWarnings>();
  for (const item of items) {
    const name = item.name ?? item.collection;
    if (!name || !(item.cannot_mask?.length || item.unindexed?.length)) continue;
    const seen = byName.get(name) ?? {};
    byName.set(name, {
      cannot_mask: onceByField([...(seen.cannot_mask ?? []), ...(item.cannot_mask ?? [])]),
      unindexed: onceByField([...(seen.unindexed ?? []), ...(item.unindexed ?? [])]),
    });
  }
  return [...byName].map(([name, warnings]) => ({ name, warnings }));
}

/**
 * The collections whose checks could not be made (`cannot_mask` or `unindexed` null: the catalog was
 * not read, or the database not reached), each once: shown as not checked, never as fine.
 */
export function uncheckedCollections(answer: unknown): string[] {
  const names = itemsOf(answer)
    .filter((item) => item.cannot_mask === null || item.unindexed === null)
    .map((item) => item.name ?? item.collection)
    .filter((name): name is string => typeof name === 'string');
  return [...new Set(names)];
}
