import type { Regulation } from '../request-model/request-model.js';
import { isFinal } from '../request-model/request-model.js';

export type { Regulation };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Adds calendar months in UTC, keeping the time of day; a day that does not exist in the target
 * month becomes that month's last day (Jan 31 + 1 month = Feb 28, or Feb 29 in a leap year),
 * as the EDPB reads "one month" (Guidelines 01/2022 on the right of access, §5.3).
 */
export function addCalendarMonths(from: Date, months: number): Date {
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(from.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(year, month, day, from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()),
  );
}

/** Adds whole days of 24 hours (UTC has no daylight saving). */
export function addDays(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

function dueBy(regulation: Regulation, receivedAt: Date): Date {
  // GDPR Art. 12(3): one month of receipt. CCPA, Cal. Civ. Code §1798.130(a)(2): 45 calendar days.
  return regulation === 'gdpr' ? addCalendarMonths(receivedAt, 1) : addDays(receivedAt, 45);
}

function extendedBy(regulation: Regulation, dueAt: Date): Date {
  // GDPR Art. 12(3): "extended by two further months". CCPA §1798.130(a)(2): once by 45 more days.
  return regulation === 'gdpr' ? addCalendarMonths(dueAt, 2) : addDays(dueAt, 45);
}

function earliest(dates: Date[]): Date {
  return new Date(Math.min(...dates.map((d) => d.getTime())));
}

/**
 * The response deadline for a request received at `receivedAt`; with several regulations the
 * earliest deadline binds.
 *
 * @param regulations - non-empty list of regulations that apply.
 * @throws RangeError when `regulations` is empty.
 */
export function computeDueAt(regulations: readonly Regulation[], receivedAt: Date): Date {
  if (regulations.length === 0) throw new RangeError('at least one regulation is required');
  return earliest(regulations.map((r) => dueBy(r, receivedAt)));
}

/**
 * The deadline after the one permitted extension: each regulation extends its own original
 * deadline, and the earliest result binds.
 *
 * @throws RangeError when `regulations` is empty.
 */
export function computeExtendedDueAt(regulations: readonly Regulation[], receivedAt: Date): Date {
  if (regulations.length === 0) throw new RangeError('at least one regulation is required');
  return earliest(regulations.map((r) => extendedBy(r, dueBy(r, receivedAt))));
}

/** The `regulation` field of a request: the regulations in force, sorted and joined by `+` (`gdpr`, `ccpa`, `ccpa+gdpr`). */
export function regulationLabel(regulations: readonly Regulation[]): string {
  return [...new Set(regulations)].sort().join('+');
}

/**
 * True when the request is not final and `now` is past its (extended) deadline.
 * Times are RFC 3339 UTC strings.
 */
export function isOverdue(status: string, dueAt: string, extendedDueAt: string | null, now: Date): boolean {
  if (isFinal(status)) return false;
  return new Date(extendedDueAt ?? dueAt).getTime() < now.getTime();
}

/** How far back a request's `received_at` may be, days (PRODUCT §2.13). */
export const MAX_RECEIVED_DAYS_BACK = 365;

/**
 * Why a stated receipt time cannot be: after `filedAt` (the future), or more than
 * {@link MAX_RECEIVED_DAYS_BACK} days before it; null when it is fine.
 */
export function receivedAtProblem(
  receivedAt: Date,
  filedAt: Date,
): 'received_at is in the future' | 'received_at is more than 365 days ago' | null {
  if (receivedAt.getTime() > filedAt.getTime()) return 'received_at is in the future';
  if (receivedAt.getTime() < addDays(filedAt, -MAX_RECEIVED_DAYS_BACK).getTime()) return 'received_at is more than 365 days ago';
  return null;
}
