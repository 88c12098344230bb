import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from './schema.js';

/** Runs `work` in a transaction and resolves with its result once that transaction has committed. */
export type Transact = <T>(work: (tx: Transaction<DB>) => Promise<T>) => Promise<T>;

interface Pending {
  work: (tx: Transaction<DB>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The most units of work one commit carries. */
export const MAX_BATCH = 64;

async function runInSavepoint(
  tx: Transaction<DB>,
  item: Pending,
): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
  await sql`savepoint unit_of_work`.execute(tx);
  try {
    const value = await item.work(tx);
    await sql`release savepoint unit_of_work`.execute(tx);
    return { ok: true, value };
  } catch (error) {
    // Undo this unit only; the others in the batch keep their writes. If SQLite already rolled
    // the whole transaction back (SQLITE_FULL, an I/O error), the savepoint is gone: the batch
    // fails with this unit's error, which names the real cause.
    try {
      await sql`rollback to savepoint unit_of_work`.execute(tx);
      await sql`release savepoint unit_of_work`.execute(tx);
    } catch {
      throw error;
    }
    return { ok: false, error };
  }
}

/**
 * Group commit for SQLite: units of work that arrive while a commit is under way are run, each in
 * its own savepoint, inside one transaction, and committed together. SQLite admits one writer
 * and a commit costs far more than a small insert, so this multiplies write throughput under
 * concurrency while keeping every unit atomic: a unit that throws is rolled back to its
 * savepoint and only its caller sees the error; if the commit itself fails, every caller of that
 * batch sees the error and nothing of the batch is stored. No caller is answered before its
 * commit. (Same idea as PostgreSQL's group commit of concurrent WAL flushes.)
 *
 * Never used on PostgreSQL: there, batching row-locking units from several processes could
 * deadlock, and concurrent connections already share WAL flushes.
 *
 * @param maxBatch - the most units per commit ({@link MAX_BATCH}).
 */
export function createWriteBatcher(db: Kysely<DB>, maxBatch = MAX_BATCH): Transact {
  const queue: Pending[] = [];
  let draining = false;

  async function commitBatch(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await db.transaction().execute(async (tx) => {
        const results = [];
        for (const item of batch) results.push(await runInSavepoint(tx, item));
        return results;
      });
      outcomes.forEach((outcome, i) => (outcome.ok ? batch[i]!.resolve(outcome.value) : batch[i]!.reject(outcome.error)));
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  }

  async function drain(): Promise<void> {
    draining = true;
    try {
      while (queue.length > 0) await commitBatch(queue.splice(0, maxBatch));
    } finally {
      draining = false;
    }
  }

  return <T>(work: (tx: Transaction<DB>) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!draining) void drain();
    });
}

/** One transaction per unit of work: PostgreSQL's way (see {@link createWriteBatcher}). */
export function transactEach(db: Kysely<DB>): Transact {
  return (work) => db.transaction().execute(work);
}
