import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { Collection, Dataset, DatasetProblem } from './dataset.types.js';
import { FIELD_LIMITS, readField } from './dataset-field-parse.fns.js';
import { type Path, ShapeReader } from './dataset-shape.fns.js';

/** Descriptive keys Fides allows and the connectors ignore (they change nothing the service does; PRODUCT §2.17). */
const DESCRIPTIVE = ['name', 'description', 'organization_fides_key', 'tags', 'meta', 'data_categories'];
const DATASET_KEYS = ['fides_key', 'fides_meta', 'collections', ...DESCRIPTIVE];
const COLLECTION_KEYS = ['name', 'description', 'fields', 'fides_meta'];
const COLLECTION_META_KEYS = ['after', 'erase_after', 'masking_strategy_override', 'skip_processing'];
/** Fides collection features the connectors refuse, with why (PRODUCT §2.17: a 422 naming the key). */
const UNSUPPORTED_COLLECTION_META = {
  partitioning: 'partitioning is not supported (it is for BigQuery tables)',
};

/**
 * The largest lists the service takes: collections, fields per collection, references per field.
 * The totals after YAML aliases (500 collections, 5 000 fields) are checked before this reads
 * anything (dataset-load.fns.ts, `DATASET_BOUNDS`).
 */
export const DATASET_LIMITS = { collections: 500, fields: 5000, ...FIELD_LIMITS, yamlChars: 1_000_000 };

/** What {@link parseDataset} returns: the dataset when there is no problem, and where it sits in the input. */
export interface ParsedDataset {
  readonly dataset: Dataset | null;
  readonly problems: DatasetProblem[];
  /** `[]` for a bare dataset, `['dataset', i]` for a Fides file (its chosen dataset): locs of later checks start with it. */
  readonly prefix: Path;
  /** The dataset object as given (YAML parsed), to store and show again. */
  readonly source: Record<string, unknown> | null;
}

/**
 * Reads a Fides dataset (PRODUCT §2.14, §2.17): a JSON object or a YAML (or JSON) string; a bare
 * dataset or a Fides file whose `dataset` list holds one or more (`datasetKey`, the body's
 * `dataset_key`, chooses one by its `fides_key`; required when there are several). Only the
 * supported subset is taken; any other key is a problem naming it. The problems' `loc` is relative
 * to the given value (a `dataset_key` problem's to the body: `root: 'body'`).
 */
export function parseDataset(input: unknown, datasetKey?: string): ParsedDataset {
  let value = input;
  if (typeof input === 'string') {
    if (input.length > DATASET_LIMITS.yamlChars)
      return failed([], `the dataset text is longer than ${DATASET_LIMITS.yamlChars} characters`);
    try {
      value = parseYaml(input, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: false });
    } catch (error) {
      const line = error instanceof YAMLParseError && error.linePos ? ` (line ${error.linePos[0].line})` : '';
      return failed([], `the dataset is not valid YAML or JSON${line}`);
    }
  }
  const reader = new ShapeReader();
  const chosen = chooseDataset(reader, value, datasetKey);
  if ('problem' in chosen) return { dataset: null, problems: [chosen.problem], prefix: [], source: null };
  const { prefix } = chosen;
  const record = reader.object(chosen.value, prefix, DATASET_KEYS);
  if (!record) return { dataset: null, problems: reader.problems, prefix, source: null };
  const dataset = readDataset(reader, record, prefix);
  if (datasetKey !== undefined && dataset.fides_key !== datasetKey && reader.problems.length === 0)
    return failed(['dataset_key'], `dataset_key ${datasetKey} is not the dataset's fides_key (${dataset.fides_key})`, 'body');
  return { dataset: reader.problems.length === 0 ? dataset : null, problems: reader.problems, prefix, source: record };
}

/** The `fides_key` of each dataset of a Fides file, in order (non-strings as `?`). */
function keysOf(datasets: readonly unknown[]): string[] {
  return datasets.map((d) => (isRecord(d) && typeof d.fides_key === 'string' ? d.fides_key : '?'));
}

/**
 * The dataset a value holds: itself (bare), or the one of a Fides file's `dataset` list that
 * `datasetKey` names (the only one when it holds one). @returns it with its loc prefix, or the problem.
 */
function chooseDataset(
  reader: ShapeReader,
  value: unknown,
  datasetKey: string | undefined,
): { value: unknown; prefix: Path } | { problem: DatasetProblem } {
  if (!isRecord(value) || !Array.isArray(value.dataset)) return { value, prefix: [] };
  for (const key of Object.keys(value))
    if (key !== 'dataset') reader.problem([key], `${key} is not supported here (supported: dataset)`);
  const keys = keysOf(value.dataset);
  if (keys.length === 0) return { problem: { loc: ['dataset'], msg: 'the Fides file holds no dataset' } };
  const listed = keys.join(', ');
  if (datasetKey === undefined) {
    if (keys.length === 1) return { value: value.dataset[0], prefix: ['dataset', 0] };
    return {
      problem: { loc: [], msg: `the Fides file holds ${keys.length} datasets (${listed}): choose one with dataset_key` },
    };
  }
  const index = keys.indexOf(datasetKey);
  if (index === -1)
    return {
      problem: { loc: ['dataset_key'], msg: `dataset_key names none of the file's datasets (${listed})`, root: 'body' },
    };
  return { value: value.dataset[index], prefix: ['dataset', index] };
}

function failed(loc: Path, msg: string, root?: 'body'): ParsedDataset {
  return { dataset: null, problems: [{ loc, msg, ...(root ? { root } : {}) }], prefix: [], source: null };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readDataset(r: ShapeReader, record: Record<string, unknown>, at: Path): Dataset {
  const fidesKey = r.name(record.fides_key, [...at, 'fides_key'], 200);
  if (fidesKey && !/^[A-Za-z0-9_.<>-]+$/.test(fidesKey))
    r.problem([...at, 'fides_key'], 'fides_key may hold only letters, digits and _ . < > -');
  let schema: string | null = null;
  if (record.fides_meta !== undefined) {
    const meta = r.object(record.fides_meta, [...at, 'fides_meta'], ['namespace']);
    const namespace =
      meta?.namespace === undefined ? null : r.object(meta.namespace, [...at, 'fides_meta', 'namespace'], ['schema']);
    if (namespace?.schema !== undefined) schema = r.name(namespace.schema, [...at, 'fides_meta', 'namespace', 'schema']);
  }
  if (record.data_categories !== undefined) r.names(record.data_categories, [...at, 'data_categories'], 100);
  const all = r
    .list(record.collections, [...at, 'collections'], 1, DATASET_LIMITS.collections)
    .map((c, i) => readCollection(r, c, [...at, 'collections', i], fidesKey, i));
  return {
    fides_key: fidesKey,
    schema,
    collections: all.filter((c) => !c.skip).map((c) => c.collection),
    skipped: all.filter((c) => c.skip).map((c) => c.collection.name),
  };
}

/** `after`/`erase_after` entries are Fides collection addresses `<dataset>.<collection>` of this dataset. */
function readAddresses(r: ShapeReader, value: unknown, loc: Path, fidesKey: string): string[] {
  return r.names(value, loc, DATASET_LIMITS.collections).map((address, i) => {
    if (!address.startsWith(`${fidesKey}.`)) {
      r.problem([...loc, i], `expected ${fidesKey}.<collection>: only collections of this dataset can be named`);
      return address;
    }
    return address.slice(fidesKey.length + 1);
  });
}

/** `fides_meta.masking_strategy_override` of a collection: only `delete` (PRODUCT §2.14). @returns true for delete. */
function readCollectionMasking(r: ShapeReader, value: unknown, at: Path): boolean {
  if (value === undefined) return false;
  const override = r.object(value, at, ['strategy', 'configuration']);
  if (override && override.strategy !== 'delete')
    r.problem([...at, 'strategy'], "a collection's masking_strategy_override supports only delete");
  return override?.strategy === 'delete';
}

/** One collection (Fides `DatasetCollection`) at index `position`; `skip`: marked `fides_meta.skip_processing`. */
function readCollection(
  r: ShapeReader,
  value: unknown,
  at: Path,
  fidesKey: string,
  position: number,
): { collection: Collection; skip: boolean } {
  const record = r.object(value, at, COLLECTION_KEYS) ?? {};
  const name = r.name(record.name, [...at, 'name']);
  const metaAt = [...at, 'fides_meta'];
  const meta =
    record.fides_meta === undefined || record.fides_meta === null
      ? {}
      : (r.object(record.fides_meta, metaAt, COLLECTION_META_KEYS, UNSUPPORTED_COLLECTION_META) ?? {});
  const after = readAddresses(r, meta.after, [...metaAt, 'after'], fidesKey);
  const eraseAfter = readAddresses(r, meta.erase_after, [...metaAt, 'erase_after'], fidesKey);
  const deleteRows = readCollectionMasking(r, meta.masking_strategy_override, [...metaAt, 'masking_strategy_override']);
  const skip = r.flag(meta.skip_processing, [...metaAt, 'skip_processing']);
  const fields = r
    .list(record.fields, [...at, 'fields'], 1, DATASET_LIMITS.fields)
    .map((f, i) => readField(r, f, [...at, 'fields', i], fidesKey));
  return { collection: { name, position, fields, after, erase_after: eraseAfter, delete_rows: deleteRows }, skip };
}
