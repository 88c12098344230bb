/**
 * On SQLite, the requests that queued for the one connection behind a write transaction do not all
 * run in one turn of the event loop once it commits (src/db/sqlite-turns.ts, write-batcher.ts
 * `turnsBetweenUnits`): `/healthz`, timers and sockets get a turn every few milliseconds (issue 23,
 * the `task-result` bench row). Counted in turns, not timed: each reader and each unit does 5 ms of
 * work, so a turn holds at most a few of them; before, one turn held all of them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sqliteDatabase } from '../../helpers/databases.js';
import { useMigratedDatabase } from '../../helpers/migrated-database.js';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

/** Counts turns of the event loop (check phases) until stopped. */
function turnCounter(): { now: () => number; stop: () => void } {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turn, stop: () => (running = false) };
}

/** The most entries of `turns` that share one value. */
function mostInOneTurn(turns: number[]): number {
  const counts = new Map<number, number>();
  for (const t of turns) counts.set(t, (counts.get(t) ?? 0) + 1);
  return Math.max(...counts.values());
}

describe('SQLite connection handed on in turns', () => {
  const opened = useMigratedDatabase(sqliteDatabase);

  it('readers queued behind a transaction run a few per turn, in the order they came', async () => {
    const database = opened();
    const turns = turnCounter();
    let release!: () => void;
    const held = database.db.transaction().execute(() => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setImmediate(resolve));
    const ranIn: number[] = [];
    const order: number[] = [];
    const readers = Array.from({ length: 20 }, async (_, i) => {
      await database.db.selectFrom('service_keys').select('name').execute();
      order.push(i);
      ranIn.push(turns.now());
      busy(5);
    });
    release();
    await Promise.all([held, ...readers]);
    turns.stop();
    assert.deepEqual(order, [...Array(20).keys()]);
    assert.ok(mostInOneTurn(ranIn) <= 3, `one turn ran ${mostInOneTurn(ranIn)} of 20 readers`);
  });

  it("a write batch's units run a few per turn", async () => {
    const database = opened();
    const turns = turnCounter();
    const ranIn: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        database.transact(async ({ tx }) => {
          await tx
            .insertInto('service_keys')
            .values({ name: `turns-${i}`, value: 'v', created_at: '2026-11-28T00:00:00.000Z' })
            .execute();
          ranIn.push(turns.now());
          busy(5);
        }),
      ),
    );
    turns.stop();
    assert.equal(ranIn.length, 20);
    assert.ok(mostInOneTurn(ranIn) <= 3, `one turn ran ${mostInOneTurn(ranIn)} of 20 units`);
  });
});
