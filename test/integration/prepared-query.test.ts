/** db/prepared-query.ts: compiled once per dialect, run with new values, same results as Kysely. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { preparedQuery } from '../../src/db/prepared-query.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';

type KeyRow = { name: string; value: string; created_at: string };

const insertKey = preparedQuery<KeyRow, never>(['name', 'value', 'created_at'], (db, row) =>
  db.insertInto('service_keys').values(row),
);
const keysNamed = preparedQuery<{ prefix: string }, { name: string; value: string }>(['prefix'], (db, p) =>
  db.selectFrom('service_keys').select(['name', 'value']).where('name', 'like', p.prefix).orderBy('name'),
);

for (const dialect of dialects()) {
  describe(`preparedQuery (${dialect.name})`, () => {
    let test: TestDatabase;
    let database: Database;
    before(async () => {
      test = await dialect.create();
      database = createDatabase(test.url);
      await migrateToLatest(database.db);
    });
    after(async () => {
      await database.close();
      await test.drop();
    });

    it('binds new values on every run, on the database and inside a transaction', async () => {
      await insertKey(database.db, { name: 'pq-a', value: 'one', created_at: '2026-11-21T00:00:00.000Z' });
      await database.db.transaction().execute(async (tx) => {
        await insertKey(tx, { name: 'pq-b', value: "two 'quoted' ?", created_at: '2026-11-21T00:00:01.000Z' });
      });
      const prepared = (await keysNamed(database.db, { prefix: 'pq-%' })).rows;
      const plain = await database.db
        .selectFrom('service_keys')
        .select(['name', 'value'])
        .where('name', 'like', 'pq-%')
        .orderBy('name')
        .execute();
      assert.deepEqual(prepared, plain);
      assert.deepEqual(prepared, [
        { name: 'pq-a', value: 'one' },
        { name: 'pq-b', value: "two 'quoted' ?" },
      ]);
      assert.deepEqual((await keysNamed(database.db, { prefix: 'pq-b%' })).rows, [{ name: 'pq-b', value: "two 'quoted' ?" }]);
    });

    it('refuses a build that does not bind every named parameter as a value', async () => {
      const broken = preparedQuery<{ name: string; unused: string }, { name: string }>(['name', 'unused'], (db, p) =>
        db.selectFrom('service_keys').select('name').where('name', '=', p.name),
      );
      await assert.rejects(broken(database.db, { name: 'x', unused: 'y' }), /does not bind unused/);
    });
  });
}
