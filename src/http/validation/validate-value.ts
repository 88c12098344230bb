import { subjectIdProblem } from '../../modules/subject-data/request-identity.fns.js';
import { isCalendarDate } from '../../lib/calendar-day.js';
import { optInSourceProblem } from '../../modules/opt-outs/opt-out.fns.js';
import { pydanticError as E, type ErrorItem, type Loc } from './error-item.js';

/**
 * The subset of JSON Schema (as TypeBox writes it) that the validator understands:
 * objects with properties (`additionalProperties: false` forbids other keys), strings with
 * lengths/pattern/enum, integers with bounds, booleans, arrays with item counts and
 * `uniqueItems`, records (`additionalProperties` a schema), and `allOf` (checked in order, the
 * first failing part reports).
 */
export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  items?: Schema;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  /** No two items equal (Pydantic has no such constraint: an `AfterValidator` raising `list_unique`). */
  uniqueItems?: boolean;
  /** Every part in order; the first that fails reports, the rest are not checked. */
  allOf?: Schema[];
  /**
   * Only the nullable form `[X, {type: 'null'}]` (TypeBox `Union([X, Null()])`): Pydantic's
   * `Optional[X]`, null passes and anything else is checked against X alone (X's errors).
   */
  anyOf?: Schema[];
  default?: unknown;
  /** A secret: never echoed in an error's `input` (replaced by `[redacted]`). */
  writeOnly?: boolean;
  /**
   * A named check run on a string that passed its own constraints (a Pydantic `AfterValidator`
   * raising `ValueError`: `value_error`, "Value error, …"). See {@link AFTER_CHECKS}.
   */
  'x-after'?: AfterCheck;
  /**
   * A named check of an object whose fields all passed (a Pydantic `model_validator(mode="after")`
   * raising errors at a field's `loc`). See {@link MODEL_CHECKS}.
   */
  'x-model-after'?: ModelCheck;
}

const DAY_MS = 86_400_000;

/**
 * Checks that no JSON Schema keyword says, by name (`x-after`), each returning the problem or
 * null. `received-at`: an RFC 3339 time (the pattern has passed) naming a real calendar day,
 * not in the future and at most 365 days ago by the service clock ({@link atTime}; PRODUCT §2.13).
 */
export const AFTER_CHECKS = {
  'received-at': (text: string, now: number): string | null => {
    const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
    if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return 'not a real calendar day';
    const at = Date.parse(text);
    if (at > now) return 'received_at is in the future';
    if (at < now - 365 * DAY_MS) return 'received_at is more than 365 days ago';
    return null;
  },
  /** A `YYYY-MM-DD` text (the pattern has passed) naming a real calendar day (a policy's `holidays`). */
  'calendar-day': (text: string): string | null => (isCalendarDate(text) ? null : 'not a real calendar day'),
} as const;
export type AfterCheck = keyof typeof AFTER_CHECKS;

/** `subject-identity` of {@link MODEL_CHECKS}. */
function subjectIdentity(value: Record<string, unknown>, loc: Loc): ErrorItem[] {
  const { subject_provider: provider, subject_id: id } = value;
  if (typeof provider !== 'string' || typeof id !== 'string') return [];
  const problem = subjectIdProblem(provider, id);
  return problem === null ? [] : [{ type: 'value_error', loc: [...loc, 'subject_id'], msg: problem, input: id }];
}

/**
 * Checks of a whole object that no JSON Schema keyword says, by name (`x-model-after`), run only
 * when every field of the object passed (as Pydantic runs an after model validator), each
 * returning its errors. `subject-identity`: a `subject_provider: "phone"` needs a `subject_id`
 * that is a phone number in E.164 once spaces, dashes, dots and parentheses are removed
 * (PRODUCT §2.17): `value_error` at the object's `subject_id`, worded as pydantic-extra-types'
 * `PhoneNumber` words it, without `ctx`.
 */
export const MODEL_CHECKS = {
  'subject-identity': subjectIdentity,
  /**
   * An opt-out (PRODUCT §2.18): the subject's identity as `subject-identity`, then an `opt_in`
   * only from a source that may give one (`optInSourceProblem`): `value_error` at the object's
   * `source`, without `ctx`.
   */
  'opt-out': (value: Record<string, unknown>, loc: Loc): ErrorItem[] => {
    const identity = subjectIdentity(value, loc);
    if (identity.length > 0) return identity;
    const { choice, source } = value;
    if (typeof choice !== 'string' || typeof source !== 'string') return [];
    const problem = optInSourceProblem(choice, source);
    return problem === null ? [] : [{ type: 'value_error', loc: [...loc, 'source'], msg: problem, input: source }];
  },
} as const;
export type ModelCheck = keyof typeof MODEL_CHECKS;

/** The time {@link AFTER_CHECKS} compare with, ms: the service clock's, set for each validation. */
let checkTime = Date.now();

/**
 * Runs `validate` with `now` (the service clock, ms) as the time of the checks that compare with
 * it. Validation is synchronous, so the value cannot leak into another request's validation.
 */
export function atTime<T>(now: number, validate: () => T): T {
  const before = checkTime;
  checkTime = now;
  try {
    return validate();
  } finally {
    checkTime = before;
  }
}

/** What error inputs show instead of a write-only (secret) value. */
export const REDACTED = '[redacted]';

/**
 * `strict`: JSON bodies, no coercion (Pydantic `strict=True`).
 * `lax`: query, header and path values, which arrive as strings and are parsed as Pydantic's lax
 * mode parses str input (`"5"` → 5, `"yes"` → true).
 */
export type Mode = 'strict' | 'lax';

/** Counts Unicode code points, as Python's `len(str)` does (an astral character is one). */
export function codePointLength(text: string): number {
  let surrogatePairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        surrogatePairs++;
        i++;
      }
    }
  }
  return text.length - surrogatePairs;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const patternCache = new Map<string, RegExp>();

function compiledPattern(pattern: string): RegExp {
  let re = patternCache.get(pattern);
  if (!re) {
    re = new RegExp(pattern, 'u');
    patternCache.set(pattern, re);
  }
  return re;
}

function validateString(schema: Schema, value: unknown, loc: Loc, errors: ErrorItem[]): unknown {
  if (typeof value !== 'string') {
    errors.push(E.stringType(loc, value));
    return value;
  }
  const constrained = schema.minLength !== undefined || schema.maxLength !== undefined || schema.pattern !== undefined;
  // A constrained str is checked as Rust text: a lone surrogate (legal in Python str) fails.
  if (constrained && LONE_SURROGATE.test(value)) {
    errors.push(E.stringUnicode(loc, value));
    return value;
  }
  const length = schema.minLength !== undefined || schema.maxLength !== undefined ? codePointLength(value) : 0;
  if (schema.minLength !== undefined && length < schema.minLength) {
    errors.push(E.stringTooShort(loc, value, schema.minLength));
  } else if (schema.maxLength !== undefined && length > schema.maxLength) {
    errors.push(E.stringTooLong(loc, value, schema.maxLength));
  } else if (schema.pattern !== undefined && !compiledPattern(schema.pattern).test(value)) {
    errors.push(E.stringPatternMismatch(loc, value, schema.pattern));
  } else if (value.includes('\u0000')) {
    // PostgreSQL text cannot hold NUL: every string refuses it, after its own constraints (as an
    // AfterValidator would), so both databases answer the same 422 (docs/validation.md).
    errors.push(E.stringNul(loc, value));
  } else if (schema['x-after'] !== undefined) {
    const problem = AFTER_CHECKS[schema['x-after']](value, checkTime);
    if (problem !== null) errors.push(E.valueError(loc, value, problem));
  }
  return value;
}

function validateLiteral(schema: Schema, value: unknown, loc: Loc, errors: ErrorItem[]): unknown {
  const values = schema.enum ?? [];
  if (!values.includes(value)) errors.push(E.literalError(loc, value, values));
  return value;
}

/**
 * Rust's `str::trim` (Unicode White_Space), which pydantic-core uses: unlike JavaScript's
 * `trim()`, it strips U+0085 and keeps U+FEFF.
 */
function trimRustWhitespace(text: string): string {
  return text.replace(
    /^[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g,
    '',
  );
}

/**
 * Pydantic's lax str → int: surrounding (Unicode) whitespace, an optional sign, ASCII digits with
 * single underscores between them, and optionally a fraction of zeros only (`5.0`).
 */
function parseIntegerText(text: string): number | null {
  const match = /^([+-]?[0-9]+(?:_[0-9]+)*)(?:\.0+)?$/.exec(trimRustWhitespace(text));
  return match?.[1] ? Number(match[1].replaceAll('_', '')) : null;
}

function toInteger(value: unknown, mode: Mode, loc: Loc, errors: ErrorItem[]): number | null {
  if (mode === 'lax' && typeof value === 'string') {
    const parsed = parseIntegerText(value);
    if (parsed === null) errors.push(E.intParsing(loc, value));
    return parsed;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    errors.push(E.intType(loc, value));
    return null;
  }
  if (!Number.isInteger(value)) {
    errors.push(mode === 'strict' ? E.intType(loc, value) : E.intFromFloat(loc, value));
    return null;
  }
  return value;
}

function validateInteger(schema: Schema, value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]): unknown {
  const n = toInteger(value, mode, loc, errors);
  if (n === null) return value;
  if (schema.minimum !== undefined && n < schema.minimum) errors.push(E.greaterThanEqual(loc, value, schema.minimum));
  else if (schema.maximum !== undefined && n > schema.maximum) errors.push(E.lessThanEqual(loc, value, schema.maximum));
  return n;
}

const TRUE_TEXT = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_TEXT = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

function validateBoolean(value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]): unknown {
  if (typeof value === 'boolean') return value;
  if (mode === 'lax' && typeof value === 'string') {
    // Unlike ints, Pydantic does not trim bool text: " true" is refused.
    const text = value.toLowerCase();
    if (TRUE_TEXT.has(text)) return true;
    if (FALSE_TEXT.has(text)) return false;
    errors.push(E.boolParsing(loc, value));
    return value;
  }
  errors.push(E.boolType(loc, value));
  return value;
}

function validateArray(schema: Schema, value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]): unknown {
  if (!Array.isArray(value)) {
    errors.push(E.listType(loc, value));
    return value;
  }
  // pydantic-core stops at max_length: a list that is too long reports only that, no item errors.
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    errors.push(E.tooLong(loc, value, schema.maxItems, value.length));
    return value;
  }
  const items = schema.items;
  const before = errors.length;
  const result = items ? value.map((item, i) => validateValue(items, item, [...loc, i], mode, errors)) : value;
  // The length check runs on the validated list: with item errors there is none to count.
  if (errors.length === before && schema.minItems !== undefined && value.length < schema.minItems) {
    errors.push(E.tooShort(loc, value, schema.minItems, value.length));
  }
  // Uniqueness is an AfterValidator in the Pydantic model: it runs only on a list that passed.
  if (errors.length === before && schema.uniqueItems && !allDistinct(value)) errors.push(E.listUnique(loc, value));
  return result;
}

/** True when no two items are equal as JSON values. */
function allDistinct(items: unknown[]): boolean {
  return new Set(items.map((item) => JSON.stringify(item))).size === items.length;
}

/** A JSON object: not an array, null or a boxed value such as {@link PyFloat}. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function validateRecord(schema: Schema, value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]): unknown {
  if (!isPlainObject(value)) {
    errors.push(E.dictType(loc, value));
    return value;
  }
  const valueSchema = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = validateValue(valueSchema, v, [...loc, key], mode, errors);
  return out;
}

/** The object as errors may show it: write-only (secret) properties replaced by {@link REDACTED}. */
function withoutSecrets(schema: Schema, value: Record<string, unknown>): Record<string, unknown> {
  const secrets = Object.entries(schema.properties ?? {}).filter(([key, s]) => s.writeOnly && Object.hasOwn(value, key));
  if (secrets.length === 0) return value;
  return { ...value, ...Object.fromEntries(secrets.map(([key]) => [key, REDACTED])) };
}

function validateModel(schema: Schema, value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]): unknown {
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
      out[key] = validateValue(fieldSchema, value[key], [...loc, key], mode, errors);
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

/** `allOf`: each part in order on the value so far; the first part that fails ends the check (its errors only). */
function validateAllOf(parts: Schema[], value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]): unknown {
  let result = value;
  for (const part of parts) {
    const before = errors.length;
    result = validateValue(part, result, loc, mode, errors);
    if (errors.length > before) break;
  }
  return result;
}

/**
 * Validates `value` against `schema` the way Pydantic v2 validates the equivalent model, pushing
 * one {@link ErrorItem} per failure (all of them, in field declaration order) onto `errors`.
 * Unknown object keys are dropped (Pydantic's `extra="ignore"`), or reported as `extra_forbidden`
 * where the schema says `additionalProperties: false` (`extra="forbid"`).
 *
 * @returns the validated value (integers and booleans parsed in `lax` mode, defaults filled,
 *   unknown keys removed); meaningless when errors were pushed.
 */
export function validateValue(schema: Schema, value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]): unknown {
  if (schema.allOf) return validateAllOf(schema.allOf, value, loc, mode, errors);
  if (schema.anyOf) {
    const other = schema.anyOf.filter((part) => part.type !== 'null');
    if (value === null && other.length < schema.anyOf.length) return null;
    if (other.length === 1) return validateValue(other[0] as Schema, value, loc, mode, errors);
    return value;
  }
  if (schema.enum) return validateLiteral(schema, value, loc, errors);
  switch (schema.type) {
    case 'string':
      return validateString(schema, value, loc, errors);
    case 'integer':
      return validateInteger(schema, value, loc, mode, errors);
    case 'boolean':
      return validateBoolean(value, loc, mode, errors);
    case 'array':
      return validateArray(schema, value, loc, mode, errors);
    case 'object':
      return schema.properties
        ? validateModel(schema, value, loc, mode, errors)
        : validateRecord(schema, value, loc, mode, errors);
    default:
      return value;
  }
}
