/**
 * `database.transact`: on SQLite concurrent units share one commit (group commit), and each unit
 * stays atomic on its own; on PostgreSQL each unit is its own transaction. Same contract on both.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';

for (const dialect of dialects()) {
  describe(`database.transact (${dialect.name})`, () => {
    let test: TestDatabase;
    let database: Database;
    const names = async () =>
      (await database.db.selectFrom('service_keys').select('name').where('name', 'like', 'unit-%').orderBy('name').execute()).map(
        (r) => r.name,
      );
    const insert = (name: string) => (tx: Parameters<Parameters<Database['transact']>[0]>[0]) =>
      tx.insertInto('service_keys').values({ name, value: 'v', created_at: '2026-11-21T00:00:00.000Z' }).execute();

    before(async () => {
      test = await dialect.create();
      database = createDatabase(test.url);
      await migrateToLatest(database.db);
    });
    after(async () => {
      await database.close();
      await test.drop();
    });
    beforeEach(async () => {
      await database.db.deleteFrom('service_keys').where('name', 'like', 'unit-%').execute();
    });

    it('commits every unit of 100 concurrent ones and answers each with its own result', async () => {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          database.transact(async (tx) => {
            await insert(`unit-${String(i).padStart(3, '0')}`)(tx);
            return i * 2;
          }),
        ),
      );
      assert.deepEqual(
        results,
        Array.from({ length: 100 }, (_, i) => i * 2),
      );
      assert.equal((await names()).length, 100);
    });

    it('rolls back only the unit that throws; its neighbours in the same batch are stored', async () => {
      const outcomes = await Promise.allSettled([
        database.transact(insert('unit-a')),
        database.transact(async (tx) => {
          await insert('unit-b')(tx);
          throw new Error('unit b fails after writing');
        }),
        database.transact(insert('unit-c')),
        // A constraint violation inside a unit: the same name twice.
        database.transact(async (tx) => {
          await insert('unit-d')(tx);
          await insert('unit-d')(tx);
        }),
        database.transact(insert('unit-e')),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled'],
      );
      assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /unit b fails/);
      assert.deepEqual(await names(), ['unit-a', 'unit-c', 'unit-e']);
    });

    it('answers no unit before its commit: a unit sees its own batch, a later reader sees all', async () => {
      const seen = await Promise.all(
        ['unit-x', 'unit-y'].map((name) =>
          database.transact(async (tx) => {
            await insert(name)(tx);
            return (await tx.selectFrom('service_keys').select('name').where('name', '=', name).execute()).length;
          }),
        ),
      );
      assert.deepEqual(seen, [1, 1]);
      assert.deepEqual(await names(), ['unit-x', 'unit-y']);
    });
  });
}
