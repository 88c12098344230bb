import { pydanticError as E, type ErrorItem, type Loc } from './error-item.js';
import { afterCheckProblem } from './named-checks.js';
import type { Schema } from './value-schema.js';

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

/**
 * A `type: "string"` value: a string (never coerced), then its length (code points), pattern, no
 * NUL, and its named check (`x-after`), the first that fails reporting.
 *
 * @returns `value` unchanged.
 */
export function validateString(schema: Schema, value: unknown, loc: Loc, errors: ErrorItem[]): unknown {
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
    const problem = afterCheckProblem(schema['x-after'], value);
    if (problem !== null) errors.push(E.valueError(loc, value, problem));
  }
  return value;
}
