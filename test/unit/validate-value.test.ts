/**
 * validateValue / codePointLength, unit by unit. Complements the HTTP-level replay of
 * test/golden/validation-cases.json: here the parsed values, the exact error types and a few
 * inputs the golden file does not reach. Expected behaviour was checked against Pydantic 2.13
 * (pydantic-core 2.46) `TypeAdapter(int | bool).validate_python(text)` and strict models.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ErrorItem, Loc } from '../../src/http/validation/error-item.js';
import { codePointLength } from '../../src/http/validation/validate-string.js';
import { validateValue } from '../../src/http/validation/validate-value.js';
import type { Mode, Schema } from '../../src/http/validation/value-schema.js';

function run(schema: Schema, value: unknown, mode: Mode, loc: Loc = ['query', 'v']) {
  const errors: ErrorItem[] = [];
  const result = validateValue(schema, value, loc, mode, errors);
  return { result, errors, types: errors.map((e) => e.type) };
}

const INT: Schema = { type: 'integer' };
const BOOL: Schema = { type: 'boolean' };

describe('lax integer parsing (query / header / path text)', () => {
  const ok: readonly [string, number][] = [
    [' 5 ', 5],
    ['5.0', 5],
    ['5.00', 5],
    ['1_0', 10],
    ['+3', 3],
    ['-5', -5],
    ['00012', 12],
    ['\t5\n', 5],
    ['5.0\n', 5],
    ['\u00a05\u3000', 5], // NBSP and ideographic space are trimmed
    ['\u20285\u2029', 5], // line / paragraph separators too
  ];
  for (const [text, expected] of ok) {
    test(`${JSON.stringify(text)} → ${expected}`, () => {
      const { result, errors } = run(INT, text, 'lax');
      assert.deepEqual(errors, []);
      assert.equal(result, expected);
    });
  }

  const refused = ['5.', '1__0', '', ' ', '_1', '1_', '+-3', '1_0.0_0', '5.5', '\u0663', '\u001c5', 'five'];
  for (const text of refused) {
    test(`${JSON.stringify(text)} → int_parsing`, () => {
      const { errors } = run(INT, text, 'lax', ['query', 'limit']);
      assert.equal(errors.length, 1);
      assert.deepEqual(errors[0], {
        type: 'int_parsing',
        loc: ['query', 'limit'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: text,
      });
    });
  }

  test('bounds are checked on the parsed number, the error keeps the original text', () => {
    const { errors } = run({ type: 'integer', minimum: 1, maximum: 100 }, ' 0 ', 'lax');
    assert.deepEqual(
      errors.map((e) => [e.type, e.input, e.ctx]),
      [['greater_than_equal', ' 0 ', { ge: 1 }]],
    );
    assert.deepEqual(run({ type: 'integer', minimum: 1, maximum: 100 }, '10_0', 'lax').errors, []);
    assert.deepEqual(run({ type: 'integer', minimum: 1, maximum: 100 }, '1_01', 'lax').types, ['less_than_equal']);
  });

  // pydantic-core trims with Rust's str::trim (Unicode White_Space); JS String#trim differs on two code points.
  test('U+FEFF (BOM) is not whitespace: "\\ufeff5" → int_parsing', () => {
    assert.deepEqual(run(INT, '\ufeff5', 'lax').types, ['int_parsing']);
  });
  test('U+0085 (NEL) is whitespace: "\\u00855" → 5', () => {
    const { result, errors } = run(INT, '\u00855', 'lax');
    assert.deepEqual(errors, []);
    assert.equal(result, 5);
  });
});

describe('lax boolean parsing', () => {
  const ok: readonly [string, boolean][] = [
    ['yes', true],
    ['On', true],
    ['YES', true],
    ['1', true],
    ['T', true],
    ['y', true],
    ['0', false],
    ['Off', false],
    ['FALSE', false],
    ['no', false],
    ['F', false],
  ];
  for (const [text, expected] of ok) {
    test(`${JSON.stringify(text)} → ${expected}`, () => {
      const { result, errors } = run(BOOL, text, 'lax');
      assert.deepEqual(errors, []);
      assert.equal(result, expected);
    });
  }
  for (const text of [' true', 'true ', 'on\n', '2', '', 'ye', 'nope', '\u0130']) {
    test(`${JSON.stringify(text)} → bool_parsing (no trimming)`, () => {
      const { errors } = run(BOOL, text, 'lax', ['query', 'overdue']);
      assert.deepEqual(errors, [
        {
          type: 'bool_parsing',
          loc: ['query', 'overdue'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          input: text,
        },
      ]);
    });
  }
});

describe('strict mode refuses coercion', () => {
  // [description, schema, value, expected error types]
  const cases: readonly [string, Schema, unknown, string[]][] = [
    ['"5" for integer', INT, '5', ['int_type']],
    ['true for integer', INT, true, ['int_type']],
    ['5.5 for integer', INT, 5.5, ['int_type']],
    ['NaN for integer', INT, Number.NaN, ['int_type']],
    ['Infinity for integer', INT, Number.POSITIVE_INFINITY, ['int_type']],
    ['null for integer', INT, null, ['int_type']],
    ['1 for boolean', BOOL, 1, ['bool_type']],
    ['"true" for boolean', BOOL, 'true', ['bool_type']],
    ['0 for boolean', BOOL, 0, ['bool_type']],
    ['5 for string', { type: 'string' }, 5, ['string_type']],
    ['an object for a list', { type: 'array', items: INT }, { 0: 1 }, ['list_type']],
  ];
  for (const [name, schema, value, types] of cases) {
    test(name, () => {
      const { errors, types: got } = run(schema, value, 'strict', ['body', 'x']);
      assert.deepEqual(got, types);
      assert.deepEqual(errors[0]?.loc, ['body', 'x']);
      assert.equal(errors[0]?.input, value);
    });
  }

  test('exact types pass unchanged', () => {
    assert.deepEqual(run(INT, 7, 'strict'), { result: 7, errors: [], types: [] });
    assert.deepEqual(run(BOOL, false, 'strict'), { result: false, errors: [], types: [] });
  });

  test('lax mode gives int_from_float (not int_type) for a fractional number', () => {
    assert.deepEqual(run(INT, 5.5, 'lax').types, ['int_from_float']);
  });
});

describe('lists', () => {
  const LIST: Schema = { type: 'array', maxItems: 2, items: { type: 'string', minLength: 1 } };

  test('a too-long list reports only too_long, none of its bad items', () => {
    const value = [1, '', null];
    const { errors } = run(LIST, value, 'strict', ['body', 'scope']);
    assert.deepEqual(errors, [
      {
        type: 'too_long',
        loc: ['body', 'scope'],
        msg: 'List should have at most 2 items after validation, not 3',
        input: value,
        ctx: { field_type: 'List', max_length: 2, actual_length: 3 },
      },
    ]);
  });

  test('within the limit, each bad item is reported at its index', () => {
    const { errors } = run(LIST, [1, ''], 'strict', ['body', 'scope']);
    assert.deepEqual(
      errors.map((e) => [e.type, e.loc]),
      [
        ['string_type', ['body', 'scope', 0]],
        ['string_too_short', ['body', 'scope', 1]],
      ],
    );
  });

  test('minItems 2 with a bad item reports only the item error', () => {
    const schema: Schema = { type: 'array', minItems: 2, maxItems: 3, items: { type: 'string', minLength: 1 } };
    assert.deepEqual(run(schema, [''], 'strict', ['body', 'x']).types, ['string_too_short']);
  });
});

describe('codePointLength and string lengths', () => {
  const lengths: readonly [string, string, number][] = [
    ['empty', '', 0],
    ['ASCII', 'acme', 4],
    ['one emoji (2 UTF-16 units)', '\u{1F600}', 1],
    ['emoji between letters', 'a\u{1F600}b', 3],
    ['astral CJK ext. B', '\u{20000}\u{2A6D6}', 2],
    ['ZWJ family: 3 people + 2 joiners', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', 5],
    ['e + combining acute', 'e\u0301', 2],
    ['lone high surrogate at the end', 'a\uD800', 2],
    ['lone low surrogate first', '\uDC00a', 2],
    ['low then high: no pair', '\uDC00\uD800', 2],
    ['high, high, low: one pair', '\uD800\uD800\uDC00', 2],
  ];
  for (const [name, text, expected] of lengths) {
    test(`${name} → ${expected}`, () => {
      assert.equal(codePointLength(text), expected);
    });
  }

  test('min/max lengths count code points, not UTF-16 units', () => {
    const schema: Schema = { type: 'string', minLength: 2, maxLength: 3 };
    assert.deepEqual(run(schema, '\u{1F600}', 'strict').types, ['string_too_short']);
    assert.deepEqual(run(schema, '\u{1F600}\u{1F600}', 'strict').types, []);
    assert.deepEqual(run(schema, '\u{1F600}\u{1F600}\u{1F600}', 'strict').types, []);
    const tooLong = run(schema, '\u{1F600}'.repeat(4), 'strict').errors;
    assert.deepEqual(
      tooLong.map((e) => [e.type, e.msg, e.ctx]),
      [['string_too_long', 'String should have at most 3 characters', { max_length: 3 }]],
    );
  });

  test('a constrained string with a lone surrogate → string_unicode', () => {
    const { errors } = run({ type: 'string', minLength: 1, maxLength: 300 }, 'a\uD800', 'strict', ['body', 'subject_id']);
    assert.deepEqual(errors, [
      {
        type: 'string_unicode',
        loc: ['body', 'subject_id'],
        msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
        input: 'a\uD800',
      },
    ]);
  });
});

describe('sets, forbidden extras, ordered checks and NUL (issue 11)', () => {
  test('uniqueItems compares items as JSON values, and only on an otherwise valid list', () => {
    const SET: Schema = { type: 'array', items: {}, uniqueItems: true };
    assert.deepEqual(run(SET, [1, '1', [1], { a: 1 }], 'strict').types, []);
    assert.deepEqual(run(SET, [{ a: 1 }, { a: 1 }], 'strict').types, ['list_unique']);
    const BOUNDED: Schema = { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 2, uniqueItems: true };
    assert.deepEqual(run(BOUNDED, ['a', 'a', 'a'], 'strict').types, ['too_long']);
    assert.deepEqual(run(BOUNDED, ['', ''], 'strict').types, ['string_too_short', 'string_too_short']);
  });

  test('additionalProperties false: extra_forbidden per unknown key, after the declared fields, with its value', () => {
    const MODEL: Schema = {
      type: 'object',
      properties: { a: { type: 'integer' }, s: { type: 'string', writeOnly: true } },
      additionalProperties: false,
    };
    const { errors, result } = run(MODEL, { z: [1], a: 'x', __proto__x: null, s: 'secret' }, 'strict', ['body']);
    assert.deepEqual(
      errors.map((e) => [e.type, e.loc, e.input]),
      [
        ['int_type', ['body', 'a'], 'x'],
        ['extra_forbidden', ['body', 'z'], [1]],
        ['extra_forbidden', ['body', '__proto__x'], null],
      ],
    );
    assert.deepEqual(result, { a: 'x', s: 'secret' });
  });

  test('allOf reports the first failing part only', () => {
    const KEY: Schema = { allOf: [{ type: 'string' }, { type: 'string', enum: ['user'] }] };
    assert.deepEqual(run(KEY, 5, 'strict').types, ['string_type']);
    assert.deepEqual(run(KEY, 'users', 'strict').types, ['literal_error']);
    assert.deepEqual(run(KEY, 'user\u0000', 'strict').types, ['string_nul']);
    assert.deepEqual(run(KEY, 'user', 'strict').types, []);
  });

  test('NUL: refused in any string after its own constraints; an enum reports literal_error', () => {
    assert.deepEqual(run({ type: 'string' }, 'a\u0000b', 'lax').types, ['string_nul']);
    assert.deepEqual(run({ type: 'string', maxLength: 2 }, '\u0000\u0000\u0000', 'strict').types, ['string_too_long']);
    assert.deepEqual(run({ type: 'string', pattern: '^a$' }, 'a\u0000', 'strict').types, ['string_pattern_mismatch']);
    assert.deepEqual(run({ type: 'string', enum: ['a'] }, 'a\u0000', 'strict').types, ['literal_error']);
    assert.deepEqual(run({ type: 'string' }, '\u0001\u001f\u007f', 'strict').types, [], 'other control characters pass');
  });
});
