import { isDataCategory, isSystemCategory } from '../data-categories/data-categories.fns.js';
import type { Dataset, DatasetProblem, DatasetSummary } from './dataset.types.js';
import type { Path } from './dataset-shape.fns.js';
import { accessPlan, distances, isServiceIdentity, orderWith, TraversalCycleError } from './traversal.fns.js';

/**
 * The checks of a parsed dataset at registration and on PATCH (PRODUCT §2.14, §2.17), each problem
 * with its `loc` into the dataset (after `prefix`): duplicate names, unknown data categories,
 * references to a missing (or `skip_processing`) `collection.field`, `after`/`erase_after` naming
 * a missing collection or closing a cycle, reference cycles, and collections no supplied identity
 * reaches through references. Collections marked `skip_processing` are not checked (Fides drops them).
 */
export function checkDataset(dataset: Dataset, prefix: Path): DatasetProblem[] {
  const problems: DatasetProblem[] = [];
  const at = (...loc: (string | number)[]) => [...prefix, 'collections', ...loc];
  const fieldsOf = new Map<string, Set<string>>();
  for (const c of dataset.collections) {
    const i = c.position;
    if (fieldsOf.has(c.name)) problems.push({ loc: at(i, 'name'), msg: `collection ${c.name} is named twice` });
    const names = new Set<string>();
    c.fields.forEach((f, j) => {
      if (names.has(f.name))
        problems.push({ loc: at(i, 'fields', j, 'name'), msg: `field ${f.name} is named twice in ${c.name}` });
      names.add(f.name);
      f.data_categories.forEach((key, k) => {
        if (!isDataCategory(key))
          problems.push({
            loc: at(i, 'fields', j, 'data_categories', k),
            msg: `unknown data category ${key} (GET /api/v1/data-categories lists them)`,
          });
      });
    });
    fieldsOf.set(c.name, names);
  }
  for (const c of dataset.collections)
    c.fields.forEach((f, j) =>
      f.references.forEach((ref, k) => {
        if (fieldsOf.get(ref.collection)?.has(ref.field)) return;
        problems.push({
          loc: at(c.position, 'fields', j, 'fides_meta', 'references', k),
          msg: dataset.skipped.includes(ref.collection)
            ? `the reference names ${ref.collection}.${ref.field}, whose collection is marked skip_processing`
            : `the reference names ${ref.collection}.${ref.field}, which is not a field of this dataset`,
        });
      }),
    );
  for (const list of ['after', 'erase_after'] as const)
    for (const c of dataset.collections)
      c[list].forEach((name, k) => {
        if (!fieldsOf.has(name))
          problems.push({
            loc: at(c.position, 'fides_meta', list, k),
            msg: `${list} names ${name}, which is not a collection of this dataset`,
          });
      });
  if (problems.length > 0) return problems;
  return [...checkOrder(dataset, prefix), ...checkReach(dataset, prefix)];
}

/** The identity sets the order is checked with: every identity the service supplies, and each alone. */
function seedSets(dataset: Dataset): ((identity: string) => boolean)[] {
  const names = [
    ...new Set(dataset.collections.flatMap((c) => c.fields.flatMap((f) => (f.identity ? [f.identity] : [])))),
  ].filter(isServiceIdentity);
  return [isServiceIdentity, ...(names.length > 1 ? names.map((n) => (id: string) => id === n) : [])];
}

/** Where a cycle through `cycle` shows: the first `after` entry (or reference) of a collection on it naming another on it. */
function cycleLoc(dataset: Dataset, prefix: Path, kind: 'after' | 'erase_after' | 'references', cycle: readonly string[]): Path {
  for (const c of dataset.collections.filter((x) => cycle.includes(x.name))) {
    if (kind !== 'references') {
      const k = c[kind].findIndex((a) => cycle.includes(a));
      if (k !== -1) return [...prefix, 'collections', c.position, 'fides_meta', kind, k];
      continue;
    }
    for (const [j, f] of c.fields.entries()) {
      const k = f.references.findIndex((r) => cycle.includes(r.collection));
      if (k !== -1) return [...prefix, 'collections', c.position, 'fields', j, 'fides_meta', 'references', k];
    }
  }
  return [...prefix, 'collections'];
}

/**
 * Cycles: in `erase_after`; and in the traversal (Fides' semantics: a collection runs after all its
 * parents and its `after` list), which Fides itself cannot run either.
 */
function checkOrder(dataset: Dataset, prefix: Path): DatasetProblem[] {
  const names = dataset.collections.map((c) => c.name);
  const problems: DatasetProblem[] = [];
  const erasePairs = dataset.collections.flatMap((c) => c.erase_after.map((a) => [a, c.name] as const));
  const erase = orderWith(names, erasePairs, () => 0);
  if ('cycle' in erase)
    problems.push({
      loc: cycleLoc(dataset, prefix, 'erase_after', erase.cycle),
      msg: `erase_after makes a cycle through ${erase.cycle.join(', ')}`,
    });
  for (const seeded of seedSets(dataset)) {
    try {
      accessPlan(dataset, seeded);
    } catch (error) {
      if (!(error instanceof TraversalCycleError)) throw error;
      problems.push({
        loc: cycleLoc(dataset, prefix, error.kind, error.collections),
        msg: error.message,
      });
      break;
    }
  }
  return problems;
}

/** Every collection must be reached from a field whose identity the service supplies. */
function checkReach(dataset: Dataset, prefix: Path): DatasetProblem[] {
  const depth = distances(dataset, isServiceIdentity);
  if (depth.size === 0)
    return [
      {
        loc: [...prefix, 'collections'],
        msg: 'no field has an identity the service supplies (email, phone_number, username, <provider>_id)',
      },
    ];
  return dataset.collections.flatMap((c) =>
    depth.has(c.name)
      ? []
      : [
          {
            loc: [...prefix, 'collections', c.position],
            msg: `collection ${c.name} is not reachable from any identity field through references`,
          },
        ],
  );
}

/** What the API shows of a dataset: collection names, identities used, `user.*` categories (each once, in dataset order). */
export function summarizeDataset(dataset: Dataset): DatasetSummary {
  const fields = dataset.collections.flatMap((c) => c.fields);
  return {
    fides_key: dataset.fides_key,
    collections: dataset.collections.map((c) => c.name),
    identities: [...new Set(fields.flatMap((f) => (f.identity ? [f.identity] : [])))],
    categories: [...new Set(fields.flatMap((f) => f.data_categories.filter((k) => !isSystemCategory(k))))],
  };
}
