import type { Wakeups } from '../db/wakeup.js';

/** A loop's wait between two claims that found nothing: the poll, cut short by a wake-up. */
export interface IdleWait {
  /**
   * Waits `pollMs`, or until {@link wake}; returns at once when a wake-up came since the last
   * {@link clear} (a commit during the claim that found nothing: its work was not seen yet).
   */
  wait(): Promise<void>;
  /** Ends the current wait, or makes the next one return at once. */
  wake(): void;
  /** Forgets a wake-up that came before now: called right before a claim, which sees that commit. */
  clear(): void;
  /** Stops listening to the database's wake-ups (the loop stopped). */
  close(): void;
}

/**
 * The idle wait of a background loop (request worker, task runner, mail loop), woken by every
 * committed unit of work of `wakeups` (db/wakeup.ts; omitted: the poll alone). The poll stays
 * the safety net: a lost wake-up costs one `pollMs`.
 *
 * @param pollMs - the longest wait, ms (`WORKER_POLL_MS`).
 */
export function createIdleWait(pollMs: number, wakeups?: Wakeups): IdleWait {
  let pending = false;
  let resolveWait: (() => void) | undefined;
  const wake = () => {
    const resolve = resolveWait;
    if (resolve) resolve();
    else pending = true;
  };
  const unsubscribe = wakeups?.subscribe(wake);
  return {
    wake,
    clear: () => {
      pending = false;
    },
    close: () => unsubscribe?.(),
    wait: () =>
      new Promise<void>((resolve) => {
        if (pending) {
          pending = false;
          return resolve();
        }
        const timer = setTimeout(done, pollMs);
        function done() {
          clearTimeout(timer);
          resolveWait = undefined;
          resolve();
        }
        resolveWait = done;
      }),
  };
}
