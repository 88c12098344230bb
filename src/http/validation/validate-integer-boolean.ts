import { pydanticError as E, type ErrorItem, type Loc } from './error-item.js';
import type { Mode, Schema } from './value-schema.js';

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

/**
 * A `type: "integer"` value: a whole number (in `lax` mode also its text), then its bounds.
 *
 * @returns the integer (parsed from text in `lax` mode), or `value` when it is none.
 */
export function validateInteger(schema: Schema, value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]): unknown {
  const n = toInteger(value, mode, loc, errors);
  if (n === null) return value;
  if (schema.minimum !== undefined && n < schema.minimum) errors.push(E.greaterThanEqual(loc, value, schema.minimum));
  else if (schema.maximum !== undefined && n > schema.maximum) errors.push(E.lessThanEqual(loc, value, schema.maximum));
  return n;
}

const TRUE_TEXT = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_TEXT = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/**
 * A `type: "boolean"` value: a boolean, or in `lax` mode one of Pydantic's words for one.
 *
 * @returns the boolean (parsed from text in `lax` mode), or `value` when it is none.
 */
export function validateBoolean(value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]): unknown {
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
