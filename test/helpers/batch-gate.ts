import { type Database, PG_BATCHES_IN_FLIGHT } from '../../src/db/database.js';

/**
 * Holds every batch slot of `database.transact` (1 on SQLite, {@link PG_BATCHES_IN_FLIGHT} on
 * PostgreSQL) with a unit that waits and writes nothing, so that units submitted meanwhile queue
 * up and run together, in submission order, as ONE batch once released (up to MAX_BATCH units).
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
  const slots = database.dialect === 'postgres' ? PG_BATCHES_IN_FLIGHT : 1;
  const holders: Promise<void>[] = [];
  for (let slot = 0; slot < slots; slot++) {
    holders.push(database.transact(() => gate));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return {
    release: async () => {
      open();
      await Promise.all(holders);
    },
  };
}

/**
 * `database` with a `transact` that counts the units submitted to it, for tests that must know
 * when service calls (which read before they write) have queued their unit.
 */
export function countingTransact(database: Database): { database: Database; submitted: () => number } {
  let submitted = 0;
  const transact: Database['transact'] = (work) => {
    submitted++;
    return database.transact(work);
  };
  return { database: { ...database, transact }, submitted: () => submitted };
}
