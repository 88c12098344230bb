import { type Kysely, sql, type Transaction } from 'kysely';
import { isPostgres } from './locking.js';
import type { DB } from './schema.js';

/**
 * The PostgreSQL channel a committing unit of work notifies (`NOTIFY privacy_work`, no payload)
 * and the worker's listening connection listens on. Channels are per database, not per schema.
 */
export const WAKEUP_CHANNEL = 'privacy_work';

/**
 * "Work may be ready": raised after every unit of work (db/unit-of-work.ts, db/write-batcher.ts)
 * committed, so the background loops (request worker, task runner, mail and outbound delivery)
 * claim at once instead of at their next poll. A hint, not a queue: a loop woken for nothing claims
 * nothing, and a wake-up that is lost costs one poll interval (the poll stays the safety net).
 */
export interface Wakeups {
  /**
   * Calls `listener` (no arguments, must not throw) on every wake-up from now on: after a unit
   * of work of this process committed, and on PostgreSQL after one of any process committed
   * (the listening connection is opened with the first listener and closed with the last).
   * @returns a function that removes the listener.
   */
  subscribe(listener: () => void): () => void;
  /** Wakes the listeners of this process (after a commit; the listening connection after a notification). */
  emit(): void;
  /** Closes the listening connection, if any (database close). */
  close(): Promise<void>;
}

/** Opens the cross-process half of {@link Wakeups}: calls `wake` on each notification. @returns how to close it. */
export type WakeupListen = (wake: () => void) => { close(): Promise<void> };

/**
 * The {@link Wakeups} of one database. `listen` (PostgreSQL: db/wakeup-listener.ts) is started
 * with the first subscriber and stopped with the last; without it (SQLite, one long-running
 * process per file) wake-ups stay in this process.
 */
export function createWakeups(listen?: WakeupListen): Wakeups {
  const listeners = new Set<() => void>();
  let listening: { close(): Promise<void> } | undefined;
  const emit = () => {
    for (const listener of [...listeners]) listener();
  };
  return {
    emit,
    subscribe(listener) {
      listeners.add(listener);
      if (listen && !listening) listening = listen(emit);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && listening) {
          void listening.close();
          listening = undefined;
        }
      };
    },
    async close() {
      listeners.clear();
      const open = listening;
      listening = undefined;
      await open?.close();
    },
  };
}

/** Each open database's wake-ups, by its Kysely instance (db/database.ts registers them at open). */
const byDatabase = new WeakMap<Kysely<DB>, Wakeups>();

/** Registers `wakeups` as those of `db`, so units of work committed on `db` raise them. */
export function registerWakeups(db: Kysely<DB>, wakeups: Wakeups): void {
  byDatabase.set(db, wakeups);
}

/**
 * In the committing transaction, right before COMMIT: on PostgreSQL `NOTIFY privacy_work`, which
 * the server delivers to every listening session only if and when the transaction commits (and
 * once per transaction however many units share it). Nothing on SQLite.
 */
export async function notifyAtCommit(tx: Transaction<DB>): Promise<void> {
  if (isPostgres(tx)) await sql`notify ${sql.id(WAKEUP_CHANNEL)}`.execute(tx);
}

/** After a transaction on `db` committed (never inside it): wakes this process's listeners. */
export function committed(db: Kysely<DB>): void {
  byDatabase.get(db)?.emit();
}
