/**
 * `json.loads` as CPython 3.11 runs it, so that a malformed request body yields the same
 * `json_invalid` error (message and position) FastAPI would report.
 *
 * @module
 */

import { PyJsonDecodeError, PyJsonScanner } from './python-json-scanner.js';

/**
 * Outcome of {@link parseJsonLikePython}.
 *
 * - `{ ok: true, value }`: what `json.loads` would have returned, as JS (`dict` → plain object,
 *   `list` → array, `int`/`float` → number, including `NaN`, `Infinity`, `-Infinity`).
 * - `{ ok: false, msg, pos }`: the `JSONDecodeError`'s `.msg` (e.g. `"Expecting value"`,
 *   `"Expecting ',' delimiter"`, `"Unterminated string starting at"`) and `.pos`.
 *   `pos` is a Python `str` index: a count of Unicode code points, NOT UTF-16 code units.
 */
export type PythonJsonResult = { ok: true; value: unknown } | { ok: false; msg: string; pos: number };

const BOM = 0xfeff;

/**
 * Parses `text` exactly like CPython 3.11's `json.loads(text)` with default options
 * (`strict=True`), mirroring `Lib/json/__init__.py` (`loads`), `Lib/json/decoder.py`
 * (`JSONDecoder.decode` / `raw_decode`) and the `_json` C scanner those use
 * (pure-Python twin: `Lib/json/scanner.py`).
 *
 * - Accepts everything `JSON.parse` does (that is the fast path), plus `NaN`, `Infinity`
 *   and `-Infinity` anywhere a value may appear. Whitespace is only `' \t\n\r'`.
 * - `\uXXXX` escapes may produce lone surrogates (valid in Python); a high + low escape
 *   pair is joined into one astral character.
 * - A leading U+FEFF fails with `"Unexpected UTF-8 BOM (decode using utf-8-sig)"` at 0,
 *   like `json.loads(str)`. (`json.loads(bytes)` decodes with `utf-8-sig` and so strips a
 *   UTF-8 BOM instead: callers holding bytes decide which behaviour they want.)
 * - Error positions (`pos`) are counted in Unicode code points, as Python indexes `str`.
 *
 * Not modelled: CPython raises `RecursionError` (not `JSONDecodeError`) for nesting deeper
 * than about 1000 levels, and `ValueError` for integer literals over 4300 digits; here such
 * input is parsed (or fails with the ordinary decode error).
 *
 * @param text The request body, already decoded from UTF-8.
 * @param options.markFloats Box Python floats in {@link PyFloat} (slow path for any text that
 *   may hold one), for strict validation; default false.
 * @returns The parsed value, or CPython's error message and code-point position.
 */
export function parseJsonLikePython(text: string, options: { markFloats?: boolean } = {}): PythonJsonResult {
  const markFloats = options.markFloats ?? false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return decodeLikePython(text, markFloats);
  }
  // Only the scanner can box a float literal; valid JSON without one is done.
  if (markFloats && holdsFloatLiteral(text)) return decodeLikePython(text, true);
  return { ok: true, value };
}

/** A JSON string token; matched only against text `JSON.parse` accepted, so it scans in one pass. */
const STRING_TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"/gs;

/** A digit before `.`, `e` or `E`: where a number token has a fraction or an exponent. */
const FLOAT_MARK = /\d[.eE]/;

/**
 * Fast path of {@link parseJsonLikePython} with `markFloats`: whether valid JSON `text` holds a
 * number Python reads as a float (a fraction or an exponent), looking only outside its strings.
 * It saves the scanner's walk of every code point for a body whose strings merely contain
 * `12.5` or a timestamp like `…:00.000Z` (a data system's records: ~3 ms per 64 KiB otherwise).
 * The string pattern is linear here because `text` is valid JSON: every match starts at a real
 * opening quote and ends at its closing one. (NaN and Infinity never reach it: JSON.parse refuses them.)
 */
export function holdsFloatLiteral(text: string): boolean {
  return FLOAT_MARK.test(text.replace(STRING_TOKEN, '""'));
}

/** `json.loads(s)` for a `str`, then `JSONDecoder.decode`: the slow path with exact errors. */
function decodeLikePython(text: string, markFloats: boolean): PythonJsonResult {
  if (text.charCodeAt(0) === BOM) {
    return { ok: false, msg: 'Unexpected UTF-8 BOM (decode using utf-8-sig)', pos: 0 };
  }
  const scanner = new PyJsonScanner(text, markFloats);
  try {
    const [value, valueEnd] = scanner.scanOnce(scanner.skipWs(0));
    const end = scanner.skipWs(valueEnd);
    if (end !== scanner.len) return { ok: false, msg: 'Extra data', pos: end };
    return { ok: true, value };
  } catch (error) {
    if (error instanceof PyJsonDecodeError) return { ok: false, msg: error.msg, pos: error.pos };
    throw error;
  }
}
