/** lib/keyed-hash.ts: the memoised pseudonymiser answers exactly what accountPseudonym computes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accountPseudonym, createPseudonymizer } from '../../src/lib/keyed-hash.js';

const KEY = 'a pseudonym key of at least thirty-two characters';

describe('createPseudonymizer (src/lib/keyed-hash.ts)', () => {
  it('answers accountPseudonym, first time and remembered, for each key, provider case and account', () => {
    const pseudonymOf = createPseudonymizer(KEY);
    const other = createPseudonymizer(`${KEY}!`);
    for (const [provider, account] of [
      ['github', '583231'],
      ['GitHub', '583231'],
      ['gitlab', '583231'],
      ['okta', 'user:with:colons'],
    ] as const) {
      const expected = accountPseudonym(KEY, provider, account);
      assert.equal(pseudonymOf(provider, account), expected);
      assert.equal(pseudonymOf(provider, account), expected, 'remembered');
      assert.equal(other(provider, account), accountPseudonym(`${KEY}!`, provider, account));
      assert.notEqual(other(provider, account), expected, 'each key its own pseudonyms');
    }
  });

  it('keeps answering correctly once the memo is full and starts over', () => {
    const pseudonymOf = createPseudonymizer(KEY, 3);
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < 10; i += 1) assert.equal(pseudonymOf('github', String(i)), accountPseudonym(KEY, 'github', String(i)));
    }
  });
});
