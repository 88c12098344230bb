import { isEmptyValue, renderValue } from './data-part.js';
import { element, type Html } from './html.js';
import type { SystemAnswerPart } from './letter.types.js';
import { humanized, taxonomyName } from './words.js';

type Collections = NonNullable<SystemAnswerPart['collections']>;

/** The distinct plain names of `categories` in order (`E-mail address, Username`). */
function namesOf(categories: readonly string[]): string[] {
  return [...new Set(categories.map(taxonomyName))];
}

/**
 * How a database column is labelled (PRODUCT §2.17): by its category's plain name when it has
 * one category no other column of the collection shares, else by its own name in words.
 */
function columnLabel(fields: Record<string, string[]>): (key: string) => string {
  const names = Object.values(fields).flatMap((keys) => (keys.length === 1 ? [taxonomyName(keys[0] as string)] : []));
  return (key) => {
    const keys = fields[key] ?? [];
    const name = keys.length === 1 ? taxonomyName(keys[0] as string) : null;
    return name !== null && names.filter((n) => n === name).length === 1 ? name : humanized(key);
  };
}

/** "2 records found in “login”": the rows found, and where (the collection's own name). */
function foundLine(name: string, rows: number): string {
  return `${rows} ${rows === 1 ? 'record' : 'records'} found in “${name}”.`;
}

/**
 * A database system's data (PRODUCT §2.14, §2.17): each collection where rows were found, under
 * the plain names of its fields' categories (the taxonomy's words, never keys), with the number
 * of rows found and the rows, numbers as numbers. Collections without rows are left out (the
 * system's counts say what it holds). `data` is collection → rows; `collections` what the package
 * recorded of each (rows, categories by field).
 */
export function collectionsPart(data: unknown, collections: Collections): Html[] {
  if (typeof data !== 'object' || data === null) return [];
  return Object.entries(data as Record<string, unknown>).flatMap(([name, rows]) => {
    if (!Array.isArray(rows) || isEmptyValue(rows)) return [];
    const fields = collections[name]?.fields ?? {};
    const categories = namesOf(Object.values(fields).flat());
    const heading = categories.length > 0 ? categories.join(', ') : humanized(name);
    return [element('h4', heading), element('p', foundLine(name, rows.length), 'found'), renderValue(rows, columnLabel(fields))];
  });
}
