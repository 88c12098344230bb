import { definitions, element, type Html, raw, readableTime } from './html.js';
import { escapeHtml } from './escape.js';
import { fieldWords } from './words.js';

/** How a field's name is shown: {@link fieldWords} for this service's own data; another system's part brings its own. */
export type FieldLabel = (key: string) => string;

/** Lists of records with more columns than this are shown record by record, not as a table. */
const MAX_TABLE_COLUMNS = 4;

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

/** A non-empty list of objects: shown full width, under its own label. */
const isRecordList = (value: unknown): value is Record<string, unknown>[] =>
  Array.isArray(value) && value.length > 0 && value.every(isRecord);

/** A list of records: a table when narrow (one column per key seen), else one framed record each. */
function records(rows: readonly Record<string, unknown>[], label: FieldLabel): Html {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  if (columns.length > MAX_TABLE_COLUMNS)
    return raw(rows.map((row) => element('div', fields(row, label), 'record').html).join(''));
  const head = columns.map((c) => `<th scope="col">${escapeHtml(label(c))}</th>`).join('');
  const body = rows
    .map((row) => `<tr>${columns.map((c) => `<td>${renderValue(row[c], label).html}</td>`).join('')}</tr>`)
    .join('');
  return raw(`<div class="table"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`);
}

/**
 * An object's fields: the short ones as a definition list, then each non-empty list of records
 * full width under its label (a table in the narrow value column would not be readable).
 */
function fields(value: Record<string, unknown>, label: FieldLabel): Html {
  const entries = Object.entries(value);
  const short = entries.filter(([, v]) => !isRecordList(v));
  const lists = entries.filter((entry): entry is [string, Record<string, unknown>[]] => isRecordList(entry[1]));
  return raw(
    [
      short.length > 0 ? definitions(short.map(([k, v]) => [label(k), renderValue(v, label)] as const)).html : '',
      ...lists.map(([k, v]) => element('div', [element('p', label(k), 'label'), records(v, label)], 'list').html),
    ].join(''),
  );
}

/**
 * Any JSON value as HTML a person can read (every string escaped): an object as its fields
 * (short ones as a definition list, lists of records under their label), a list of records as a
 * table or framed records, a list of scalars as a comma-separated line, an empty list as "none",
 * a scalar as text. Field names are shown as `label` says (default: this service's own {@link fieldWords}).
 */
export function renderValue(value: unknown, label: FieldLabel = fieldWords): Html {
  if (Array.isArray(value)) {
    if (value.length === 0) return raw('none');
    if (isRecordList(value)) return records(value, label);
    return raw(value.map((v) => escapeHtml(isRecord(v) || Array.isArray(v) ? JSON.stringify(v) : scalarText(v))).join(', '));
  }
  if (isRecord(value)) return fields(value, label);
  return element('span', scalarText(value), value === null ? 'none' : undefined);
}
