/**
 * A unit of work (src/db/unit-of-work.ts) on its own transaction: what it deferred is written
 * right before its commit, in the order it was added, and not at all when the unit fails.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createDatabase, type Database } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { type DeferredWrites, Gate, runUnitOfWork, type UnitOfWork } from '../../../src/db/unit-of-work.js';
import { holdBatches } from '../../helpers/batch-gate.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

for (const dialect of dialects()) {
  describe(`runUnitOfWork (${dialect.name})`, () => {
    let test: TestDatabase;
    let database: Database;
    /** A deferred kind that stores each item as a service key and records the batches it was given. */
    const flushed: string[][] = [];
    const keys: DeferredWrites<string> = {
      name: 'audit trail',
      flush: async (tx, items) => {
        flushed.push([...items]);
        await tx
          .insertInto('service_keys')
          .values(items.map((name) => ({ name, value: 'v', created_at: '2026-11-24T00:00:00.000Z' })))
          .execute();
      },
    };
    const stored = async () =>
      (await database.db.selectFrom('service_keys').select('name').where('name', 'like', 'uow-%').orderBy('name').execute()).map(
        (r) => r.name,
      );

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
      flushed.splice(0);
      await database.db.deleteFrom('service_keys').where('name', 'like', 'uow-%').execute();
    });

    it('writes what the unit deferred once, in order, at its commit, and answers the unit result', async () => {
      const result = await runUnitOfWork(database.db, async (unit) => {
        unit.defer(keys, 'uow-b');
        unit.defer(keys, 'uow-a');
        assert.deepEqual(flushed, [], 'nothing is written before the unit ends');
        return 42;
      });
      assert.equal(result, 42);
      assert.deepEqual(flushed, [['uow-b', 'uow-a']]);
      assert.deepEqual(await stored(), ['uow-a', 'uow-b']);
    });

    it('writes nothing it deferred when the unit throws', async () => {
      await assert.rejects(
        runUnitOfWork(database.db, async (unit) => {
          unit.defer(keys, 'uow-never');
          throw new Error('the unit fails');
        }),
        /the unit fails/,
      );
      assert.deepEqual(flushed, []);
      assert.ok(!(await stored()).includes('uow-never'));
    });

    it('writes kinds by their place, and a gated item only if the earlier kind opened its gate', async () => {
      const gates = new Map<string, Gate>();
      /** Stored first (place 2, before 3): opens the gate of each item it stores, closes the one of a `-skip` item. */
      const rows: DeferredWrites<string> = {
        name: 'filed requests',
        flush: async (tx, items) => {
          flushed.push(['rows', ...items]);
          for (const item of items) gates.get(item)!.settle(!item.endsWith('-skip'));
          await keys.flush(
            tx,
            items.filter((item) => !item.endsWith('-skip')),
          );
        },
      };
      await runUnitOfWork(database.db, async (unit) => {
        unit.defer(keys, 'uow-plain');
        for (const name of ['uow-a', 'uow-b-skip']) {
          const gate = new Gate();
          gates.set(name, gate);
          unit.defer(rows, name);
          unit.gated(gate).defer(keys, `${name}-entry`);
        }
      });
      assert.deepEqual(flushed, [['rows', 'uow-a', 'uow-b-skip'], ['uow-a'], ['uow-plain', 'uow-a-entry']]);
      assert.deepEqual(await stored(), ['uow-a', 'uow-a-entry', 'uow-plain']);
    });

    it("writes what a kind's flush defers to a later place, and refuses what it defers to its own or an earlier one", async () => {
      /** place 3: stores its items, and defers an entry of each to the audit trail (place 4) through the unit its item carries. */
      const tasks: DeferredWrites<{ name: string; unit: UnitOfWork }> = {
        name: 'opt-out propagation',
        flush: async (tx, items) => {
          flushed.push(['tasks', ...items.map((i) => i.name)]);
          await keys.flush(
            tx,
            items.map((i) => i.name),
          );
          for (const item of items) item.unit.defer(keys, `${item.name}-entry`);
        },
      };
      await runUnitOfWork(database.db, async (unit) => {
        unit.defer(tasks, { name: 'uow-task', unit });
      });
      assert.deepEqual(
        flushed,
        [['tasks', 'uow-task'], ['uow-task'], ['uow-task-entry']],
        'the audit trail was not in use before the flush',
      );
      assert.deepEqual(await stored(), ['uow-task', 'uow-task-entry']);

      /** place 4 deferring to place 3: it would never be written. */
      const late: DeferredWrites<UnitOfWork> = {
        name: 'audit trail',
        flush: async (_tx, units) => {
          for (const u of units) u.defer(tasks, { name: 'uow-never', unit: u });
        },
      };
      await assert.rejects(
        runUnitOfWork(database.db, async (unit) => {
          unit.defer(late, unit);
        }),
        /opt-out propagation was deferred after its place was written/,
      );
      assert.ok(!(await stored()).includes('uow-never'));
    });

    it('writes an item gated twice only when both gates are open, and never reads the inner one behind a closed outer one', async () => {
      const outer = new Map<string, Gate>();
      const inner = new Map<string, Gate>();
      /** place 1: opens an outer gate unless the item ends in `-out`. */
      const claims: DeferredWrites<string> = {
        name: 'idempotency claims',
        flush: async (_tx, items) => {
          for (const item of items) outer.get(item)!.settle(!item.endsWith('-out'));
        },
      };
      /** place 2: opens an inner gate unless the item ends in `-in` (reached only behind an open outer gate). */
      const rows: DeferredWrites<string> = {
        name: 'filed requests',
        flush: async (_tx, items) => {
          flushed.push(['rows', ...items]);
          for (const item of items) inner.get(item)!.settle(!item.endsWith('-in'));
        },
      };
      await runUnitOfWork(database.db, async (unit) => {
        for (const name of ['uow-both', 'uow-closed-out', 'uow-closed-in']) {
          const claim = new Gate();
          const row = new Gate();
          outer.set(name, claim);
          inner.set(name, row);
          unit.defer(claims, name);
          const claimed = unit.gated(claim);
          claimed.defer(rows, name);
          claimed.gated(row).defer(keys, `${name}-entry`);
        }
      });
      assert.deepEqual(flushed, [['rows', 'uow-both', 'uow-closed-in'], ['uow-both-entry']]);
      assert.deepEqual(await stored(), ['uow-both-entry']);
    });

    it('fails a flush that reads a gate nobody settled', async () => {
      await assert.rejects(
        runUnitOfWork(database.db, async (unit) => unit.gated(new Gate()).defer(keys, 'uow-unsettled')),
        /gate nobody settled/,
      );
      assert.ok(!(await stored()).includes('uow-unsettled'));
    });

    it('groups the deferred writes of a write batch into one flush per kind', async () => {
      const hold = await holdBatches(database);
      const units = ['uow-x', 'uow-y', 'uow-z'].map((name) => database.transact(async (unit) => unit.defer(keys, name)));
      await hold.release();
      await Promise.all(units);
      assert.deepEqual(flushed, [['uow-x', 'uow-y', 'uow-z']], 'one batch, one flush, in unit order');
      assert.deepEqual(await stored(), ['uow-x', 'uow-y', 'uow-z']);
    });
  });
}
