// Deadlines as an officer reads them: "due in 3 days (GDPR)", "2 days overdue (GDPR)".
import type { PrivacyRequest, RequestStatus } from '../api/types.js';

const DAY_MS = 86_400_000;
const FINAL: readonly RequestStatus[] = ['completed', 'failed', 'rejected', 'canceled'];

export function isFinal(status: RequestStatus): boolean {
  return FINAL.includes(status);
}

/** The binding due date: the extended one when the request was extended. */
export function bindingDue(request: Pick<PrivacyRequest, 'due_at' | 'extended_due_at'>): string {
  return request.extended_due_at ?? request.due_at;
}

/** `gdpr` → `GDPR`, `ccpa+gdpr` → `CCPA + GDPR`. */
export function regulationLabel(regulation: string): string {
  return regulation
    .split('+')
    .map((part) => part.toUpperCase())
    .join(' + ');
}

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** The deadline in words, from `now` (ms since the epoch), with its regulation. */
export function deadlineText(request: PrivacyRequest, now: number = Date.now()): { text: string; overdue: boolean } {
  const regulation = regulationLabel(request.regulation);
  if (isFinal(request.status)) return { text: `closed (${request.status.replace('_', ' ')})`, overdue: false };
  const left = Date.parse(bindingDue(request)) - now;
  if (left >= 0) {
    const n = Math.floor(left / DAY_MS);
    return { text: n === 0 ? `due today (${regulation})` : `due in ${days(n)} (${regulation})`, overdue: false };
  }
  return { text: `${days(Math.max(1, Math.ceil(-left / DAY_MS)))} overdue (${regulation})`, overdue: true };
}

/** A date-time for people: `24 Nov 2026, 09:12 UTC`. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '—';
  return `${new Date(value).toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })} UTC`;
}

/** `pending_approval` → `pending approval`. */
export function statusLabel(status: string): string {
  return status.replace(/_/g, ' ');
}

/** Calendar months in UTC, a missing day becoming the month's last (the service's addCalendarMonths). */
function addMonths(from: Date, months: number): Date {
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(from.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(year, month, day, from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()),
  );
}

/**
 * The due date an extension would set, as the service computes it (GDPR Art. 12(3): two further
 * months after the one-month deadline; CCPA §1798.130(a)(2): 45 more days after 45), the earliest
 * of the request's regulations binding.
 */
export function extendedDueDate(request: Pick<PrivacyRequest, 'regulation' | 'received_at'>): string {
  const received = new Date(request.received_at);
  const dates = request.regulation
    .split('+')
    .map((regulation) =>
      regulation === 'gdpr' ? addMonths(addMonths(received, 1), 2).getTime() : received.getTime() + 90 * DAY_MS,
    );
  return new Date(Math.min(...dates)).toISOString();
}
