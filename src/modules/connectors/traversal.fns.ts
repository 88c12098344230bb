import type { Collection, Dataset } from './dataset.types.js';

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

/** The traversal of a dataset (PRODUCT §2.14): access order with each step's conditions, and the erase order. */
export interface Traversal {
  readonly access: readonly CollectionStep[];
  /** Collection names: children first (the reverse of access), then `erase_after` honoured. */
  readonly erase: readonly string[];
}

/** A data edge: values of `from.fromField` find rows of `to` by `toField`. */
interface Edge {
  readonly from: string;
  readonly fromField: string;
  readonly to: string;
  readonly toField: string;
}

/**
 * Identities the service can supply for a subject (PRODUCT §2.14, §2.17): `email`, `username`,
 * `phone_number` (a request by phone) and `<provider>_id` of each linked account (the request's
 * own identity among them).
 */
export function isServiceIdentity(name: string): boolean {
  return name === 'email' || name === 'username' || name === 'phone_number' || /^[a-z0-9][a-z0-9_-]*_id$/.test(name);
}

/** The data edges of the references (Fides: `from` flows into this field, `to` out of it, none both ways). */
export function dataEdges(dataset: Dataset): Edge[] {
  const edges: Edge[] = [];
  for (const c of dataset.collections)
    for (const f of c.fields)
      for (const ref of f.references) {
        if (ref.direction !== 'to') edges.push({ from: ref.collection, fromField: ref.field, to: c.name, toField: f.name });
        if (ref.direction !== 'from') edges.push({ from: c.name, fromField: f.name, to: ref.collection, toField: ref.field });
      }
  return edges.filter((e) => e.from !== e.to);
}

/** Breadth-first distance of each collection from a collection with a seeded identity field; absent: unreachable. */
export function distances(dataset: Dataset, seeded: (identity: string) => boolean): Map<string, number> {
  const depth = new Map<string, number>();
  let frontier = dataset.collections
    .filter((c) => c.fields.some((f) => f.identity !== null && seeded(f.identity)))
    .map((c) => c.name);
  for (const name of frontier) depth.set(name, 0);
  const edges = dataEdges(dataset);
  for (let d = 1; frontier.length > 0; d++) {
    const next = edges.filter((e) => frontier.includes(e.from) && !depth.has(e.to)).map((e) => e.to);
    for (const name of next) depth.set(name, d);
    frontier = [...new Set(next)];
  }
  return depth;
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
 * The traversal of a dataset whose collections are all reachable (checked by `checkDataset`):
 * access runs each collection after the collections nearer an identity that lead to it and after
 * its `after` list; its rows are those whose identity fields hold a supplied identity or whose
 * fields hold a value found in an earlier collection. Erasure runs children first (the reverse of
 * access, so a run stopped half-way still finds every row again: the identities are erased last),
 * with `erase_after` honoured. @throws Error on a cycle (the checks report it first).
 */
export function buildTraversal(dataset: Dataset, seeded: (identity: string) => boolean = isServiceIdentity): Traversal {
  const depth = distances(dataset, seeded);
  const names = dataset.collections.map((c) => c.name).filter((n) => depth.has(n));
  const position = (n: string) => dataset.collections.findIndex((c) => c.name === n);
  const edges = dataEdges(dataset).filter((e) => depth.has(e.from) && depth.has(e.to));
  const dataPairs = edges
    .filter((e) => (depth.get(e.from) as number) < (depth.get(e.to) as number))
    .map((e) => [e.from, e.to] as const);
  const afterPairs = dataset.collections.flatMap((c) => c.after.map((a) => [a, c.name] as const));
  const access = orderWith(names, [...dataPairs, ...afterPairs], (n) => (depth.get(n) as number) * 10_000 + position(n));
  if ('cycle' in access) throw new Error(`access order has a cycle through ${access.cycle.join(', ')}`);
  const rankAccess = new Map(access.order.map((n, i) => [n, i]));
  const erasePairs = dataset.collections.flatMap((c) => c.erase_after.map((a) => [a, c.name] as const));
  const erase = orderWith(names, erasePairs, (n) => -(rankAccess.get(n) as number));
  if ('cycle' in erase) throw new Error(`erase order has a cycle through ${erase.cycle.join(', ')}`);
  const steps = access.order.map((name): CollectionStep => {
    const collection = dataset.collections.find((c) => c.name === name) as Collection;
    const identities = collection.fields
      .filter((f) => f.identity !== null && seeded(f.identity))
      .map((f): Criterion => ({ field: f.name, source: { identity: f.identity as string } }));
    const earlier = edges
      .filter((e) => e.to === name && (rankAccess.get(e.from) as number) < (rankAccess.get(name) as number))
      .map((e): Criterion => ({ field: e.toField, source: { collection: e.from, field: e.fromField } }));
    return { collection, criteria: [...identities, ...earlier] };
  });
  return { access: steps, erase: erase.order };
}
