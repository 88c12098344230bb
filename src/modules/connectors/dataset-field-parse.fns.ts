import type { Field, MaskingStrategy, Reference } from './dataset.types.js';
import { type Path, ShapeReader } from './dataset-shape.fns.js';

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
/** Fides field features the connectors refuse, with why (PRODUCT §2.17: a 422 naming the key). */
const UNSUPPORTED_FIELD = {
  fields: 'nested fields are not supported: describe the column itself',
};
const UNSUPPORTED_FIELD_META = {
  custom_request_field: 'custom_request_field is not supported (the service has no custom request fields)',
  return_all_elements: 'return_all_elements is for nested array fields, which are not supported',
};
/** Fides masking strategies the connectors apply (`null_rewrite` is Fides' name of `null`). */
const MASKING = ['null', 'null_rewrite', 'string_rewrite', 'random_string_rewrite', 'hmac'];

/** The largest field list entries: references per field, categories per field. */
export const FIELD_LIMITS = { references: 20, categories: 20 };

/** Reads one field of a collection (Fides `DatasetField`), its loc `at`. */
export function readField(r: ShapeReader, value: unknown, at: Path, fidesKey: string): Field {
  const record = r.object(value, at, FIELD_KEYS, UNSUPPORTED_FIELD) ?? {};
  const name = r.name(record.name, [...at, 'name']);
  const categories = r.names(record.data_categories, [...at, 'data_categories'], FIELD_LIMITS.categories);
  const metaAt = [...at, 'fides_meta'];
  const meta =
    record.fides_meta === undefined || record.fides_meta === null
      ? {}
      : (r.object(record.fides_meta, metaAt, FIELD_META_KEYS, UNSUPPORTED_FIELD_META) ?? {});
  const identity = meta.identity === undefined ? null : r.name(meta.identity, [...metaAt, 'identity'], 100);
  const references = (
    meta.references === undefined ? [] : r.list(meta.references, [...metaAt, 'references'], 0, FIELD_LIMITS.references)
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

/** `format_preservation: {suffix}` of a rewrite's configuration; null when absent. */
function readSuffix(r: ShapeReader, value: unknown, at: Path): string | null {
  if (value === undefined || value === null) return null;
  const fp = r.object(value, at, ['suffix']) ?? {};
  return r.name(fp.suffix, [...at, 'suffix'], 100);
}

/** A field's `masking_strategy_override` (Fides `MaskingStrategyOverride`): the supported strategies and their configuration. */
function readMasking(r: ShapeReader, value: unknown, at: Path): MaskingStrategy | null {
  const record = r.object(value, at, ['strategy', 'configuration']);
  if (!record) return null;
  if (typeof record.strategy !== 'string' || !MASKING.includes(record.strategy)) {
    r.problem([...at, 'strategy'], `strategy should be one of ${MASKING.join(', ')}`);
    return null;
  }
  const configAt = [...at, 'configuration'];
  const config = (keys: string[]) =>
    record.configuration === undefined || record.configuration === null
      ? {}
      : (r.object(record.configuration, configAt, keys) ?? {});
  switch (record.strategy) {
    case 'string_rewrite': {
      const c = config(['rewrite_value', 'format_preservation']);
      if (typeof c.rewrite_value !== 'string' || c.rewrite_value.length > 1000)
        r.problem([...configAt, 'rewrite_value'], 'rewrite_value should be a string of at most 1000 characters');
      const suffix = readSuffix(r, c.format_preservation, [...configAt, 'format_preservation']);
      return { strategy: 'string_rewrite', rewrite_value: String(c.rewrite_value ?? ''), suffix };
    }
    case 'random_string_rewrite': {
      const c = config(['length', 'format_preservation']);
      const length = r.integer(c.length, [...configAt, 'length'], 1, 255) ?? 30;
      return {
        strategy: 'random_string_rewrite',
        length,
        suffix: readSuffix(r, c.format_preservation, [...configAt, 'format_preservation']),
      };
    }
    case 'hmac': {
      const c = config(['algorithm']);
      if (c.algorithm !== undefined && c.algorithm !== 'SHA-256')
        r.problem([...configAt, 'algorithm'], 'only SHA-256 is supported');
      return { strategy: 'hmac' };
    }
    default:
      config([]);
      return { strategy: 'null' };
  }
}
