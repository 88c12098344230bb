/**
 * CSV as RFC 4180 writes it (comma, CRLF, fields quoted when they hold a comma, a quote, CR or
 * LF, quotes doubled), with a guard against formula injection (OWASP "CSV Injection"): a text
 * cell starting with `=`, `+`, `-`, `@`, TAB (0x09) or CR (0x0D) gets a leading `'`, so a
 * spreadsheet shows it as text instead of running it. Numbers are written as they are (a
 * negative number is not text).
 */

/** Characters a spreadsheet takes as the start of a formula (OWASP lists all six). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: null and undefined are empty; text is guarded, then quoted when it must be. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** One record, CRLF-terminated. */
export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
