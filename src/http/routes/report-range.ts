import { errors } from '../errors/error-catalogue.js';
import { isCalendarDay } from '../schemas/privacy-request.schemas.js';

const DAY_MS = 86_400_000;

/**
 * The report's `from`/`to` (a day, or an RFC 3339 time) as a half-open UTC range of receipt
 * times: `from` a day is its start, `to` a day its end (the next day's start, exclusive), `to` a
 * time includes that instant.
 *
 * @returns RFC 3339 UTC bounds (null: open-ended).
 * @throws a 422 (`value_error`) for a day that is not on the calendar, or `from` after `to`.
 */
export function reportRange(from: string | undefined, to: string | undefined): { from: string | null; to: string | null } {
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (value !== undefined && !isCalendarDay(value)) throw errors.invalidQueryValue(name, 'not a real calendar day', value);
  }
  const isDay = (v: string) => v.length === 10;
  const start = from === undefined ? null : new Date(isDay(from) ? `${from}T00:00:00Z` : from);
  const end =
    to === undefined ? null : isDay(to) ? new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS) : new Date(Date.parse(to) + 1);
  if (start !== null && end !== null && start.getTime() >= end.getTime() && from !== undefined)
    throw errors.invalidQueryValue('from', 'from is after to', from);
  return { from: start?.toISOString() ?? null, to: end?.toISOString() ?? null };
}
