/**
 * One validation error, shaped exactly as FastAPI renders a Pydantic v2 `ErrorDetails`
 * (`errors(include_url=False)`): `type`, `loc`, `msg`, `input`, and `ctx` when Pydantic gives one.
 */
export interface ErrorItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** Where a value came from: the first element of every `loc`. */
export type Location = 'path' | 'query' | 'header' | 'body';

/** A path into the request: `['body', 'scope', 2]`. */
export type Loc = (string | number)[];

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Python's `repr()` of a str, as Pydantic prints literals: single quotes unless the text has one. */
export function pythonRepr(value: unknown): string {
  if (typeof value !== 'string') return String(value);
  if (value.includes("'") && !value.includes('"')) return `"${value}"`;
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** Pydantic's "'a', 'b' or 'c'" list of expected literals. */
export function expectedLiterals(values: readonly unknown[]): string {
  const reprs = values.map(pythonRepr);
  if (reprs.length <= 1) return reprs.join('');
  return `${reprs.slice(0, -1).join(', ')} or ${reprs.at(-1)}`;
}

/**
 * Builders for Pydantic v2's error types (pydantic-core `ErrorType`), with its exact messages.
 * Source: pydantic-core `src/errors/types.rs`.
 */
export const pydanticError = {
  missing: (loc: Loc, input: unknown): ErrorItem => ({ type: 'missing', loc, msg: 'Field required', input }),
  /** A field validator raising `ValueError(message)`: FastAPI renders the exception in `ctx` as `{}`. */
  valueError: (loc: Loc, input: unknown, message: string): ErrorItem => ({
    type: 'value_error',
    loc,
    msg: `Value error, ${message}`,
    input,
    ctx: { error: {} },
  }),
  stringType: (loc: Loc, input: unknown): ErrorItem => ({
    type: 'string_type',
    loc,
    msg: 'Input should be a valid string',
    input,
  }),
  stringUnicode: (loc: Loc, input: unknown): ErrorItem => ({
    type: 'string_unicode',
    loc,
    msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
    input,
  }),
  stringTooShort: (loc: Loc, input: unknown, min: number): ErrorItem => ({
    type: 'string_too_short',
    loc,
    msg: `String should have at least ${plural(min, 'character')}`,
    input,
    ctx: { min_length: min },
  }),
  stringTooLong: (loc: Loc, input: unknown, max: number): ErrorItem => ({
    type: 'string_too_long',
    loc,
    msg: `String should have at most ${plural(max, 'character')}`,
    input,
    ctx: { max_length: max },
  }),
  stringPatternMismatch: (loc: Loc, input: unknown, pattern: string): ErrorItem => ({
    type: 'string_pattern_mismatch',
    loc,
    msg: `String should match pattern '${pattern}'`,
    input,
    ctx: { pattern },
  }),
  literalError: (loc: Loc, input: unknown, values: readonly unknown[]): ErrorItem => ({
    type: 'literal_error',
    loc,
    msg: `Input should be ${expectedLiterals(values)}`,
    input,
    ctx: { expected: expectedLiterals(values) },
  }),
  intType: (loc: Loc, input: unknown): ErrorItem => ({ type: 'int_type', loc, msg: 'Input should be a valid integer', input }),
  intParsing: (loc: Loc, input: unknown): ErrorItem => ({
    type: 'int_parsing',
    loc,
    msg: 'Input should be a valid integer, unable to parse string as an integer',
    input,
  }),
  intFromFloat: (loc: Loc, input: unknown): ErrorItem => ({
    type: 'int_from_float',
    loc,
    msg: 'Input should be a valid integer, got a number with a fractional part',
    input,
  }),
  greaterThanEqual: (loc: Loc, input: unknown, ge: number): ErrorItem => ({
    type: 'greater_than_equal',
    loc,
    msg: `Input should be greater than or equal to ${ge}`,
    input,
    ctx: { ge },
  }),
  lessThanEqual: (loc: Loc, input: unknown, le: number): ErrorItem => ({
    type: 'less_than_equal',
    loc,
    msg: `Input should be less than or equal to ${le}`,
    input,
    ctx: { le },
  }),
  boolType: (loc: Loc, input: unknown): ErrorItem => ({ type: 'bool_type', loc, msg: 'Input should be a valid boolean', input }),
  boolParsing: (loc: Loc, input: unknown): ErrorItem => ({
    type: 'bool_parsing',
    loc,
    msg: 'Input should be a valid boolean, unable to interpret input',
    input,
  }),
  listType: (loc: Loc, input: unknown): ErrorItem => ({ type: 'list_type', loc, msg: 'Input should be a valid list', input }),
  tooShort: (loc: Loc, input: unknown, min: number, actual: number): ErrorItem => ({
    type: 'too_short',
    loc,
    msg: `List should have at least ${plural(min, 'item')} after validation, not ${actual}`,
    input,
    ctx: { field_type: 'List', min_length: min, actual_length: actual },
  }),
  tooLong: (loc: Loc, input: unknown, max: number, actual: number): ErrorItem => ({
    type: 'too_long',
    loc,
    msg: `List should have at most ${plural(max, 'item')} after validation, not ${actual}`,
    input,
    ctx: { field_type: 'List', max_length: max, actual_length: actual },
  }),
  modelAttributesType: (loc: Loc, input: unknown): ErrorItem => ({
    type: 'model_attributes_type',
    loc,
    msg: 'Input should be a valid dictionary or object to extract fields from',
    input,
  }),
  dictType: (loc: Loc, input: unknown): ErrorItem => ({
    type: 'dict_type',
    loc,
    msg: 'Input should be a valid dictionary',
    input,
  }),
  /** Not built into Pydantic: the `AfterValidator` of scripts/pydantic-golden raises it (docs/validation.md). */
  listUnique: (loc: Loc, input: unknown): ErrorItem => ({
    type: 'list_unique',
    loc,
    msg: 'List should have unique items',
    input,
  }),
  /** Not built into Pydantic: the `AfterValidator` of scripts/pydantic-golden raises it (docs/validation.md). */
  stringNul: (loc: Loc, input: unknown): ErrorItem => ({
    type: 'string_nul',
    loc,
    msg: 'String should not contain a NUL character',
    input,
  }),
  /** A key the model does not declare, under `extra="forbid"`. */
  extraForbidden: (loc: Loc, input: unknown): ErrorItem => ({
    type: 'extra_forbidden',
    loc,
    msg: 'Extra inputs are not permitted',
    input,
  }),
  jsonInvalid: (pos: number, error: string): ErrorItem => ({
    type: 'json_invalid',
    loc: ['body', pos],
    msg: 'JSON decode error',
    input: {},
    ctx: { error },
  }),
};

/**
 * Applies FastAPI's `jsonable_encoder` quirk to error inputs: object keys starting with `_sa`
 * (SQLAlchemy internals) are dropped at any depth. Only used when rendering a 422.
 */
export function encodeLikeFastApi(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(encodeLikeFastApi);
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (!key.startsWith('_sa')) out[key] = encodeLikeFastApi(v);
  return out;
}
