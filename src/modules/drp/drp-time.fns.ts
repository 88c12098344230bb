/**
 * ISO 8601 date-times with an offset: `2026-05-01T12:00:00Z`, `2026-05-01T12:00:00.123+00:00`
 * (Python's `isoformat()`, which OSIRAA sends), `…+0200`, `…-07`. Extended format, `T` (or `t`),
 * seconds required, 1–9 fraction digits, leap seconds refused; `Z`/`z` or `±hh[:mm]` / `±hhmm`.
 */
const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * Parses a DRP time claim (`issued-at`, `expires-at`; DRP §2.01 "ISO 8601-encoded timestamp",
 * PRODUCT §2.19: "Times are ISO 8601 with an offset … one without an offset fails").
 * @returns epoch milliseconds (fractions beyond a millisecond truncated), or null when the value
 *   is not a string of that form, names a day or time that does not exist, or has no offset.
 */
export function parseDrpTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = ISO_WITH_OFFSET.exec(value);
  if (!m) return null;
  const part = (i: number) => Number(m[i]);
  const [year, month, day, hour, minute, second] = [part(1), part(2), part(3), part(4), part(5), part(6)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetMinutes = m[8] ? 0 : offset(m[9] as string, m[10] as string, m[11]);
  if (offsetMinutes === null) return null;
  const millis = Number(((m[7] ?? '') + '000').slice(0, 3));
  // Date.UTC maps years 0–99 onto 1900–1999; DRP times are never that early.
  if (year < 1000) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
}

function offset(sign: string, hours: string, minutes: string | undefined): number | null {
  const h = Number(hours);
  const min = Number(minutes ?? '0');
  if (h > 23 || min > 59) return null;
  return (sign === '-' ? -1 : 1) * (h * 60 + min);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
