import type { Logger } from 'pino';
import type { Database } from './database.js';

/**
 * Waits between checkpoint attempts, ms: quick at first (a reader's snapshot usually ends within
 * milliseconds), then every 5 s; about one minute in all before {@link checkpointUntilClean} gives up.
 */
export const CHECKPOINT_RETRY_DELAYS_MS: readonly number[] = [
  20, 50, 100, 250, 500, 1000, 2000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000,
];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Checkpoints the WAL until it is clean (SQLite; PostgreSQL is clean at once): tries, and while
 * a reader in another process holds an older snapshot, tries again after each of `delaysMs`
 * (timers, never a busy wait). Logs a warning when it gives up (no data in the line).
 *
 * @param deps.onAttempt - told each attempt's result (`clean` or `busy`), e.g. for a metric.
 * @returns true once clean; false when every retry found the WAL busy.
 * @throws whatever the database throws.
 */
export async function checkpointUntilClean(
  database: Pick<Database, 'checkpoint' | 'dialect'>,
  deps: {
    log: Logger;
    onAttempt?: (result: 'clean' | 'busy') => void;
    delaysMs?: readonly number[];
    /** Waits between attempts (default a plain timer); the worker's is cut short, and throws, at SIGTERM. */
    wait?: (ms: number) => Promise<void>;
  },
): Promise<boolean> {
  if (database.dialect !== 'sqlite') return true;
  const delays = deps.delaysMs ?? CHECKPOINT_RETRY_DELAYS_MS;
  for (let attempt = 0; ; attempt++) {
    const clean = await database.checkpoint();
    deps.onAttempt?.(clean ? 'clean' : 'busy');
    if (clean) return true;
    const delay = delays[attempt];
    if (delay === undefined) {
      deps.log.warn(
        { attempts: attempt + 1 },
        'WAL checkpoint still busy (another process holds a read snapshot); giving up for now',
      );
      return false;
    }
    await (deps.wait ?? sleep)(delay);
  }
}
