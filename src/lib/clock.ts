/** Source of the current time; injected so tests can fix it. */
export type Clock = () => Date;

/** The real clock. */
export const systemClock: Clock = () => new Date();

/** RFC 3339 UTC with milliseconds (`2026-11-21T04:30:00.000Z`): fixed width, so text order is time order. */
export function toTimestamp(date: Date): string {
  return date.toISOString();
}

/**
 * The current time as {@link toTimestamp} text, for hot paths: `clock()` is read on every call,
 * but the text is formatted only when the millisecond changed since the previous call (formatting
 * costs more than the rest of a cached policy read). Same results as `toTimestamp(clock())`.
 */
export function timestampSource(clock: Clock): () => string {
  let lastMs = Number.NaN;
  let lastText = '';
  return () => {
    const now = clock();
    const ms = now.getTime();
    if (ms !== lastMs) {
      lastText = toTimestamp(now);
      lastMs = ms;
    }
    return lastText;
  };
}
