/** db/errors.ts `databaseFailure`: which driver errors become a 503 (PRODUCT.md §2.1), and which stay a 500. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseFailure } from '../../src/db/errors.js';

const withCode = (code: string, message = 'driver error') => Object.assign(new Error(message), { code });

describe('databaseFailure', () => {
  it('classes lost connections, shutdowns, busy locks and persistent deadlocks as unreachable', () => {
    for (const code of ['08006', '08001', '57P01', '57P03', '53300', 'ECONNREFUSED', 'SQLITE_BUSY', '40P01', '40001'])
      assert.equal(databaseFailure(withCode(code)), 'unreachable', code);
    assert.equal(databaseFailure(new Error('Connection terminated unexpectedly')), 'unreachable');
  });

  it('classes a full or read-only store as storage', () => {
    for (const code of ['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_READONLY', '53100', '58030'])
      assert.equal(databaseFailure(withCode(code)), 'storage', code);
  });

  it('leaves constraint violations, syntax errors and plain errors alone (they are 4xx or bugs)', () => {
    for (const code of ['23505', '23503', '42601', 'SQLITE_CONSTRAINT_UNIQUE'])
      assert.equal(databaseFailure(withCode(code)), null, code);
    assert.equal(databaseFailure(new Error('boom')), null);
    assert.equal(databaseFailure(null), null);
  });
});
