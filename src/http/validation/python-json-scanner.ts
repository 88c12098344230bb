/**
 * Slow-path JSON scanner for {@link parseJsonLikePython}: mirrors CPython 3.11's
 * C accelerator (`Modules/_json.c`: `scanstring_unicode`, `_parse_object_unicode`,
 * `_parse_array_unicode`, `_match_number_unicode`, `scan_once_unicode`), which is what
 * `json.loads` actually runs; its pure-Python twin is `Lib/json/decoder.py` + `Lib/json/scanner.py`.
 * Where the two differ, the C code wins ("Invalid control character at", "Invalid \\escape"
 * at the backslash, `\uXXXX` bounds checks).
 *
 * It works on an array of Unicode code points, so every index, length check and error
 * position is a Python `str` index. It is iterative (explicit stack), so unclosed deep
 * nesting cannot overflow the JS stack.
 *
 * @module
 */

import { PyFloat } from './python-float.js';
import {
  BACKSLASH,
  COLON,
  COMMA,
  LITERALS,
  MINUS,
  QUOTE,
  SIMPLE_ESCAPES,
  hexValue,
  isDigit,
  isWs,
  setOwn,
} from './python-json-chars.js';

/** A `json.JSONDecodeError`: `msg` and `pos` (code points) as CPython sets them. */
export class PyJsonDecodeError extends Error {
  constructor(
    readonly msg: string,
    readonly pos: number,
  ) {
    super(`${msg} (char ${pos})`);
    this.name = 'PyJsonDecodeError';
  }
}

/** A container being filled: an array, or an object waiting for the value of `key`. */
type Frame =
  | { readonly kind: 'array'; readonly items: unknown[] }
  | { readonly kind: 'object'; readonly obj: Record<string, unknown>; key: string };

/** A finished value and the index after it, or the index where the next value must start. */
type Step = { done: true; value: unknown; end: number } | { done: false; next: number };

/** Scans one Python `str` (given as JS text); all indices are code-point indices. */
export class PyJsonScanner {
  /** Code point at each index. */
  private readonly cps: Uint32Array;
  /** UTF-16 offset of each code point, plus `text.length` at index `len`. */
  private readonly offs: Uint32Array;
  /** `len(s)` in Python terms. */
  readonly len: number;

  /**
   * @param markFloats - box numbers Python reads as `float` (fraction, exponent, NaN, Infinity)
   *   in {@link PyFloat}, so strict validation can refuse them where an int is expected.
   */
  constructor(
    private readonly text: string,
    private readonly markFloats = false,
  ) {
    const cps = new Uint32Array(text.length);
    const offs = new Uint32Array(text.length + 1);
    let n = 0;
    for (let i = 0; i < text.length; n++) {
      const cp = text.codePointAt(i) ?? 0;
      cps[n] = cp;
      offs[n] = i;
      i += cp > 0xffff ? 2 : 1;
    }
    offs[n] = text.length;
    this.cps = cps.subarray(0, n);
    this.offs = offs.subarray(0, n + 1);
    this.len = n;
  }

  /** `s[i]` as a code point, or -1 past the end (like an empty `s[i:i + 1]`). */
  ch(i: number): number {
    return this.cps[i] ?? -1;
  }

  /** `WHITESPACE.match(s, i).end()`. */
  skipWs(i: number): number {
    let idx = i;
    while (isWs(this.ch(idx))) idx++;
    return idx;
  }

  /** `scanner.scan_once(s, idx)`: returns `[value, end]`; a StopIteration becomes "Expecting value". */
  scanOnce(start: number): [unknown, number] {
    const stack: Frame[] = [];
    let idx = start;
    for (;;) {
      let step = this.beginValue(idx, stack);
      while (step.done) {
        const top = stack.at(-1);
        if (top === undefined) return [step.value, step.end];
        step = this.continueFrame(top, step.value, step.end, stack);
      }
      idx = step.next;
    }
  }

  /** `s[from:to]` as JS text. */
  private slice(from: number, to: number): string {
    return this.text.slice(this.offs[from] ?? this.text.length, this.offs[to] ?? this.text.length);
  }

  /** Head of `scan_once_unicode`: dispatch on the character at `idx`. */
  private beginValue(idx: number, stack: Frame[]): Step {
    const c = this.ch(idx);
    if (c === -1) throw new PyJsonDecodeError('Expecting value', idx);
    if (c === QUOTE) {
      const [value, end] = this.scanString(idx + 1);
      return { done: true, value, end };
    }
    if (c === 0x7b) return this.openObject(idx + 1, stack);
    if (c === 0x5b) return this.openArray(idx + 1, stack);
    const literal = LITERALS.get(c);
    if (literal !== undefined && this.matchesAt(idx, literal[0])) {
      const value = typeof literal[1] === 'number' && this.markFloats ? new PyFloat(literal[1]) : literal[1];
      return { done: true, value, end: idx + literal[0].length };
    }
    const number = this.matchNumber(idx);
    if (number === null) throw new PyJsonDecodeError('Expecting value', idx);
    return { done: true, value: number[0], end: number[1] };
  }

  private matchesAt(idx: number, word: string): boolean {
    for (let k = 0; k < word.length; k++) {
      if (this.ch(idx + k) !== word.charCodeAt(k)) return false;
    }
    return true;
  }

  /** Start of `_parse_array_unicode`; `idx` is just after `[`. */
  private openArray(start: number, stack: Frame[]): Step {
    const idx = this.skipWs(start);
    if (this.ch(idx) === 0x5d) return { done: true, value: [], end: idx + 1 };
    stack.push({ kind: 'array', items: [] });
    return { done: false, next: idx };
  }

  /** Start of `_parse_object_unicode`; `idx` is just after `{`. */
  private openObject(start: number, stack: Frame[]): Step {
    const idx = this.skipWs(start);
    if (this.ch(idx) === 0x7d) return { done: true, value: {}, end: idx + 1 };
    const [key, next] = this.scanKey(idx);
    stack.push({ kind: 'object', obj: {}, key });
    return { done: false, next };
  }

  /** Key, whitespace, `:` and whitespace; returns the key and where its value starts. */
  private scanKey(idx: number): [string, number] {
    if (this.ch(idx) !== QUOTE) {
      throw new PyJsonDecodeError('Expecting property name enclosed in double quotes', idx);
    }
    const [key, afterKey] = this.scanString(idx + 1);
    const colon = this.skipWs(afterKey);
    if (this.ch(colon) !== COLON) throw new PyJsonDecodeError("Expecting ':' delimiter", colon);
    return [key, this.skipWs(colon + 1)];
  }

  /** Loop body of the array/object parsers after a member value ended at `end`. */
  private continueFrame(top: Frame, value: unknown, end: number, stack: Frame[]): Step {
    const idx = this.skipWs(end);
    const c = this.ch(idx);
    if (top.kind === 'array') top.items.push(value);
    else setOwn(top.obj, top.key, value);
    if (c === (top.kind === 'array' ? 0x5d : 0x7d)) {
      stack.pop();
      return { done: true, value: top.kind === 'array' ? top.items : top.obj, end: idx + 1 };
    }
    if (c !== COMMA) throw new PyJsonDecodeError("Expecting ',' delimiter", idx);
    const next = this.skipWs(idx + 1);
    if (top.kind === 'array') return { done: false, next };
    const [key, valueStart] = this.scanKey(next);
    top.key = key;
    return { done: false, next: valueStart };
  }

  /** `scanstring_unicode(s, end, strict=True)`; `end` is just after the opening quote. */
  scanString(start: number): [string, number] {
    const begin = start - 1;
    const chunks: string[] = [];
    let end = start;
    for (;;) {
      let next = end;
      for (; next < this.len; next++) {
        const d = this.ch(next);
        if (d === QUOTE || d === BACKSLASH) break;
        if (d <= 0x1f) throw new PyJsonDecodeError('Invalid control character at', next);
      }
      const c = this.ch(next);
      if (c !== QUOTE && c !== BACKSLASH) throw this.unterminated(begin);
      if (next !== end) chunks.push(this.slice(end, next));
      next++;
      if (c === QUOTE) return [chunks.join(''), next];
      if (next === this.len) throw this.unterminated(begin);
      const [decoded, after] = this.scanEscape(next);
      chunks.push(decoded);
      end = after;
    }
  }

  private unterminated(begin: number): PyJsonDecodeError {
    return new PyJsonDecodeError('Unterminated string starting at', begin);
  }

  /** One escape; `next` is the index of the character after the backslash. */
  private scanEscape(next: number): [string, number] {
    const c = this.ch(next);
    if (c !== 0x75) {
      const char = SIMPLE_ESCAPES.get(c);
      if (char === undefined) throw new PyJsonDecodeError('Invalid \\escape', next - 1);
      return [char, next + 1];
    }
    const first = next + 1;
    let end = first + 4;
    if (end >= this.len) throw new PyJsonDecodeError('Invalid \\uXXXX escape', first - 1);
    let cp = this.hex4(first);
    // Surrogate pair: only tried when at least 7 code points follow (`end + 6 < len`).
    const pairFollows = end + 6 < this.len && this.ch(end) === BACKSLASH && this.ch(end + 1) === 0x75;
    if (cp >= 0xd800 && cp <= 0xdbff && pairFollows) {
      const low = this.hex4(end + 2);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + (((cp - 0xd800) << 10) | (low - 0xdc00));
        end += 6;
      }
    }
    return [String.fromCodePoint(cp), end];
  }

  /** Four hex digits at `from`; failure is reported at `from - 1` (the `u`). */
  private hex4(from: number): number {
    let value = 0;
    for (let i = from; i < from + 4; i++) {
      const digit = hexValue(this.ch(i));
      if (digit < 0) throw new PyJsonDecodeError('Invalid \\uXXXX escape', from - 1);
      value = (value << 4) | digit;
    }
    return value;
  }

  /** `_match_number_unicode`: `[value, end]`, or null for its StopIteration. */
  private matchNumber(start: number): [number | PyFloat, number] | null {
    const last = this.len - 1;
    let idx = start;
    if (this.ch(idx) === MINUS) {
      idx++;
      if (idx > last) return null;
    }
    const lead = this.ch(idx);
    if (lead >= 0x31 && lead <= 0x39) idx = this.skipDigits(idx + 1);
    else if (lead === 0x30) idx++;
    else return null;
    const intEnd = idx;
    if (idx < last && this.ch(idx) === 0x2e && isDigit(this.ch(idx + 1))) idx = this.skipDigits(idx + 2);
    if (idx < last && (this.ch(idx) === 0x65 || this.ch(idx) === 0x45)) {
      const eStart = idx;
      idx++;
      if (idx < last && (this.ch(idx) === MINUS || this.ch(idx) === 0x2b)) idx++;
      idx = this.skipDigits(idx);
      if (!isDigit(this.ch(idx - 1))) idx = eStart;
    }
    const value = Number(this.slice(start, idx));
    return [idx !== intEnd && this.markFloats ? new PyFloat(value) : value, idx];
  }

  private skipDigits(i: number): number {
    let idx = i;
    while (isDigit(this.ch(idx))) idx++;
    return idx;
  }
}
