import { readCatalog } from './catalog.js';
import type { Dataset, Field } from './dataset.types.js';
import { type CannotMask, cannotMask, type CollectionWarnings, type Unindexed, unindexed } from './masking-fit.fns.js';
import type { SqlSession } from './sql-session.js';
import type { Traversal } from './traversal.fns.js';

/** A collection's warnings; null lists where its table could not be looked at (missing, or the catalog not readable). */
export interface CollectionCheck {
  readonly cannot_mask: readonly CannotMask[] | null;
  readonly unindexed: readonly Unindexed[] | null;
}

/**
 * What the database's own rules say of a dataset (PRODUCT §2.17, `…/test` and `…/preview`): per
 * collection, the fields whose masking a NOT NULL, UNIQUE or length rule would refuse
 * (`scope`: only the fields a given request writes; null: every field an erasure may write) and
 * the searched columns without an index. Reads the catalog once; writes nothing.
 * @returns by collection name; null when the catalog could not be read (a system that could not
 * look never says "nothing to warn of").
 */
export async function datasetChecks(
  session: SqlSession,
  dataset: Dataset,
  traversal: Traversal,
  scope: ((field: Field) => boolean) | null,
): Promise<Map<string, CollectionCheck> | null> {
  let catalog;
  try {
    catalog = await readCatalog(session, dataset.schema);
  } catch {
    return null;
  }
  const checks = new Map<string, CollectionCheck>();
  for (const c of dataset.collections) {
    const table = catalog.get(c.name);
    checks.set(
      c.name,
      table
        ? { cannot_mask: cannotMask(c, table, scope), unindexed: unindexed(traversal, c.name, table) }
        : { cannot_mask: null, unindexed: null },
    );
  }
  return checks;
}

/**
 * The warnings a preview shows (PRODUCT §2.17): the collections with something to warn of, in
 * dataset order. @returns null when the catalog could not be read.
 */
export async function previewWarnings(
  session: SqlSession,
  dataset: Dataset,
  traversal: Traversal,
  scope: ((field: Field) => boolean) | null,
): Promise<CollectionWarnings[] | null> {
  const checks = await datasetChecks(session, dataset, traversal, scope);
  if (checks === null) return null;
  return [...checks].flatMap(([collection, check]): CollectionWarnings[] => {
    const cannot = check.cannot_mask ?? [];
    const slow = check.unindexed ?? [];
    return cannot.length + slow.length === 0 ? [] : [{ collection, cannot_mask: cannot, unindexed: slow }];
  });
}
