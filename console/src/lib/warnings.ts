// What a database's Test or Preview says a deletion could not do well (PRODUCT §2.17): per
// collection, the fields a masking cannot write (`cannot_mask`) and the searched columns without an
// index (`unindexed`). The API adds them; until its schema names them they are read wherever an
// answer carries them (`collections[]`, `statements[]` or `warnings[]`), by collection name.
import type { CollectionWarnings } from '../api/types.js';

/** A collection as Test or Preview may name it, with the warnings the API adds (PRODUCT §2.17). */
type Warned = CollectionWarnings & { name?: string; collection?: string };

/** Each field once (a preview may repeat a collection's warnings on each of its statements). */
function onceByField<T extends { field: string }>(items: T[]): T[] {
  return [...new Map(items.map((item) => [item.field, item])).values()];
}

/** The collections with a warning, from whichever list the answer carries them in. */
export function warnedCollections(answer: unknown): { name: string; warnings: CollectionWarnings }[] {
  const lists = answer as { collections?: unknown; statements?: unknown; warnings?: unknown };
  const items = [lists.collections, lists.statements, lists.warnings].flatMap((list) =>
    Array.isArray(list) ? (list as Warned[]) : [],
  );
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
