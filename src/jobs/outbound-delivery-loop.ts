import type { Logger } from 'pino';
import { type DelivererOptions, deliverDueMessages } from '../modules/outbound-events/deliverer.js';

/** A running delivery loop; `stop()` resolves after the round in hand. */
export interface DeliveryLoop {
  stop(): Promise<void>;
}

/**
 * Delivers the outbox (PRODUCT §2.8), meant to run beside the request worker in `serve` and in
 * `privacyctl worker` (started by start-worker.ts). Rounds run back
 * to back while messages are due, else one round every
 * `pollMs`. Rounds claim in a short transaction and send outside it (modules/outbound-events/
 * deliverer.ts), with non-blocking I/O only. A failed round is logged (no URL, body or secret)
 * and the loop goes on.
 */
export function startDeliveryLoop(options: DelivererOptions, pollMs: number, log: Logger): DeliveryLoop {
  let running = true;
  let wake: (() => void) | undefined;
  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    while (running) {
      let sent = 0;
      try {
        sent = await deliverDueMessages(options);
      } catch (err) {
        log.error({ err: { name: (err as Error).name } }, 'outbound delivery round failed');
      }
      if (sent === 0 && running) await idle();
    }
  })();
  return {
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}
