import type { Logger } from 'pino';
import { claimForDelivery, deliverClaimed, type DelivererOptions } from '../modules/outbound-events/deliverer.js';

/** A running delivery loop; `stop()` resolves after the attempts in flight ended. */
export interface DeliveryLoop {
  stop(): Promise<void>;
}

/** Default of `OUTBOUND_MAX_IN_FLIGHT`. */
export const DEFAULT_MAX_IN_FLIGHT = 64;

/** The loop's options: the deliverer's, and how many attempts it keeps in flight. */
export interface DeliveryLoopOptions extends DelivererOptions {
  /** `OUTBOUND_MAX_IN_FLIGHT`: most attempts this process has in flight at once (default 64). */
  maxInFlight?: number;
}

/**
 * Delivers the outbox (PRODUCT §2.8; issue 23 item 1), meant to run beside the request worker in
 * `serve` and in `privacyctl worker` (started by start-worker.ts). It keeps up to `maxInFlight`
 * attempts in flight and claims again as soon as one ends, so a hanging receiver holds its own
 * slots (at most its endpoint's cap, see modules/outbound-events/fair-claim.fns.ts) and never the
 * others'. A claim that filled every free slot is followed by another at once; one that found
 * less waits for an attempt to end or `pollMs`. Claims are short statements; attempts are sent
 * outside any transaction, with non-blocking I/O only. A failed claim or record is logged (no
 * URL, body or secret) and the loop goes on.
 */
export function startDeliveryLoop(options: DeliveryLoopOptions, pollMs: number, log: Logger): DeliveryLoop {
  const maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
  const inFlight = new Set<Promise<void>>();
  let running = true;
  let wake: (() => void) | undefined;
  // An attempt that ended while the loop was claiming: the next pause returns at once.
  let roused = false;
  const rouse = () => {
    const w = wake;
    wake = undefined;
    if (w) w();
    else roused = true;
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
  const attempt = (message: Parameters<typeof deliverClaimed>[1]) => {
    const run: Promise<void> = deliverClaimed(options, message)
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
          const claimed = await claimForDelivery(options, free);
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
  })();
  return {
    async stop() {
      running = false;
      rouse();
      await loop;
    },
  };
}
