/**
 * Numbers of a target database as JSON numbers (PRODUCT §2.17: "numbers stay numbers"). The drivers
 * hand a PostgreSQL `bigint`/`numeric` and a MySQL `BIGINT`/`DECIMAL` over as text, since a
 * JavaScript number cannot hold every such value; the package and the letter show a number as a
 * number whenever doing so changes nothing.
 */

/** A decimal written in text: its sign, its significant digits (no leading or trailing zeros) and the power of ten they are scaled by. */
interface Decimal {
  negative: boolean;
  digits: string;
  exponent: number;
}

/** The decimal value `text` writes (`-12.50`, `1e+21`), normalized; null when it is not a decimal number. */
function decimalOf(text: string): Decimal | null {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return null;
  const [, sign = '', whole = '', fraction = '', power = '0'] = m;
  if (whole === '' && fraction === '') return null;
  const all = `${whole}${fraction}`.replace(/^0+/, '');
  if (all === '') return { negative: false, digits: '0', exponent: 0 };
  const digits = all.replace(/0+$/, '');
  return { negative: sign === '-', digits, exponent: Number(power) - fraction.length + (all.length - digits.length) };
}

/**
 * `text` (a decimal number as a database driver gives it) as a JSON number when that number is
 * exactly the same value: when the double nearest to it prints back as the same decimal (every
 * integer up to 2^53 and the exactly representable ones beyond, decimals of up to 15 significant
 * digits; `12.50` becomes 12.5, the same value). Otherwise `text` unchanged: `9007199254740993`,
 * `0.1000000000000000055511`, `NaN` and `Infinity` stay strings, so no digit is ever lost.
 */
export function exactJsonNumber(text: string): number | string {
  const value = Number(text);
  if (!Number.isFinite(value)) return text;
  const given = decimalOf(text);
  const printed = decimalOf(String(value));
  if (!given || !printed) return text;
  const same = given.negative === printed.negative && given.digits === printed.digits && given.exponent === printed.exponent;
  return same ? value : text;
}
