import type { Dataset } from './dataset.types.js';

/**
 * One reference of a dataset as a graph edge (Ethyca Fides `graph.Edge` / `BidirectionalEdge`):
 * values of `from.fromField` find rows of `to` by `toField`. A `directed` edge always points that
 * way (`direction: from` or `to`); an undirected one (no direction) points away from whichever end
 * the traversal visits first.
 */
export interface GraphEdge {
  readonly from: string;
  readonly fromField: string;
  readonly to: string;
  readonly toField: string;
  readonly directed: boolean;
}

/** A parent → child pair of the traversal: `child.childField IN (values of parent.parentField)`. */
export interface ParentEdge {
  readonly parent: string;
  readonly parentField: string;
  readonly child: string;
  readonly childField: string;
}

/**
 * The edges of a dataset's references, each once (Fides keeps a set): `direction: from` on field
 * `c.f` referencing `p.g` is `p.g → c.f`; `to` is `c.f → p.g`; no direction is one undirected edge.
 * References between two fields of one collection are dropped (Fides refuses them).
 */
export function graphEdges(dataset: Dataset): GraphEdge[] {
  const seen = new Map<string, GraphEdge>();
  const add = (e: GraphEdge) => {
    const ends = [`${e.from}.${e.fromField}`, `${e.to}.${e.toField}`];
    const key = e.directed ? `>${ends.join('>')}` : `-${ends.sort().join('-')}`;
    if (e.from !== e.to && !seen.has(key)) seen.set(key, e);
  };
  for (const c of dataset.collections)
    for (const f of c.fields)
      for (const ref of f.references) {
        const here = { collection: c.name, field: f.name };
        const there = { collection: ref.collection, field: ref.field };
        const [a, b] = ref.direction === 'from' ? [there, here] : [here, there];
        add({ from: a.collection, fromField: a.field, to: b.collection, toField: b.field, directed: ref.direction !== null });
      }
  return [...seen.values()];
}

/** The collections an edge lets the traversal go to from `name` (a directed edge only forwards). */
function nextFrom(edges: readonly GraphEdge[], name: string): string[] {
  return edges.flatMap((e) => (e.from === name ? [e.to] : !e.directed && e.to === name ? [e.from] : []));
}

/**
 * Breadth-first distance of each collection from the seeded ones (a collection with a field whose
 * identity is seeded), following directed edges forwards and undirected ones both ways; absent:
 * unreachable.
 */
export function distances(dataset: Dataset, seeded: (identity: string) => boolean): Map<string, number> {
  const depth = new Map<string, number>();
  let frontier = seededCollections(dataset, seeded);
  for (const name of frontier) depth.set(name, 0);
  const edges = graphEdges(dataset);
  for (let d = 1; frontier.length > 0; d++) {
    const next = [...new Set(frontier.flatMap((n) => nextFrom(edges, n)))].filter((n) => !depth.has(n));
    for (const name of next) depth.set(name, d);
    frontier = next;
  }
  return depth;
}

/** Collections (in dataset order) with a field whose identity is seeded. */
export function seededCollections(dataset: Dataset, seeded: (identity: string) => boolean): string[] {
  return dataset.collections.filter((c) => c.fields.some((f) => f.identity !== null && seeded(f.identity))).map((c) => c.name);
}

/**
 * The order in which Fides' traversal (`BaseTraversal.traverse`, fides `src/fides/api/graph/
 * traversal.py`) first visits the collections: a queue starting with the seeded collections;
 * each visited collection discovers the collections its edges lead to that were not discovered
 * yet; a collection whose `after` names a reachable collection not visited yet waits until it
 * is. Where Fides' order depends on Python set iteration (siblings found by one collection), this
 * takes dataset order. @returns the order, or the collections left waiting on an `after` cycle.
 */
export function visitOrder(dataset: Dataset, seeded: (identity: string) => boolean): { order: string[] } | { waiting: string[] } {
  const reachable = distances(dataset, seeded);
  const position = new Map(dataset.collections.map((c, i) => [c.name, i]));
  const after = new Map(dataset.collections.map((c) => [c.name, c.after.filter((a) => reachable.has(a))]));
  const edges = graphEdges(dataset);
  const visited = new Set<string>();
  const discovered = new Set<string>();
  const ready: string[] = [];
  let waiting: string[] = [];
  const blocked = (name: string) => (after.get(name) ?? []).some((a) => !visited.has(a));
  const discover = (names: readonly string[]) => {
    const fresh = [...new Set(names)].filter((n) => !discovered.has(n) && position.has(n));
    for (const name of fresh.sort((a, b) => (position.get(a) as number) - (position.get(b) as number))) {
      discovered.add(name);
      (blocked(name) ? waiting : ready).push(name);
    }
  };
  discover(seededCollections(dataset, seeded));
  const order: string[] = [];
  while (ready.length > 0 || waiting.length > 0) {
    let name = ready.shift();
    if (name === undefined) {
      name = waiting.find((n) => !blocked(n));
      if (name === undefined) return { waiting };
      waiting = waiting.filter((n) => n !== name);
    }
    visited.add(name);
    order.push(name);
    const unblocked = waiting.filter((n) => !blocked(n));
    waiting = waiting.filter((n) => blocked(n));
    ready.push(...unblocked);
    discover(nextFrom(edges, name));
  }
  return { order };
}

/**
 * The parents of each visited collection (Fides `TraversalNode.add_child`): a directed edge makes
 * its start the parent of its end whenever both are visited, whichever was visited first (Fides
 * visits the end again to add the late parent); an undirected edge makes the end visited first
 * the parent.
 */
export function parentEdges(edges: readonly GraphEdge[], order: readonly string[]): ParentEdge[] {
  const rank = new Map(order.map((n, i) => [n, i]));
  return edges.flatMap((e): ParentEdge[] => {
    const from = rank.get(e.from);
    const to = rank.get(e.to);
    if (from === undefined || to === undefined) return [];
    if (e.directed || from < to) return [{ parent: e.from, parentField: e.fromField, child: e.to, childField: e.toField }];
    return [{ parent: e.to, parentField: e.toField, child: e.from, childField: e.fromField }];
  });
}
