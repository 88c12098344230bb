/** stringifyYielding (src/lib/yielding.ts): the same text as JSON.stringify, built in slices that yield. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextTurn, stringifyYielding } from '../../src/lib/yielding.js';

describe('stringifyYielding', () => {
  it('gives exactly what JSON.stringify gives', async () => {
    const values: unknown[] = [
      { a: 1, b: 'x"\n\u2028', c: [1, undefined, null, () => 1], d: undefined, e: new Date(0), f: { g: [] }, h: NaN },
      [{ toJSON: (key: string) => `k=${key}` }, { nested: { toJSON: () => undefined } }],
      'plain',
      42,
      null,
      undefined,
      { map: new Map([[1, 2]]), neg: -0, big: 1e300 },
    ];
    for (const value of values) assert.equal(await stringifyYielding(value, nextTurn), JSON.stringify(value));
  });

  it('serializes an array too long to spread into a call (a million items)', async () => {
    const huge = { ids: Array.from({ length: 1_000_000 }, (_, i) => i) };
    assert.equal(await stringifyYielding(huge, nextTurn), JSON.stringify(huge));
  });

  it('yields while serializing a large value, and stops when pause throws', async () => {
    const large = { events: Array.from({ length: 50_000 }, (_, i) => ({ id: i, title: `title ${i} ${'x'.repeat(200)}` })) };
    let pauses = 0;
    const text = await stringifyYielding(large, async () => {
      pauses += 1;
      await nextTurn();
    });
    assert.equal(text, JSON.stringify(large));
    assert.ok(pauses > 0, 'never yielded');
    await assert.rejects(
      stringifyYielding(large, async () => {
        throw new Error('stopping');
      }),
      /stopping/,
    );
  });
});
