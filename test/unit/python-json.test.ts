/**
 * parseJsonLikePython against golden data recorded from CPython 3.11's json.loads
 * (scripts/pydantic-golden/json-errors.py writes test/golden/python-json-errors.json).
 * Needs no Python at test time.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseJsonLikePython } from '../../src/http/validation/python-json.js';

interface GoldenCase {
  readonly input: string;
  readonly ok: boolean;
  readonly msg?: string;
  readonly pos?: number;
  readonly value?: unknown;
}

/** The golden file writes NaN / ±Infinity as `{"$float": "NaN" | "Infinity" | "-Infinity"}`. */
function reviveFloats(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const tag: unknown = (value as Record<string, unknown>).$float;
    if (keys.length === 1 && typeof tag === 'string') return Number(tag);
  }
  return value;
}

const goldenUrl = new URL('../golden/python-json-errors.json', import.meta.url);
const cases = JSON.parse(readFileSync(goldenUrl, 'utf8'), reviveFloats) as GoldenCase[];

function label(input: string): string {
  const shown = JSON.stringify(input);
  return shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
}

describe('parseJsonLikePython matches CPython 3.11 json.loads', () => {
  for (const [index, golden] of cases.entries()) {
    test(`#${index} ${label(golden.input)}`, () => {
      const result = parseJsonLikePython(golden.input);
      if (!golden.ok) {
        assert.deepEqual(result, { ok: false, msg: golden.msg, pos: golden.pos });
      } else if ('value' in golden) {
        assert.deepEqual(result, { ok: true, value: golden.value });
      } else {
        assert.equal(result.ok, true);
      }
    });
  }
});

describe('golden data coverage', () => {
  test('has at least 45 cases, valid and invalid', () => {
    assert.ok(cases.length >= 45);
    assert.ok(cases.some((c) => c.ok));
    assert.ok(cases.filter((c) => !c.ok).length >= 30);
  });

  test('includes errors whose code-point position differs from the UTF-16 index', () => {
    const shifted = cases.filter((c) => {
      if (c.ok || c.pos === undefined) return false;
      return [...c.input].slice(0, c.pos).join('').length !== c.pos;
    });
    assert.ok(shifted.length >= 5, `only ${shifted.length} astral-shifted error cases`);
  });
});

describe('robustness beyond the golden data', () => {
  test('unclosed deep nesting returns an error instead of overflowing the stack', () => {
    // CPython raises RecursionError here (FastAPI answers 400); we report the decode error.
    const depth = 200_000;
    const expected = { ok: false, msg: 'Expecting value', pos: depth };
    assert.deepEqual(parseJsonLikePython('['.repeat(depth)), expected);
  });

  test('slow path keeps "__proto__" as an own property, like JSON.parse', () => {
    const result = parseJsonLikePython('{"__proto__": {"polluted": NaN}}');
    assert.equal(result.ok, true);
    const value = result.ok ? (result.value as Record<string, unknown>) : {};
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.ok(Object.hasOwn(value, '__proto__'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
