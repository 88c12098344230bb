import type { Logger } from 'pino';
import type { DrpCallbacks } from '../workflows/drp/drp-callbacks.js';

/** A running DRP callback loop; `stop()` resolves after the round in hand. */
export interface DrpCallbackLoop {
  stop(): Promise<void>;
}

/**
 * The DRP status callbacks beside the request worker (PRODUCT §2.19): every `intervalMs`, a sweep
 * enqueues a callback for each DRP request whose status object changed, then the due callbacks
 * are sent. A failed round is logged (no URL, no payload) and the next one runs as usual.
 */
export function startDrpCallbackLoop(callbacks: DrpCallbacks, intervalMs: number, log: Logger): DrpCallbackLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inRound: Promise<void> = Promise.resolve();
  const round = async () => {
    try {
      await callbacks.sweep();
      await callbacks.deliver();
    } catch (err) {
      log.warn({ err: { message: (err as Error).message } }, 'DRP callback round failed');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      inRound = round().finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inRound;
    },
  };
}
