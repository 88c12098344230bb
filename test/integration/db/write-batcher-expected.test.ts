/**
 * The write batcher's expected units (db/write-batcher.ts "Expected units", db/expected-units.ts):
 * a batch about to start waits for the units announced before it, and for no other, and never
 * past its bound; on SQLite and PostgreSQL alike. Whether two units shared a batch is read from
 * the transaction their unit of work was given (one per batch).
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { Transaction } from 'kysely';
import type { DB } from '../../../src/db/schema.js';
import { createWriteBatcher, type WriteBatcher } from '../../../src/db/write-batcher.js';
import { dialects } from '../../helpers/databases.js';
import { useMigratedDatabase } from '../../helpers/migrated-database.js';

/** Long enough that a batch waiting for a unit that never comes is seen waiting (the bound is tested below). */
const LONG_WAIT_MS = 60_000;

for (const dialect of dialects()) {
  describe(`write batcher: expected units (${dialect.name})`, () => {
    const database = useMigratedDatabase(dialect.create);
    let serial = 0;
    /** A unit that stores a row and resolves with the transaction it ran in. */
    const storing = (batcher: WriteBatcher): Promise<Transaction<DB>> =>
      batcher(async ({ tx }) => {
        serial += 1;
        await tx
          .insertInto('service_keys')
          .values({ name: `expected-${serial}`, value: 'v', created_at: '2026-12-08T00:00:00.000Z' })
          .execute();
        return tx;
      });
    /** Resolves with `promise`'s value, or with 'still waiting' when it has not settled within `ms`. */
    const within = <T>(promise: Promise<T>, ms: number) =>
      Promise.race([promise, delay(ms, 'still waiting' as const, { ref: false })]);

    it('a batch waits for a unit announced before it, and both share its commit', async () => {
      const batcher = createWriteBatcher(database().db, { expectedWaitMs: LONG_WAIT_MS });
      const submitted = batcher.expect();
      const first = storing(batcher);
      await delay(20);
      assert.equal(await within(first, 0), 'still waiting', 'the batch waits for the announced unit');
      submitted();
      const second = storing(batcher);
      assert.equal(await first, await second, 'one transaction: one commit');
    });

    it('without an announcement, a unit submitted later runs in a batch of its own', async () => {
      const batcher = createWriteBatcher(database().db, { expectedWaitMs: LONG_WAIT_MS });
      const first = storing(batcher);
      await delay(20);
      const second = storing(batcher);
      assert.notEqual(await first, await second);
    });

    it('does not wait for units announced after it began to wait', async () => {
      const batcher = createWriteBatcher(database().db, { expectedWaitMs: LONG_WAIT_MS });
      const earlier = batcher.expect();
      const first = storing(batcher);
      await delay(20);
      const later = batcher.expect();
      earlier();
      earlier(); // settling twice is settling once
      const tx = await within(first, 5_000);
      assert.notEqual(tx, 'still waiting', 'the batch started once the unit announced before it settled');
      later();
    });

    it('a unit announced and never submitted holds a batch no longer than the bound', async () => {
      const batcher = createWriteBatcher(database().db, { expectedWaitMs: 50 });
      const never = batcher.expect();
      const first = storing(batcher);
      assert.notEqual(await within(first, 5_000), 'still waiting');
      const row = await database()
        .db.selectFrom('service_keys')
        .select('name')
        .where('name', '=', `expected-${serial}`)
        .executeTakeFirst();
      assert.ok(row, 'committed');
      never();
    });

    it('an announcement that held a batch for the whole bound holds no later batch', async () => {
      const batcher = createWriteBatcher(database().db, { expectedWaitMs: 2_000 });
      const stuck = batcher.expect();
      await storing(batcher); // held for the bound: the announcement is late from now on
      const next = storing(batcher);
      assert.notEqual(await within(next, 1_000), 'still waiting', 'not held again by the late announcement');
      const fresh = batcher.expect();
      const third = storing(batcher);
      await delay(20);
      assert.equal(await within(third, 0), 'still waiting', 'a new announcement holds a batch as before');
      fresh();
      await third;
      stuck();
    });

    it('a full batch starts at once, whatever is announced', async () => {
      const batcher = createWriteBatcher(database().db, { expectedWaitMs: LONG_WAIT_MS, maxBatch: 2 });
      const coming = batcher.expect();
      const units = [storing(batcher), storing(batcher)];
      const settled = await within(Promise.all(units), 5_000);
      assert.notEqual(settled, 'still waiting');
      coming();
    });
  });
}
