import type * as IoRedis from 'ioredis';
import { loadWhenUsed } from '../../lib/load-when-used.js';

/** ioredis, loaded when `REDIS_URL` is set ({@link loadWhenUsed}). */
const ioredis = loadWhenUsed<typeof IoRedis>('ioredis');

/** A fixed-window counter: how many hits a key had in its current window, and when that window ends. */
export interface WindowCounter {
  /** Counts one hit of `key` in a window of `windowMs`. @returns the count so far and the ms until the window ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** Whether the shared store answers (always true in-process); for /readyz. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** Keys remembered in-process before the oldest windows are dropped. */
const MAX_KEYS = 50_000;

/** In-process counters (one process's view: with N servers the effective limit is N×). */
export function memoryCounter(now: () => number = Date.now): WindowCounter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  return {
    async hit(key, windowMs) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.endsAt <= t) {
        if (windows.size >= MAX_KEYS) {
          for (const [k, v] of windows) if (v.endsAt <= t || windows.size >= MAX_KEYS) windows.delete(k);
        }
        w = { count: 0, endsAt: t + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { count: w.count, resetMs: w.endsAt - t };
    },
    ready: async () => true,
    close: async () => {},
  };
}

/**
 * Counters shared by every process through Redis (`REDIS_URL`): per key, `SET NX PX` starts the
 * window, `INCR` counts, `PTTL` says when it ends, in one MULTI. While Redis does not answer, the
 * hits are counted in-process instead (the request still succeeds; /readyz names Redis), and
 * nothing waits in an offline queue.
 */
export function redisCounter(url: string): WindowCounter {
  const redis = new (ioredis().Redis)(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    connectTimeout: 2000,
  });
  redis.on('error', () => {}); // ready() reports it; the fallback counts meanwhile
  const fallback = memoryCounter();
  return {
    async hit(key, windowMs) {
      try {
        const result = await redis.multi().set(key, '0', 'PX', windowMs, 'NX').incr(key).pttl(key).exec();
        if (!result) throw new Error('transaction aborted');
        const count = Number(result[1]?.[1]);
        const ttl = Number(result[2]?.[1]);
        return { count, resetMs: ttl > 0 ? ttl : windowMs };
      } catch {
        return fallback.hit(key, windowMs);
      }
    },
    async ready() {
      try {
        if (redis.status === 'connecting' || redis.status === 'connect' || redis.status === 'reconnecting') {
          // Just started: give the connection its connect timeout before calling Redis unreachable.
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 2000);
            redis.once('ready', () => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        return (await redis.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
