/**
 * Character classes, escape and literal tables of CPython 3.11's JSON scanner (`Modules/_json.c`),
 * by code point, for python-json-scanner.ts.
 *
 * @module
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const MINUS = 0x2d;

/** Single-character escapes after a backslash (CPython's `BACKSLASH` table), by code point. */
const BACKSLASH_TABLE = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
export const SIMPLE_ESCAPES: ReadonlyMap<number, string> = new Map(
  Object.entries(BACKSLASH_TABLE).map(([name, char]) => [name.charCodeAt(0), char]),
);

/** Named constants tried by `scan_once_unicode`, keyed by their first character. */
export const LITERALS: ReadonlyMap<number, readonly [string, unknown]> = new Map([
  [0x6e, ['null', null]],
  [0x74, ['true', true]],
  [0x66, ['false', false]],
  [0x4e, ['NaN', Number.NaN]],
  [0x49, ['Infinity', Number.POSITIVE_INFINITY]],
  [MINUS, ['-Infinity', Number.NEGATIVE_INFINITY]],
]);

/** `IS_WHITESPACE`: exactly space, tab, LF, CR. */
export function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function hexValue(c: number): number {
  if (isDigit(c)) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** Assigns like `JSON.parse` does: `__proto__` becomes an own property, not the prototype. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}
