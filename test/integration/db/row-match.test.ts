/**
 * db/row-match.ts: a lookup matches every column it names, `null` as IS NULL, and a column named
 * without a value is refused instead of being left out (which would match any row).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { findColumns, findRow, updateRows } from '../../../src/db/row-match.js';
import { dialects } from '../../helpers/databases.js';
import { useMigratedDatabase } from '../../helpers/migrated-database.js';

const at = '2026-11-28T00:00:00.000Z';

for (const dialect of dialects()) {
  describe(`row-match (${dialect.name})`, () => {
    const database = useMigratedDatabase(dialect.create);
    before(async () => {
      await database()
        .db.insertInto('service_keys')
        .values([
          { name: 'a', value: '1', created_at: at },
          { name: 'b', value: '2', created_at: at },
        ])
        .execute();
    });

    it('finds the row whose every named column matches', async () => {
      assert.equal((await findRow(database().db, 'service_keys', { name: 'b', value: '2' }))?.name, 'b');
      assert.equal(await findRow(database().db, 'service_keys', { name: 'b', value: '1' }), undefined);
      assert.deepEqual(await findColumns(database().db, 'service_keys', ['value'], { name: 'a' }), { value: '1' });
    });

    it('refuses a column named without a value instead of matching any row', async () => {
      const missing = undefined as unknown as string;
      await assert.rejects(findRow(database().db, 'service_keys', { name: missing }), TypeError);
      await assert.rejects(findColumns(database().db, 'service_keys', ['name'], { name: missing }), TypeError);
      await assert.rejects(updateRows(database().db, 'service_keys', { value: 'x' }, { name: missing }), TypeError);
      assert.deepEqual(
        (await database().db.selectFrom('service_keys').select('value').orderBy('name').execute()).map((r) => r.value),
        ['1', '2'],
      );
    });
  });
}
