import type { Logger } from 'pino';
import type { Wakeups } from '../db/wakeup.js';
import {
  claimForDelivery,
  DEFAULT_ENDPOINT_CONCURRENCY,
  deliverClaimed,
  type DelivererOptions,
  EndpointSpeeds,
} from '../modules/outbound-events/deliverer.js';

/** A running delivery loop; `stop()` resolves after the attempts in flight ended. */
export interface DeliveryLoop {
  stop(): Promise<void>;
}

/**
 * How long after an attempt ends the loop claims again: the ends within it share one claim. 2 ms,
 * not 10: with a fast receiver the wait was a pause per claim cycle (bench/README.md, "Fair
 * delivery and throughput").
 */
const COALESCE_MS = 2;

/** Default of `OUTBOUND_ENDPOINT_BURST`. */
export const DEFAULT_ENDPOINT_BURST = 64;

/** Default of `OUTBOUND_MAX_IN_FLIGHT`. */
export const DEFAULT_MAX_IN_FLIGHT = 256;

/** The loop's options: the deliverer's, and how many attempts it keeps in flight. */
export interface DeliveryLoopOptions extends DelivererOptions {
  /** `OUTBOUND_MAX_IN_FLIGHT`: most attempts this process has in flight at once (default 256). */
  maxInFlight?: number;
  /** The database's wake-ups (db/wakeup.ts): a message enqueued by a commit is claimed without waiting `pollMs`. */
  wakeups?: Wakeups;
}

/**
 * Delivers the outbox (PRODUCT §2.8; issue 23 item 1), meant to run beside the request worker in
 * `serve` and in `privacyctl worker` (started by start-worker.ts). It keeps up to `maxInFlight`
 * attempts in flight and claims again as soon as one ends, so a hanging receiver holds its own
 * slots (at most its endpoint's cap, see modules/outbound-events/fair-claim.fns.ts) and never the
 * others'. An endpoint's cap: `perEndpoint` (2) while nothing is known of it, `burst` (64) while
 * its last attempt from this process succeeded within a second, 1 while it fails (deliverer.ts
 * `EndpointSpeeds`). A claim that filled every free slot is followed by another at once; one that found
 * less waits for an attempt to end, a commit (db/wakeup.ts) or `pollMs`. Claims are short statements; attempts are sent
 * outside any transaction, with non-blocking I/O only. A failed claim or record is logged (no
 * URL, body or secret) and the loop goes on.
 */
export function startDeliveryLoop(options: DeliveryLoopOptions, pollMs: number, log: Logger): DeliveryLoop {
  const maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
  const inFlight = new Set<Promise<void>>();
  const perEndpoint = options.perEndpoint ?? DEFAULT_ENDPOINT_CONCURRENCY;
  const speeds = new EndpointSpeeds(perEndpoint, Math.max(perEndpoint, options.burst ?? DEFAULT_ENDPOINT_BURST));
  let running = true;
  let wake: (() => void) | undefined;
  // An attempt that ended while the loop was claiming: the next pause returns at once.
  let roused = false;
  // An attempt's end wakes the loop a few ms later, so the ends of attempts close together share one claim.
  let soon: NodeJS.Timeout | undefined;
  const rouse = () => {
    if (soon) return;
    soon = setTimeout(() => {
      soon = undefined;
      const w = wake;
      wake = undefined;
      if (w) w();
      else roused = true;
    }, COALESCE_MS);
  };
  const pause = () =>
    new Promise<void>((resolve) => {
      if (roused) return resolve();
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  // A commit (which may have enqueued messages) wakes the loop as an attempt's end does.
  const unsubscribe = options.wakeups?.subscribe(rouse);
  const attempt = (message: Parameters<typeof deliverClaimed>[1]) => {
    const run: Promise<void> = deliverClaimed(options, message, speeds)
      .catch((err: unknown) => log.error({ err: { name: (err as Error).name } }, 'outbound delivery attempt not recorded'))
      .finally(() => {
        inFlight.delete(run);
        rouse();
      });
    inFlight.add(run);
  };
  const loop = (async () => {
    while (running) {
      roused = false;
      const free = maxInFlight - inFlight.size;
      let filled = false;
      if (free > 0) {
        try {
          const claimed = await claimForDelivery(options, free, speeds);
          for (const message of claimed) attempt(message);
          filled = claimed.length === free;
        } catch (err) {
          log.error({ err: { name: (err as Error).name } }, 'outbound delivery claim failed');
        }
      }
      // Every free slot taken: claim again at once unless none is left (then an attempt's end wakes us).
      if (running && !(filled && inFlight.size < maxInFlight)) await pause();
    }
    await Promise.all(inFlight);
    clearTimeout(soon);
  })();
  return {
    async stop() {
      running = false;
      unsubscribe?.();
      const w = wake;
      wake = undefined;
      w?.();
      await loop;
    },
  };
}
