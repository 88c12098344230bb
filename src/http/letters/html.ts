import { escapeHtml } from './escape.js';

/** A piece of HTML that is already safe to insert (built from escaped text and fixed markup). */
export interface Html {
  readonly html: string;
}

/** Marks fixed markup (never data) as {@link Html}. */
export const raw = (html: string): Html => ({ html });

/** Text or already-safe HTML as HTML: text is escaped. */
export function toHtml(part: string | Html): string {
  return typeof part === 'string' ? escapeHtml(part) : part.html;
}

/** `<tag class="…">content</tag>`: the content parts escaped unless already {@link Html}. */
export function element(tag: string, parts: string | Html | readonly (string | Html)[], className?: string): Html {
  const content = (Array.isArray(parts) ? parts : [parts]).map((p: string | Html) => toHtml(p)).join('');
  return raw(`<${tag}${className ? ` class="${className}"` : ''}>${content}</${tag}>`);
}

/** A link to an http(s) or mailto URL, or the text and URL as plain text for any other scheme (no `javascript:`). */
export function link(url: string, text: string): Html {
  if (!/^(https?:\/\/|mailto:)/i.test(url)) return raw(escapeHtml(text === url ? url : `${text} (${url})`));
  return raw(`<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`);
}

/** A definition list of the rows whose value is given (undefined rows are left out). */
export function definitions(rows: readonly (readonly [string, string | Html | undefined])[]): Html {
  const items = rows
    .filter((row): row is readonly [string, string | Html] => row[1] !== undefined)
    .map(([term, value]) => `<div><dt>${escapeHtml(term)}</dt><dd>${toHtml(value)}</dd></div>`);
  return raw(`<dl>${items.join('')}</dl>`);
}

/** A bulleted list, or `empty` as a paragraph when there are no items. */
export function list(items: readonly (string | Html)[], empty = 'None.'): Html {
  if (items.length === 0) return element('p', empty);
  return raw(`<ul>${items.map((item) => `<li>${toHtml(item)}</li>`).join('')}</ul>`);
}

/** An RFC 3339 time as a person reads it: `4 May 2026, 09:10 UTC`; other text unchanged. */
export function readableTime(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return value;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) return value;
  const date = time.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return `${date}, ${time.toISOString().slice(11, 16)} UTC`;
}
