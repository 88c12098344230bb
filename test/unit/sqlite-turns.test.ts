/**
 * TurnTakingLock (src/db/sqlite-turns.ts): the SQLite connection is handed on first come, first
 * served, in the same turn of the event loop only within a slice, on the next turn after it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SQLITE_HANDOVER_SLICE_MS, TurnTakingLock } from '../../src/db/sqlite-turns.js';
import { nextTurn } from '../../src/lib/yielding.js';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('TurnTakingLock', () => {
  it('hands the lock to its waiters in the order they asked', async () => {
    const lock = new TurnTakingLock();
    await lock.lock();
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) => lock.lock().then(() => order.push(n)));
    for (let i = 0; i < 3; i++) {
      lock.unlock();
      await Promise.race([...waiters, nextTurn().then(nextTurn)]);
      await nextTurn();
    }
    await Promise.all(waiters);
    assert.deepEqual(order, [1, 2, 3]);
  });

  it('is taken at once when free, and free again once its last holder unlocks', async () => {
    const lock = new TurnTakingLock();
    await lock.lock();
    lock.unlock();
    let got = false;
    void lock.lock().then(() => (got = true));
    await Promise.resolve();
    assert.equal(got, true);
  });

  it('after a slice of work, the next waiter gets the lock only on the next turn of the event loop', async () => {
    const lock = new TurnTakingLock();
    await lock.lock();
    let got = false;
    const waiter = lock.lock().then(() => (got = true));
    busy(SQLITE_HANDOVER_SLICE_MS + 2);
    lock.unlock();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    assert.equal(got, false, 'handed over in the same microtask drain');
    await waiter;
    assert.equal(got, true);
  });

  it('within a slice after a turn, the next waiter gets the lock in the same turn', async () => {
    const lock = new TurnTakingLock();
    await lock.lock();
    const first = lock.lock();
    let second = false;
    const secondWaiter = lock.lock().then(() => (second = true));
    busy(SQLITE_HANDOVER_SLICE_MS + 2);
    lock.unlock();
    await first; // on a turn of its own: the slice starts here
    lock.unlock();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    assert.equal(second, true, 'waited for a turn inside the slice');
    await secondWaiter;
  });
});
