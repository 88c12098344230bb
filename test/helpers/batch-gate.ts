import { type Database, PG_BATCHES_IN_FLIGHT } from '../../src/db/database.js';

/**
 * Holds every batch slot of `database.transact` (1 on SQLite, {@link PG_BATCHES_IN_FLIGHT} on
 * PostgreSQL) with a unit that waits and writes nothing, so that units submitted meanwhile queue
 * up and run together, in submission order, as ONE batch once released (up to MAX_BATCH units).
 *
 * @returns `release()`: lets the holding units finish; resolves when their batches committed.
 */
export function holdBatches(database: Database): { release: () => Promise<void> } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const slots = database.dialect === 'postgres' ? PG_BATCHES_IN_FLIGHT : 1;
  const holders = Array.from({ length: slots }, () => database.transact(() => gate));
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
