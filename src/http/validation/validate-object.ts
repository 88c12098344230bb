import { pydanticError as E, REDACTED, type ErrorItem, type Loc } from './error-item.js';
import { MODEL_CHECKS } from './named-checks.js';
import type { Mode, Schema, ValidateValue } from './value-schema.js';

/** A JSON object: not an array, null or a boxed value such as {@link PyFloat}. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A `type: "object"` schema without `properties` (a record): a JSON object whose every value is
 * checked with `validate` against `additionalProperties`.
 *
 * @returns a copy with the validated values.
 */
export function validateRecord(
  schema: Schema,
  value: unknown,
  loc: Loc,
  mode: Mode,
  errors: ErrorItem[],
  validate: ValidateValue,
): unknown {
  if (!isPlainObject(value)) {
    errors.push(E.dictType(loc, value));
    return value;
  }
  const valueSchema = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = validate(valueSchema, v, [...loc, key], mode, errors);
  return out;
}

/** The object as errors may show it: write-only (secret) properties replaced by {@link REDACTED}. */
function withoutSecrets(schema: Schema, value: Record<string, unknown>): Record<string, unknown> {
  const secrets = Object.entries(schema.properties ?? {}).filter(([key, s]) => s.writeOnly && Object.hasOwn(value, key));
  if (secrets.length === 0) return value;
  return { ...value, ...Object.fromEntries(secrets.map(([key]) => [key, REDACTED])) };
}

/**
 * A `type: "object"` schema with `properties` (a model): each declared field in order (checked
 * with `validate`, `missing` when required, its default otherwise), then each unknown key when
 * `additionalProperties: false`, then the model's named check when every field passed. A secret
 * field's errors show {@link REDACTED} as input.
 *
 * @returns the declared fields, validated, defaults filled.
 */
export function validateModel(
  schema: Schema,
  value: unknown,
  loc: Loc,
  mode: Mode,
  errors: ErrorItem[],
  validate: ValidateValue,
): unknown {
  if (!isPlainObject(value)) {
    errors.push(E.modelAttributesType(loc, value));
    return value;
  }
  const required = schema.required ?? [];
  const before = errors.length;
  const out: Record<string, unknown> = {};
  const shown = withoutSecrets(schema, value);
  for (const [key, fieldSchema] of Object.entries(schema.properties ?? {})) {
    if (Object.hasOwn(value, key)) {
      const before = errors.length;
      out[key] = validate(fieldSchema, value[key], [...loc, key], mode, errors);
      if (fieldSchema.writeOnly) for (const error of errors.slice(before)) error.input = REDACTED;
    } else if (required.includes(key)) {
      errors.push(E.missing([...loc, key], shown));
    } else if (fieldSchema.default !== undefined) {
      out[key] = structuredClone(fieldSchema.default);
    }
  }
  // `extra="forbid"`: after the declared fields, each unknown key in the input's order.
  if (schema.additionalProperties === false) {
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(schema.properties ?? {}, key)) errors.push(E.extraForbidden([...loc, key], value[key]));
    }
  }
  const check = schema['x-model-after'];
  if (check !== undefined && errors.length === before) errors.push(...MODEL_CHECKS[check](out, loc));
  return out;
}
