import { type Database, PG_BATCHES_IN_FLIGHT, PG_DEFERRED_BATCHES_IN_FLIGHT } from '../../src/db/database.js';
import type { Transact } from '../../src/db/write-batcher.js';

/**
 * Holds every batch slot of `database.transact` (1 on SQLite, {@link PG_BATCHES_IN_FLIGHT} on
 * PostgreSQL) and of `database.transactDeferred` (filings; the same batcher on SQLite,
 * {@link PG_DEFERRED_BATCHES_IN_FLIGHT} on PostgreSQL) with a unit that waits and writes
 * nothing, so that units submitted meanwhile queue up and run together, in submission order, as
 * ONE batch of their batcher once released (up to MAX_BATCH units).
 *
 * The batcher starts batches one event-loop turn after a unit is submitted (setImmediate), so
 * each holder is given its turn to start its own batch before the next is submitted.
 *
 * @returns once every slot is held; `release()` lets the holding units finish and resolves when
 *   their batches committed.
 */
export async function holdBatches(database: Database): Promise<{ release: () => Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const batchers: [Database['transact'], number][] =
    database.dialect === 'postgres'
      ? [
          [database.transact, PG_BATCHES_IN_FLIGHT],
          [database.transactDeferred, PG_DEFERRED_BATCHES_IN_FLIGHT],
        ]
      : [[database.transact, 1]];
  const holders: Promise<void>[] = [];
  for (const [transact, slots] of batchers) {
    for (let slot = 0; slot < slots; slot++) {
      holders.push(transact(() => gate));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return {
    release: async () => {
      open();
      await Promise.all(holders);
    },
  };
}

/**
 * `database` with a `transact` and a `transactDeferred` that count the units submitted to them,
 * for tests that must know when service calls (which read before they write) have queued their unit.
 */
export function countingTransact(database: Database): { database: Database; submitted: () => number } {
  let submitted = 0;
  const counting = (transact: Database['transact']): Database['transact'] => {
    const counted: Transact = (work) => {
      submitted++;
      return transact(work);
    };
    return Object.assign(counted, { expect: transact.expect });
  };
  return {
    database: { ...database, transact: counting(database.transact), transactDeferred: counting(database.transactDeferred) },
    submitted: () => submitted,
  };
}
