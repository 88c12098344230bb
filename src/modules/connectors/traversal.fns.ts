import type { Collection, Dataset } from './dataset.types.js';
import { graphEdges, type ParentEdge, parentEdges, visitOrder } from './traversal-graph.fns.js';

export { distances, graphEdges, seededCollections } from './traversal-graph.fns.js';

/** Where a collection's query gets the values of one of its fields. */
export type Source = { readonly identity: string } | { readonly collection: string; readonly field: string };

/** One condition of a collection's query: `field IN (values of source)`; conditions are OR-ed. */
export interface Criterion {
  readonly field: string;
  readonly source: Source;
}

/** A collection in traversal order with the conditions that find its rows. */
export interface CollectionStep {
  readonly collection: Collection;
  readonly criteria: readonly Criterion[];
}

/** The traversal of a dataset (PRODUCT §2.14, §2.17): access order with each step's conditions, and the erase order. */
export interface Traversal {
  readonly access: readonly CollectionStep[];
  /** Collection names: children first (the reverse of access), then `erase_after` honoured. */
  readonly erase: readonly string[];
}

/** Why a dataset has no traversal: an `after` or reference cycle through the named collections. */
export class TraversalCycleError extends Error {
  constructor(
    readonly kind: 'after' | 'references' | 'erase_after',
    readonly collections: readonly string[],
  ) {
    super(`${kind} make${kind === 'references' ? '' : 's'} a cycle through ${collections.join(', ')}`);
    this.name = 'TraversalCycleError';
  }
}

/**
 * Identities the service can supply for a subject (PRODUCT §2.14, §2.17): `email`, `username`,
 * `phone_number` (a request by phone) and `<provider>_id` of each linked account (the request's
 * own identity among them).
 */
export function isServiceIdentity(name: string): boolean {
  return name === 'email' || name === 'username' || name === 'phone_number' || /^[a-z0-9][a-z0-9_-]*_id$/.test(name);
}

/**
 * Orders `names` so that every `before → after` pair holds, ties broken by `rank` (lower first).
 * @returns the order, or the names left on a cycle.
 */
export function orderWith(
  names: readonly string[],
  pairs: readonly (readonly [string, string])[],
  rank: (name: string) => number,
): { order: string[] } | { cycle: string[] } {
  const waiting = new Map(names.map((n) => [n, new Set<string>()]));
  for (const [before, after] of pairs) if (waiting.has(before) && before !== after) waiting.get(after)?.add(before);
  const order: string[] = [];
  while (waiting.size > 0) {
    const ready = [...waiting].filter(([, deps]) => deps.size === 0).map(([n]) => n);
    if (ready.length === 0) return { cycle: [...waiting.keys()] };
    const next = ready.sort((a, b) => rank(a) - rank(b))[0] as string;
    order.push(next);
    waiting.delete(next);
    for (const deps of waiting.values()) deps.delete(next);
  }
  return { order };
}

/**
 * The collections a traversal reads, in the order it reads them, with their parents (Fides'
 * semantics, PRODUCT §2.17): Fides' visit order ({@link visitOrder}) decides which end of an
 * undirected reference is the parent; a collection is then read after **all** its parents (and
 * its `after` list), ties in visit order. @throws TraversalCycleError.
 */
export function accessPlan(dataset: Dataset, seeded: (identity: string) => boolean): { order: string[]; parents: ParentEdge[] } {
  const visit = visitOrder(dataset, seeded);
  if ('waiting' in visit) throw new TraversalCycleError('after', visit.waiting);
  const rank = new Map(visit.order.map((n, i) => [n, i]));
  const parents = parentEdges(graphEdges(dataset), visit.order);
  const afterPairs = dataset.collections.flatMap((c) => c.after.map((a) => [a, c.name] as const));
  const dataPairs = parents.map((p) => [p.parent, p.child] as const);
  const access = orderWith(visit.order, [...dataPairs, ...afterPairs], (n) => rank.get(n) as number);
  if ('cycle' in access) {
    const onlyData = orderWith(visit.order, dataPairs, (n) => rank.get(n) as number);
    throw new TraversalCycleError('cycle' in onlyData ? 'references' : 'after', access.cycle);
  }
  return { order: access.order, parents };
}

/**
 * The traversal of a dataset for one request (PRODUCT §2.14, §2.17; Ethyca Fides `graph/traversal.py`),
 * seeded by the identities the request has (`seeded`; at registration every identity the service
 * could supply). A collection that several collections reference is read after all of them and
 * found by all their values: its criteria are its seeded identity fields and one `field IN (values
 * of parent.field)` per parent edge, OR-ed, so its rows are the union of every path's. Erasure runs
 * children first (the reverse of access, so a run stopped half-way still finds every row again:
 * the identities are erased last), with `erase_after` honoured. Collections no seeded identity
 * reaches are not in it. @throws TraversalCycleError (the registration checks report it first).
 */
export function buildTraversal(dataset: Dataset, seeded: (identity: string) => boolean = isServiceIdentity): Traversal {
  const { order, parents } = accessPlan(dataset, seeded);
  const rankAccess = new Map(order.map((n, i) => [n, i]));
  const erasePairs = dataset.collections.flatMap((c) => c.erase_after.map((a) => [a, c.name] as const));
  const erase = orderWith(order, erasePairs, (n) => -(rankAccess.get(n) as number));
  if ('cycle' in erase) throw new TraversalCycleError('erase_after', erase.cycle);
  const steps = order.map((name): CollectionStep => {
    const collection = dataset.collections.find((c) => c.name === name) as Collection;
    const identities = collection.fields
      .filter((f) => f.identity !== null && seeded(f.identity))
      .map((f): Criterion => ({ field: f.name, source: { identity: f.identity as string } }));
    const fromParents = parents
      .filter((p) => p.child === name)
      .sort((a, b) => (rankAccess.get(a.parent) as number) - (rankAccess.get(b.parent) as number))
      .map((p): Criterion => ({ field: p.childField, source: { collection: p.parent, field: p.parentField } }));
    return { collection, criteria: [...identities, ...fromParents] };
  });
  return { access: steps, erase: erase.order };
}
