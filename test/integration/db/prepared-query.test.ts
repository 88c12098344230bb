/** db/prepared-query.ts: compiled once per dialect, run with new values, same results as Kysely. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase, type Database } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { preparedQuery, statementName } from '../../../src/db/prepared-query.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

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

    if (dialect.name === 'postgres') {
      it('runs as a named statement that the connection prepares once, and plain Kysely SQL stays unnamed', async () => {
        const prepared = await database.db.transaction().execute(async (tx) => {
          // One connection throughout: pg_prepared_statements lists that session's statements.
          for (const prefix of ['pq-a%', 'pq-b%', 'pq-c%']) await keysNamed(tx, { prefix });
          await tx.selectFrom('service_keys').select('name').where('name', '=', 'plain').execute();
          return (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(tx))
            .rows;
        });
        const sqlText = prepared.find((row) => row.statement.includes('"service_keys"') && row.statement.includes('like'));
        assert.ok(sqlText, `the prepared query is a prepared statement: ${JSON.stringify(prepared)}`);
        assert.equal(statementName(sqlText.statement), sqlText.name);
        assert.equal(prepared.filter((row) => row.statement === sqlText.statement).length, 1, 'prepared once');
        assert.ok(
          !prepared.some((row) => row.statement.includes(`"name" = $1`) && !row.statement.includes('like')),
          'plain SQL unnamed',
        );
      });

      it('a prepared statement keeps working on its connection after a migration adds a column', async () => {
        await database.db.transaction().execute(async (tx) => {
          assert.equal((await keysNamed(tx, { prefix: 'pq-a%' })).rows.length, 1);
          await sql`alter table service_keys add column extra text`.execute(tx);
          assert.deepEqual((await keysNamed(tx, { prefix: 'pq-a%' })).rows, [{ name: 'pq-a', value: 'one' }]);
          await sql`alter table service_keys drop column extra`.execute(tx);
        });
      });
    }

    it('refuses a build that does not bind every named parameter as a value', async () => {
      const broken = preparedQuery<{ name: string; unused: string }, { name: string }>(['name', 'unused'], (db, p) =>
        db.selectFrom('service_keys').select('name').where('name', '=', p.name),
      );
      await assert.rejects(broken(database.db, { name: 'x', unused: 'y' }), /does not bind unused/);
    });
  });
}
