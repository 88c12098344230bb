/** Source of the current time; injected so tests can fix it. */
export type Clock = () => Date;

/** The real clock. */
export const systemClock: Clock = () => new Date();

/** RFC 3339 UTC with milliseconds (`2026-11-21T04:30:00.000Z`): fixed width, so text order is time order. */
export function toTimestamp(date: Date): string {
  return date.toISOString();
}
