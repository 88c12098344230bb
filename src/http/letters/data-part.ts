import { definitions, element, type Html, raw, readableTime } from './html.js';
import { escapeHtml } from './escape.js';
import { fieldWords } from './words.js';

/** True when a value holds nothing: null, an empty string or list, or an object of such values. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value).every(isEmptyValue);
  return false;
}

/** A scalar as text: times made readable, null as "not recorded". */
function scalarText(value: unknown): string {
  if (value === null || value === undefined) return 'not recorded';
  if (typeof value === 'string') return readableTime(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A list of objects as a table: one column per key seen, in first-seen order. */
function table(rows: readonly Record<string, unknown>[]): Html {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const head = columns.map((c) => `<th scope="col">${escapeHtml(fieldWords(c))}</th>`).join('');
  const body = rows.map((row) => `<tr>${columns.map((c) => `<td>${renderValue(row[c]).html}</td>`).join('')}</tr>`).join('');
  return raw(`<div class="table"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`);
}

/**
 * Any JSON value as HTML a person can read (every string escaped): an object as a definition
 * list of its fields, a list of objects as a table, a list of scalars as a comma-separated
 * line, an empty list as "none", a scalar as text.
 */
export function renderValue(value: unknown): Html {
  if (Array.isArray(value)) {
    if (value.length === 0) return raw('none');
    if (value.every(isRecord)) return table(value);
    return raw(value.map((v) => escapeHtml(isRecord(v) || Array.isArray(v) ? JSON.stringify(v) : scalarText(v))).join(', '));
  }
  if (isRecord(value)) return definitions(Object.entries(value).map(([k, v]) => [fieldWords(k), renderValue(v)] as const));
  return element('span', scalarText(value), value === null ? 'none' : undefined);
}
