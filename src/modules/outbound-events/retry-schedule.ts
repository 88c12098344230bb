/**
 * Delays before the 2nd … 8th attempt of a message (PRODUCT §2.8, Svix's schedule): 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h. After the 8th failed attempt the message is `failed`.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/** Random spread applied to each delay: ±20 %. */
export const RETRY_JITTER = 0.2;

/**
 * When to try a message again after its `attempt`-th attempt (1-based) failed at `nowMs`, or
 * null when it has used every attempt and is `failed`. `random` in [0, 1) picks the jitter.
 */
export function nextAttemptAt(attempt: number, nowMs: number, random: () => number = Math.random): number | null {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (delay === undefined) return null;
  return nowMs + Math.round(delay * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}
