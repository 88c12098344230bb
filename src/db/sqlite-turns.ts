/**
 * The one SQLite connection's lock, handed on in turns of the event loop.
 *
 * @module
 */

/**
 * How long, ms, waiters may be handed the connection one after another in the same turn of the
 * event loop (counted from the last time the lock made one wait for a turn).
 */
export const SQLITE_HANDOVER_SLICE_MS = 4;

/**
 * A FIFO lock on the one better-sqlite3 connection that Kysely's `SqliteDriver` shares between
 * queries and transactions.
 *
 * Kysely's own mutex releases its waiters in microtasks. better-sqlite3 is synchronous, so every
 * request that queued behind a write transaction then ran (its query, and its handler's work up
 * to its next macrotask) in one microtask drain: a single turn of the event loop that lasted
 * 300–600 ms while results of 64 KiB arrived, and `/healthz`, timers and every socket waited for
 * it (bench `task-result` row, issue 23). Here a waiter is handed the connection in the same turn
 * only while less than {@link SQLITE_HANDOVER_SLICE_MS} have passed since the lock last gave a
 * turn away; otherwise it gets it on the next turn (`setImmediate`), after the I/O that came
 * meanwhile. What it saves: the event loop's longest block under load, for one `setImmediate` per
 * slice.
 */
export class TurnTakingLock {
  private held = false;
  private readonly waiters: (() => void)[] = [];
  private lastTurn = 0;

  /** Resolves once the caller holds the lock (at once when it is free). */
  lock(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Hands the lock to the longest waiter (now or on the next turn), or frees it. */
  unlock(): void {
    const next = this.waiters.shift();
    if (next === undefined) {
      this.held = false;
      return;
    }
    if (performance.now() - this.lastTurn < SQLITE_HANDOVER_SLICE_MS) return next();
    setImmediate(() => {
      this.lastTurn = performance.now();
      next();
    });
  }
}
