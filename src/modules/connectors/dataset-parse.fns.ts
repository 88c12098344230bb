import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { Collection, Dataset, DatasetProblem, Field, MaskingStrategy, Reference } from './dataset.types.js';
import { type Path, ShapeReader } from './dataset-shape.fns.js';

/** Descriptive keys Fides allows and the connectors ignore (they change nothing the service does). */
const DESCRIPTIVE = ['name', 'description', 'organization_fides_key', 'tags', 'meta'];
const DATASET_KEYS = ['fides_key', 'fides_meta', 'collections', ...DESCRIPTIVE];
const COLLECTION_KEYS = ['name', 'description', 'fields', 'fides_meta'];
const FIELD_KEYS = ['name', 'description', 'data_categories', 'fides_meta'];
const FIELD_META_KEYS = [
  'identity',
  'references',
  'primary_key',
  'data_type',
  'length',
  'read_only',
  'masking_strategy_override',
];
const MASKING = ['null', 'string_rewrite', 'random_string_rewrite', 'hmac'];

/**
 * The largest lists the service takes: collections, fields per collection, references per field.
 * The totals after YAML aliases (500 collections, 5 000 fields) are checked before this reads
 * anything (dataset-load.fns.ts, `DATASET_BOUNDS`).
 */
export const DATASET_LIMITS = { collections: 500, fields: 5000, references: 20, categories: 20, yamlChars: 1_000_000 };

/** What {@link parseDataset} returns: the dataset when there is no problem, and where it sits in the input. */
export interface ParsedDataset {
  readonly dataset: Dataset | null;
  readonly problems: DatasetProblem[];
  /** `[]` for a bare dataset, `['dataset', 0]` for a Fides file: locs of later checks start with it. */
  readonly prefix: Path;
  /** The dataset object as given (YAML parsed), to store and show again. */
  readonly source: Record<string, unknown> | null;
}

/**
 * Reads a Fides dataset (PRODUCT §2.14): a JSON object or a YAML (or JSON) string; a bare dataset
 * or a Fides file whose `dataset` list holds one. Only the supported subset is taken; any other
 * key is a problem naming it. The problems' `loc` is relative to the given value.
 */
export function parseDataset(input: unknown): ParsedDataset {
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
  let prefix: Path = [];
  if (isRecord(value) && Array.isArray(value.dataset)) {
    if (value.dataset.length !== 1) return failed(['dataset'], 'a Fides file here must hold exactly one dataset');
    for (const key of Object.keys(value))
      if (key !== 'dataset') reader.problem([key], `${key} is not supported here (supported: dataset)`);
    prefix = ['dataset', 0];
    value = value.dataset[0];
  }
  const record = reader.object(value, prefix, DATASET_KEYS);
  if (!record) return { dataset: null, problems: reader.problems, prefix, source: null };
  const dataset = readDataset(reader, record, prefix);
  return { dataset: reader.problems.length === 0 ? dataset : null, problems: reader.problems, prefix, source: record };
}

function failed(loc: Path, msg: string): ParsedDataset {
  return { dataset: null, problems: [{ loc, msg }], prefix: [], source: null };
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
  const collections = r
    .list(record.collections, [...at, 'collections'], 1, DATASET_LIMITS.collections)
    .map((c, i) => readCollection(r, c, [...at, 'collections', i], fidesKey));
  return { fides_key: fidesKey, schema, collections };
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

function readCollection(r: ShapeReader, value: unknown, at: Path, fidesKey: string): Collection {
  const record = r.object(value, at, COLLECTION_KEYS) ?? {};
  const name = r.name(record.name, [...at, 'name']);
  let after: string[] = [];
  let eraseAfter: string[] = [];
  let deleteRows = false;
  if (record.fides_meta !== undefined) {
    const metaAt = [...at, 'fides_meta'];
    const meta = r.object(record.fides_meta, metaAt, ['after', 'erase_after', 'masking_strategy_override']) ?? {};
    after = readAddresses(r, meta.after, [...metaAt, 'after'], fidesKey);
    eraseAfter = readAddresses(r, meta.erase_after, [...metaAt, 'erase_after'], fidesKey);
    if (meta.masking_strategy_override !== undefined) {
      const override = r.object(meta.masking_strategy_override, [...metaAt, 'masking_strategy_override'], ['strategy']);
      if (override && override.strategy !== 'delete')
        r.problem(
          [...metaAt, 'masking_strategy_override', 'strategy'],
          "a collection's masking_strategy_override supports only delete",
        );
      deleteRows = override?.strategy === 'delete';
    }
  }
  const fields = r
    .list(record.fields, [...at, 'fields'], 1, DATASET_LIMITS.fields)
    .map((f, i) => readField(r, f, [...at, 'fields', i], fidesKey));
  return { name, fields, after, erase_after: eraseAfter, delete_rows: deleteRows };
}

function readField(r: ShapeReader, value: unknown, at: Path, fidesKey: string): Field {
  const record = r.object(value, at, FIELD_KEYS) ?? {};
  const name = r.name(record.name, [...at, 'name']);
  const categories = r.names(record.data_categories, [...at, 'data_categories'], DATASET_LIMITS.categories);
  const metaAt = [...at, 'fides_meta'];
  const meta = record.fides_meta === undefined ? {} : (r.object(record.fides_meta, metaAt, FIELD_META_KEYS) ?? {});
  const identity = meta.identity === undefined ? null : r.name(meta.identity, [...metaAt, 'identity'], 100);
  const references = (
    meta.references === undefined ? [] : r.list(meta.references, [...metaAt, 'references'], 0, DATASET_LIMITS.references)
  ).map((ref, i) => readReference(r, ref, [...metaAt, 'references', i], fidesKey));
  const dataType = meta.data_type === undefined ? null : r.name(meta.data_type, [...metaAt, 'data_type'], 50);
  return {
    name,
    data_categories: categories,
    identity,
    references,
    primary_key: r.flag(meta.primary_key, [...metaAt, 'primary_key']),
    data_type: dataType,
    length: r.integer(meta.length, [...metaAt, 'length'], 1, 1_000_000),
    read_only: r.flag(meta.read_only, [...metaAt, 'read_only']),
    masking:
      meta.masking_strategy_override === undefined
        ? null
        : readMasking(r, meta.masking_strategy_override, [...metaAt, 'masking_strategy_override']),
  };
}

function readReference(r: ShapeReader, value: unknown, at: Path, fidesKey: string): Reference {
  const record = r.object(value, at, ['dataset', 'field', 'direction']) ?? {};
  const dataset = r.name(record.dataset, [...at, 'dataset'], 200);
  if (dataset && dataset !== fidesKey)
    r.problem([...at, 'dataset'], `references to another dataset are not supported (this one is ${fidesKey})`);
  const address = r.name(record.field, [...at, 'field'], 200);
  const dot = address.indexOf('.');
  if (address && (dot <= 0 || address.indexOf('.', dot + 1) !== -1))
    r.problem([...at, 'field'], 'expected <collection>.<field> (nested fields are not supported)');
  const direction = record.direction ?? null;
  if (direction !== null && direction !== 'from' && direction !== 'to')
    r.problem([...at, 'direction'], "direction should be 'from' or 'to'");
  return { collection: address.slice(0, dot), field: address.slice(dot + 1), direction: direction as Reference['direction'] };
}

function readMasking(r: ShapeReader, value: unknown, at: Path): MaskingStrategy | null {
  const record = r.object(value, at, ['strategy', 'configuration']);
  if (!record) return null;
  if (typeof record.strategy !== 'string' || !MASKING.includes(record.strategy)) {
    r.problem([...at, 'strategy'], `strategy should be one of ${MASKING.join(', ')}`);
    return null;
  }
  const configAt = [...at, 'configuration'];
  switch (record.strategy) {
    case 'string_rewrite': {
      const config = r.object(record.configuration, configAt, ['rewrite_value']) ?? {};
      if (typeof config.rewrite_value !== 'string' || config.rewrite_value.length > 1000)
        r.problem([...configAt, 'rewrite_value'], 'rewrite_value should be a string of at most 1000 characters');
      return { strategy: 'string_rewrite', rewrite_value: String(config.rewrite_value ?? '') };
    }
    case 'random_string_rewrite': {
      const config =
        record.configuration === undefined
          ? {}
          : (r.object(record.configuration, configAt, ['length', 'format_preservation']) ?? {});
      const length = r.integer(config.length, [...configAt, 'length'], 1, 255) ?? 30;
      let suffix: string | null = null;
      if (config.format_preservation !== undefined) {
        const fp = r.object(config.format_preservation, [...configAt, 'format_preservation'], ['suffix']) ?? {};
        suffix = r.name(fp.suffix, [...configAt, 'format_preservation', 'suffix'], 100);
      }
      return { strategy: 'random_string_rewrite', length, suffix };
    }
    case 'hmac':
      if (record.configuration !== undefined) {
        const config = r.object(record.configuration, configAt, ['algorithm']) ?? {};
        if (config.algorithm !== undefined && config.algorithm !== 'SHA-256')
          r.problem([...configAt, 'algorithm'], 'only SHA-256 is supported');
      }
      return { strategy: 'hmac' };
    default:
      if (record.configuration !== undefined) r.problem(configAt, 'the null strategy takes no configuration');
      return { strategy: 'null' };
  }
}
