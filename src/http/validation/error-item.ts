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

/** What error inputs show instead of a write-only (secret) value. */
export const REDACTED = '[redacted]';

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

/** An error type Pydantic renders without a `ctx`: `type`, `loc`, `msg`, `input`. */
function plain(type: string, msg: string): (loc: Loc, input: unknown) => ErrorItem {
  return (loc, input) => ({ type, loc, msg, input });
}

/**
 * An error type Pydantic renders with a `ctx`: its message and context come from the arguments
 * after `loc` and `input` (the limit, pattern or literals the input failed).
 */
function withContext<A extends unknown[]>(
  type: string,
  details: (...args: A) => { msg: string; ctx: Record<string, unknown> },
): (loc: Loc, input: unknown, ...args: A) => ErrorItem {
  return (loc, input, ...args) => {
    const { msg, ctx } = details(...args);
    return { type, loc, msg, input, ctx };
  };
}

/**
 * Builders for Pydantic v2's error types (pydantic-core `ErrorType`), with its exact messages.
 * Source: pydantic-core `src/errors/types.rs`.
 */
export const pydanticError = {
  missing: plain('missing', 'Field required'),
  /** A field validator raising `ValueError(message)`: FastAPI renders the exception in `ctx` as `{}`. */
  valueError: withContext('value_error', (message: string) => ({ msg: `Value error, ${message}`, ctx: { error: {} } })),
  stringType: plain('string_type', 'Input should be a valid string'),
  stringUnicode: plain('string_unicode', 'Input should be a valid string, unable to parse raw data as a unicode string'),
  stringTooShort: withContext('string_too_short', (min: number) => ({
    msg: `String should have at least ${plural(min, 'character')}`,
    ctx: { min_length: min },
  })),
  stringTooLong: withContext('string_too_long', (max: number) => ({
    msg: `String should have at most ${plural(max, 'character')}`,
    ctx: { max_length: max },
  })),
  stringPatternMismatch: withContext('string_pattern_mismatch', (pattern: string) => ({
    msg: `String should match pattern '${pattern}'`,
    ctx: { pattern },
  })),
  literalError: withContext('literal_error', (values: readonly unknown[]) => ({
    msg: `Input should be ${expectedLiterals(values)}`,
    ctx: { expected: expectedLiterals(values) },
  })),
  intType: plain('int_type', 'Input should be a valid integer'),
  intParsing: plain('int_parsing', 'Input should be a valid integer, unable to parse string as an integer'),
  intFromFloat: plain('int_from_float', 'Input should be a valid integer, got a number with a fractional part'),
  greaterThanEqual: withContext('greater_than_equal', (ge: number) => ({
    msg: `Input should be greater than or equal to ${ge}`,
    ctx: { ge },
  })),
  lessThanEqual: withContext('less_than_equal', (le: number) => ({
    msg: `Input should be less than or equal to ${le}`,
    ctx: { le },
  })),
  boolType: plain('bool_type', 'Input should be a valid boolean'),
  boolParsing: plain('bool_parsing', 'Input should be a valid boolean, unable to interpret input'),
  listType: plain('list_type', 'Input should be a valid list'),
  tooShort: withContext('too_short', (min: number, actual: number) => ({
    msg: `List should have at least ${plural(min, 'item')} after validation, not ${actual}`,
    ctx: { field_type: 'List', min_length: min, actual_length: actual },
  })),
  tooLong: withContext('too_long', (max: number, actual: number) => ({
    msg: `List should have at most ${plural(max, 'item')} after validation, not ${actual}`,
    ctx: { field_type: 'List', max_length: max, actual_length: actual },
  })),
  modelAttributesType: plain('model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'),
  dictType: plain('dict_type', 'Input should be a valid dictionary'),
  /** Not built into Pydantic: the `AfterValidator` of scripts/pydantic-golden raises it (docs/validation.md). */
  listUnique: plain('list_unique', 'List should have unique items'),
  /** Not built into Pydantic: the `AfterValidator` of scripts/pydantic-golden raises it (docs/validation.md). */
  stringNul: plain('string_nul', 'String should not contain a NUL character'),
  /** A key the model does not declare, under `extra="forbid"`. */
  extraForbidden: plain('extra_forbidden', 'Extra inputs are not permitted'),
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
