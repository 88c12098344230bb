import pg from 'pg';
import { WAKEUP_CHANNEL, type WakeupListen } from './wakeup.js';

/** First wait before the listening connection is opened again after it was lost, ms; doubles per failure. */
export const LISTEN_RETRY_MIN_MS = 100;
/** Longest wait between two attempts to open the listening connection, ms. */
export const LISTEN_RETRY_MAX_MS = 10_000;
/** A connection attempt gives up after this long, ms (as the pool's). */
const LISTEN_CONNECT_TIMEOUT_MS = 3000;

/**
 * The cross-process half of the wake-ups on PostgreSQL (db/wakeup.ts): one dedicated session
 * (a `pg.Client`, not a pooled one: `LISTEN` belongs to the session, so it needs a session
 * connection, not a PgBouncer transaction-mode one) that runs `LISTEN privacy_work` and calls
 * `wake` on each notification. When the session is lost (server restart, `pg_terminate_backend`,
 * network), it is opened again after {@link LISTEN_RETRY_MIN_MS}, doubling up to
 * {@link LISTEN_RETRY_MAX_MS}; once listening again it calls `wake` once, since a commit may have
 * been missed meanwhile. Errors are not thrown nor logged here: the poll covers the gap.
 *
 * @param url - the `DATABASE_URL` (with its `options`, e.g. the search path; the channel is per database).
 */
export function pgWakeupListener(url: string): WakeupListen {
  return (wake) => {
    let closed = false;
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    let failures = 0;

    const lost = (which: pg.Client) => {
      if (which !== client) return;
      client = undefined;
      which.removeAllListeners('notification');
      void which.end().catch(() => undefined);
      if (closed) return;
      const delay = Math.min(LISTEN_RETRY_MAX_MS, LISTEN_RETRY_MIN_MS * 2 ** Math.min(failures, 20));
      failures += 1;
      retry = setTimeout(open, delay);
    };

    function open(): void {
      retry = undefined;
      if (closed) return;
      const next = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: LISTEN_CONNECT_TIMEOUT_MS });
      client = next;
      next.on('error', () => lost(next));
      next.on('end', () => lost(next));
      next.on('notification', (message) => {
        if (message.channel === WAKEUP_CHANNEL) wake();
      });
      next
        .connect()
        .then(() => next.query(`listen ${WAKEUP_CHANNEL}`))
        .then(() => {
          if (next !== client) return;
          failures = 0;
          wake();
        })
        .catch(() => lost(next));
    }

    open();
    return {
      async close() {
        closed = true;
        clearTimeout(retry);
        const open = client;
        client = undefined;
        await open?.end().catch(() => undefined);
      },
    };
  };
}
