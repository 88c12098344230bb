/**
 * The float fast path of parseJsonLikePython (`markFloats`): a body whose strings merely contain
 * `12.5` or a timestamp is parsed by JSON.parse, and gives exactly what the CPython scanner gives;
 * a body with a real float literal still has it boxed as a PyFloat.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PyFloat } from '../../src/http/validation/python-float.js';
import { holdsFloatLiteral, parseJsonLikePython } from '../../src/http/validation/python-json.js';
import { PyJsonScanner } from '../../src/http/validation/python-json-scanner.js';

/** What the scanner alone (the path before the fast path) makes of valid `text`, floats boxed. */
function scanned(text: string): unknown {
  const scanner = new PyJsonScanner(text, true);
  return scanner.scanOnce(scanner.skipWs(0))[0];
}

function parsedWithFloats(text: string): unknown {
  const result = parseJsonLikePython(text, { markFloats: true });
  assert.equal(result.ok, true, text);
  return result.ok ? result.value : undefined;
}

describe('holdsFloatLiteral looks only outside strings', () => {
  const cases: [string, boolean][] = [
    ['{"updated_at": "2026-01-01T00:00:00.000Z", "n": 3}', false],
    ['{"1.5e3": "v1.0", "list": [1, 2, -0]}', false],
    ['{"a": "quote \\" then 2.5 then \\\\", "b": 7}', false],
    ['{"a": "\\u00e9 1e9"}', false],
    ['{"a": 2.5}', true],
    ['[1e5]', true],
    ['[1E-2, "x"]', true],
    ['{"a": "\\\\", "b": 0.1}', true],
    ['[-0.0]', true],
  ];
  for (const [text, expected] of cases) {
    test(text, () => assert.equal(holdsFloatLiteral(text), expected));
  }
});

describe('parseJsonLikePython with markFloats gives what the scanner gives', () => {
  test('a body with floats only inside strings is plain numbers, equal to the scanner', () => {
    const text = JSON.stringify({
      outcome: 'completed',
      records: { 'user.contact': 2 },
      data: { 'user.contact': [{ value: 'v 1.5', updated_at: '2026-01-01T00:01:00.000Z', n: 12 }] },
    });
    assert.deepEqual(parsedWithFloats(text), scanned(text));
    assert.equal(holdsFloatLiteral(text), false);
  });

  test('a real float literal is still boxed', () => {
    const value = parsedWithFloats('{"s": "1.5", "f": 1.5}') as Record<string, unknown>;
    assert.ok(value['f'] instanceof PyFloat);
    assert.equal(value['s'], '1.5');
  });

  test('random documents: the fast path and the scanner agree', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = ['1.5', '"', '\\', 'e', 'E', '0', '9', 'x', '.', ' ', 'é', '\n'];
    const leaf = (): unknown => {
      const r = next();
      if (r < 0.3)
        return Array.from({ length: Math.floor(next() * 8) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      if (r < 0.5) return Math.floor(next() * 1e6) - 5e5;
      if (r < 0.6) return next() < 0.5 ? true : null;
      return r < 0.8 ? Number((next() * 100).toFixed(2)) : `t ${new Date(Math.floor(next() * 1e12)).toISOString()}`;
    };
    const tree = (depth: number): unknown => {
      if (depth === 0 || next() < 0.3) return leaf();
      if (next() < 0.5) return Array.from({ length: Math.floor(next() * 4) }, () => tree(depth - 1));
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, () => [String(leaf()), tree(depth - 1)]));
    };
    let withFloat = 0;
    for (let i = 0; i < 500; i++) {
      const text = JSON.stringify(tree(4));
      const fast = parsedWithFloats(text);
      assert.deepEqual(fast, scanned(text), text);
      if (holdsFloatLiteral(text)) withFloat++;
    }
    // Both kinds were generated: the comparison covered the fast path and the boxed one.
    assert.ok(withFloat > 20 && withFloat < 480, String(withFloat));
  });
});
