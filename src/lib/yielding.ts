/**
 * Cooperative yielding for long work on the one event loop (better-sqlite3 is synchronous, so
 * every statement and every CPU step of the worker holds the loop that also answers HTTP).
 */

/** Resolves on the next turn of the event loop, after pending I/O callbacks (setImmediate). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Time a {@link stringifyYielding} runs before it yields, ms. */
export const STRINGIFY_SLICE_MS = 4;

/**
 * `JSON.stringify(value)` (same text, `toJSON` and omitted `undefined` included), built piece by
 * piece, awaiting `pause()` whenever {@link STRINGIFY_SLICE_MS} have passed: a package of many
 * megabytes never holds the event loop for its whole serialization.
 *
 * @param pause - called between pieces; may throw to abandon the work (the worker stopping).
 * @returns the JSON text, or undefined where `JSON.stringify` gives undefined.
 */
export async function stringifyYielding(value: unknown, pause: () => Promise<void>): Promise<string | undefined> {
  let since = performance.now();
  async function tick(): Promise<void> {
    if (performance.now() - since < STRINGIFY_SLICE_MS) return;
    await pause();
    since = performance.now();
  }
  async function encode(input: unknown, key: string): Promise<string | undefined> {
    let v = input;
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
      v = (v as { toJSON(key: string): unknown }).toJSON(key);
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    await tick();
    if (Array.isArray(v)) {
      const items: string[] = [];
      for (let i = 0; i < v.length; i++) items.push((await encode(v[i], String(i))) ?? 'null');
      return `[${items.join(',')}]`;
    }
    const record = v as Record<string, unknown>;
    const fields: string[] = [];
    for (const name of Object.keys(record)) {
      const encoded = await encode(record[name], name);
      if (encoded !== undefined) fields.push(`${JSON.stringify(name)}:${encoded}`);
    }
    return `{${fields.join(',')}}`;
  }
  return encode(value, '');
}
