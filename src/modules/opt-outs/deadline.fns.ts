import { utcDay } from '../../lib/calendar-day.js';
import type { OptOutKind } from './opt-out.types.js';

const DAY_MS = 86_400_000;

/** Business days a CCPA opt-out or limit request has (11 CCR §7026(f), §7027(g)). */
export const CCPA_OPT_OUT_BUSINESS_DAYS = 15;

/** Monday to Friday in UTC, and not one of `holidays` (`YYYY-MM-DD`). */
export function isBusinessDay(date: Date, holidays: ReadonlySet<string>): boolean {
  const weekday = date.getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays.has(utcDay(date));
}

/**
 * The `days`-th business day after the day of `from` (that day itself never counts), at the
 * time of day of `from`: business days are Monday–Friday in UTC, less `holidays`.
 * @throws RangeError when `days` is not a positive integer.
 */
export function addBusinessDays(from: Date, days: number, holidays: readonly string[]): Date {
  if (!Number.isInteger(days) || days < 1) throw new RangeError('days must be a positive integer');
  const skip = new Set(holidays);
  let at = from;
  let counted = 0;
  while (counted < days) {
    at = new Date(at.getTime() + DAY_MS);
    if (isBusinessDay(at, skip)) counted++;
  }
  return at;
}

/**
 * Adds one calendar month in UTC keeping the time of day; a day the next month lacks becomes its
 * last day (Jan 31 → Feb 28/29), as GDPR Art. 12(3) "one month" is read. The same rule as a
 * privacy request's deadline (modules/privacy-requests/deadline.fns.ts `addCalendarMonths`),
 * which this leaf may not import.
 */
export function addOneMonth(from: Date): Date {
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(from.getUTCDate(), lastDay);
  return new Date(Date.UTC(year, month, day) + (from.getTime() % DAY_MS));
}

/**
 * When an opt-out of `kind` received at `receivedAt` is due (PRODUCT §2.18), keeping the time of
 * day of receipt: `sale_sharing` and `sensitive_use` on the 15th business day after the day of
 * receipt (11 CCR §7026(f), §7027(g); in any workspace), skipping the workspace policy's
 * `holidays`; `direct_marketing` one month after receipt (GDPR Art. 12(3)).
 */
export function optOutDueAt(kind: OptOutKind, receivedAt: Date, holidays: readonly string[]): Date {
  if (kind === 'direct_marketing') return addOneMonth(receivedAt);
  return addBusinessDays(receivedAt, CCPA_OPT_OUT_BUSINESS_DAYS, holidays);
}
