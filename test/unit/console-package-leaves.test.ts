/**
 * The values the console lists for the review before release (console/src/lib/package-leaves.ts,
 * PRODUCT §2.20, §2.21): each named by the JSON Pointer the API takes, escaped per RFC 6901 §3,
 * in the package's order, capped with a count of what was left out.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { packageLeaves, pointerToken } from '../../console/src/lib/package-leaves.js';
import { pathInPackage } from '../../src/modules/package-review/redaction.fns.js';

const pkg = {
  format: 'privacy-access/1',
  data: { username: 'ada', linked_accounts: [] },
  systems: {
    shop: { 'user.contact': [{ note: 'Left with neighbour', 'a/b': 1, 'c~d': null, flag: false }], empty: {} },
  },
};

describe('console package leaves', () => {
  it('lists every value under a part with its pointer, escaping / and ~; nulls and empty containers say nothing and are left out', () => {
    assert.deepEqual(packageLeaves(pkg, '/systems', 100), {
      leaves: [
        { path: '/systems/shop/user.contact/0/note', text: 'Left with neighbour' },
        { path: '/systems/shop/user.contact/0/a~1b', text: '1' },
        { path: '/systems/shop/user.contact/0/flag', text: 'false' },
      ],
      more: 0,
    });
    assert.deepEqual(packageLeaves(pkg, '/data', 100).leaves, [{ path: '/data/username', text: 'ada' }]);
    assert.equal(pointerToken('x/~y'), 'x~1~0y');
  });

  it('every pointer it lists is one the service resolves in the same package', () => {
    for (const leaf of packageLeaves(pkg, '/systems', 100).leaves) assert.ok(pathInPackage(pkg, leaf.path), leaf.path);
  });

  it('caps the list and counts the rest; a part that is not there lists nothing', () => {
    assert.deepEqual(packageLeaves(pkg, '/systems', 2).more, 1);
    assert.equal(packageLeaves(pkg, '/systems', 2).leaves.length, 2);
    assert.deepEqual(packageLeaves(pkg, '/nothing', 10), { leaves: [], more: 0 });
  });
});
