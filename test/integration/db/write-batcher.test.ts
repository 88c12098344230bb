/**
 * `database.transact`: concurrent units share one commit (group commit), and each unit stays
 * atomic on its own, on SQLite and PostgreSQL alike. On PostgreSQL, units of two processes that
 * deadlock on crossing duplicates are run again instead of failing.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase, type Database } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import type { UnitOfWork } from '../../../src/db/unit-of-work.js';
import { holdBatches } from '../../helpers/batch-gate.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

type Unit = (unit: UnitOfWork) => Promise<unknown>;

/** Submits `units` so that they run as one batch (see holdBatches); settles each. */
async function inOneBatch(database: Database, units: Unit[]): Promise<PromiseSettledResult<unknown>[]> {
  const hold = await holdBatches(database);
  const settled = Promise.allSettled(units.map((unit) => database.transact(unit)));
  await hold.release();
  return settled;
}

for (const dialect of dialects()) {
  describe(`database.transact (${dialect.name})`, () => {
    let test: TestDatabase;
    let database: Database;
    const names = async () =>
      (await database.db.selectFrom('service_keys').select('name').where('name', 'like', 'unit-%').orderBy('name').execute()).map(
        (r) => r.name,
      );
    const insert =
      (name: string) =>
      ({ tx }: UnitOfWork) =>
        tx.insertInto('service_keys').values({ name, value: 'v', created_at: '2026-11-21T00:00:00.000Z' }).execute();

    before(async () => {
      test = await dialect.create();
      database = createDatabase(test.url);
      await migrateToLatest(database.db);
      // A child whose parent is checked at COMMIT only: a unit can insert a dangling one and
      // succeed, and the batch's commit then fails.
      await sql`create table batch_parent (id varchar(20) primary key)`.execute(database.db);
      await sql`create table batch_child (id varchar(20) primary key, parent varchar(20) references batch_parent (id) deferrable initially deferred)`.execute(
        database.db,
      );
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
          database.transact(async ({ tx }) => {
            await tx
              .insertInto('service_keys')
              .values({ name: `unit-${String(i).padStart(3, '0')}`, value: 'v', created_at: '2026-11-21T00:00:00.000Z' })
              .execute();
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
      const outcomes = await inOneBatch(database, [
        insert('unit-a'),
        async (tx) => {
          await insert('unit-b')(tx);
          throw new Error('unit b fails after writing');
        },
        insert('unit-c'),
        // A constraint violation inside a unit: the same name twice.
        async (tx) => {
          await insert('unit-d')(tx);
          await insert('unit-d')(tx);
        },
        insert('unit-e'),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled'],
      );
      assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /unit b fails/);
      assert.match(String((outcomes[3] as PromiseRejectedResult).reason), /unique|UNIQUE/);
      assert.deepEqual(await names(), ['unit-a', 'unit-c', 'unit-e']);
    });

    it('a failed commit rejects every unit of the batch and stores none of it', async () => {
      const outcomes = await inOneBatch(database, [
        insert('unit-f'),
        ({ tx }) =>
          tx
            .insertInto('batch_child' as never)
            .values({ id: 'orphan', parent: 'missing' } as never)
            .execute(),
        insert('unit-g'),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['rejected', 'rejected', 'rejected'],
      );
      for (const outcome of outcomes) assert.match(String((outcome as PromiseRejectedResult).reason), /foreign key|FOREIGN KEY/);
      assert.deepEqual(await names(), []);
      const children = await sql<{ n: number }>`select count(*) as n from batch_child`.execute(database.db);
      assert.equal(Number(children.rows[0]?.n), 0);
      // The batcher goes on: the next unit commits on its own.
      await database.transact(insert('unit-h'));
      assert.deepEqual(await names(), ['unit-h']);
    });

    it('answers no unit before its commit: a unit sees its own batch, a later reader sees all', async () => {
      const seen = await Promise.all(
        ['unit-x', 'unit-y'].map((name) =>
          database.transact(async (unit) => {
            const { tx } = unit;
            await insert(name)(unit);
            return (await tx.selectFrom('service_keys').select('name').where('name', '=', name).execute()).length;
          }),
        ),
      );
      assert.deepEqual(seen, [1, 1]);
      assert.deepEqual(await names(), ['unit-x', 'unit-y']);
    });

    if (dialect.name === 'postgres') {
      it('runs concurrent units in one PostgreSQL transaction', async () => {
        const outcomes = await inOneBatch(
          database,
          Array.from(
            { length: 5 },
            () =>
              async ({ tx }: UnitOfWork) =>
                (await sql<{ id: string }>`select txid_current()::text as id`.execute(tx)).rows[0]?.id,
          ),
        );
        const ids = outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason));
        assert.equal(new Set(ids).size, 1, `one transaction id expected, got ${ids.join()}`);
      });

      it('two processes sending crossing duplicates: the deadlocked unit is run again, every unit answers', async () => {
        // A second "process" on the same schema. Each side's batch inserts X then Y, the other Y
        // then X, with the first inserts of both uncommitted before the second ones start: each
        // second insert waits for the other side's transaction, a cycle PostgreSQL breaks by
        // aborting one of them with 40P01.
        const other = createDatabase(test.url);
        try {
          const codes: string[] = [];
          const claim =
            (name: string) =>
            async ({ tx }: UnitOfWork) => {
              try {
                const row = await tx
                  .insertInto('service_keys')
                  .values({ name, value: 'v', created_at: '2026-11-21T00:00:00.000Z' })
                  .onConflict((oc) => oc.column('name').doNothing())
                  .returning('name')
                  .executeTakeFirst();
                return row ? 'stored' : 'duplicate';
              } catch (error) {
                codes.push(String((error as { code?: unknown }).code));
                throw error;
              }
            };
          const latch = () => {
            let open!: () => void;
            return { promise: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
          };
          const [aFirst, bFirst] = [latch(), latch()];
          const first =
            (name: string, mine: ReturnType<typeof latch>, theirs: ReturnType<typeof latch>) => async (unit: UnitOfWork) => {
              const result = await claim(name)(unit);
              mine.open();
              await theirs.promise;
              return result;
            };
          const [a, b] = await Promise.all([
            inOneBatch(database, [first('unit-x', aFirst, bFirst), claim('unit-y')]),
            inOneBatch(other, [first('unit-y', bFirst, aFirst), claim('unit-x')]),
          ]);
          const values = [...a, ...b].map((o) => (o.status === 'fulfilled' ? o.value : `rejected: ${String(o.reason)}`));
          // Which side stores which key depends on whose transaction PostgreSQL aborted; each key
          // is stored by exactly one unit and answered as a duplicate to the other.
          const [aX, aY, bY, bX] = values;
          assert.deepEqual([aX, bX].sort(), ['duplicate', 'stored'], 'unit-x');
          assert.deepEqual([aY, bY].sort(), ['duplicate', 'stored'], 'unit-y');
          assert.deepEqual(codes, ['40P01'], 'exactly one unit was aborted by the deadlock, and then run again');
          assert.deepEqual(await names(), ['unit-x', 'unit-y']);
        } finally {
          await other.close();
        }
      });
    }
  });
}
