import { isDataCategory, isSystemCategory } from '../data-categories/data-categories.fns.js';
import type { Dataset, DatasetProblem, DatasetSummary } from './dataset.types.js';
import type { Path } from './dataset-shape.fns.js';
import { dataEdges, distances, isServiceIdentity, orderWith } from './traversal.fns.js';

/**
 * The checks of a parsed dataset at registration and on PATCH (PRODUCT §2.14), each problem with
 * its `loc` into the dataset (after `prefix`): duplicate names, unknown data categories,
 * references to a missing `collection.field`, `after`/`erase_after` naming a missing collection
 * or closing a cycle, and collections no supplied identity reaches through references.
 */
export function checkDataset(dataset: Dataset, prefix: Path): DatasetProblem[] {
  const problems: DatasetProblem[] = [];
  const at = (...loc: (string | number)[]) => [...prefix, 'collections', ...loc];
  const fieldsOf = new Map<string, Set<string>>();
  dataset.collections.forEach((c, i) => {
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
  });
  dataset.collections.forEach((c, i) =>
    c.fields.forEach((f, j) =>
      f.references.forEach((ref, k) => {
        if (!fieldsOf.get(ref.collection)?.has(ref.field))
          problems.push({
            loc: at(i, 'fields', j, 'fides_meta', 'references', k),
            msg: `the reference names ${ref.collection}.${ref.field}, which is not a field of this dataset`,
          });
      }),
    ),
  );
  for (const list of ['after', 'erase_after'] as const)
    dataset.collections.forEach((c, i) =>
      c[list].forEach((name, k) => {
        if (!fieldsOf.has(name))
          problems.push({
            loc: at(i, 'fides_meta', list, k),
            msg: `${list} names ${name}, which is not a collection of this dataset`,
          });
      }),
    );
  if (problems.length > 0) return problems;
  return [...problems, ...checkOrder(dataset, prefix), ...checkReach(dataset, prefix)];
}

/** Cycles in `after` (with the data edges it must agree with) and in `erase_after`. */
function checkOrder(dataset: Dataset, prefix: Path): DatasetProblem[] {
  const names = dataset.collections.map((c) => c.name);
  const depth = distances(dataset, isServiceIdentity);
  const forward = dataEdges(dataset)
    .filter((e) => depth.has(e.from) && depth.has(e.to) && (depth.get(e.from) as number) < (depth.get(e.to) as number))
    .map((e) => [e.from, e.to] as const);
  const problems: DatasetProblem[] = [];
  for (const [list, base] of [
    ['after', forward],
    ['erase_after', []],
  ] as const) {
    const pairs = dataset.collections.flatMap((c) => c[list].map((a) => [a, c.name] as const));
    const result = orderWith(names, [...base, ...pairs], () => 0);
    if ('cycle' in result) {
      const i = dataset.collections.findIndex(
        (c) => result.cycle.includes(c.name) && c[list].some((a) => result.cycle.includes(a)),
      );
      const collection = dataset.collections[i];
      const k = collection ? collection[list].findIndex((a) => result.cycle.includes(a)) : 0;
      problems.push({
        loc: [...prefix, 'collections', Math.max(i, 0), 'fides_meta', list, Math.max(k, 0)],
        msg: `${list} makes a cycle through ${result.cycle.join(', ')}`,
      });
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
  return dataset.collections.flatMap((c, i) =>
    depth.has(c.name)
      ? []
      : [
          {
            loc: [...prefix, 'collections', i],
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
