/**
 * Cooperative yielding for long work on the one event loop (better-sqlite3 is synchronous, so
 * every statement and every CPU step of the worker holds the loop that also answers HTTP).
 */

/** Resolves on the next turn of the event loop, after pending I/O callbacks (setImmediate). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Time a {@link stringifyYielding} runs before it yields, ms. */
export const STRINGIFY_SLICE_MS = 4;

/**
 * Values of at most this many nodes (objects, arrays and leaves) are serialized by one
 * `JSON.stringify` call: well under a millisecond, so no yield is needed inside them.
 */
export const STRINGIFY_SYNC_NODES = 2_000;

/**
 * Whether `value` has at most `limit` nodes. Walks at most `limit` of them, so asking costs no
 * more than serializing a value of that size. This is the fast path of {@link stringifyYielding}:
 * a typical package (tens of nodes) is one `JSON.stringify` instead of one await per node, which
 * cost the worker ~15 % of its throughput on small requests.
 */
function hasAtMostNodes(value: unknown, limit: number): boolean {
  let budget = limit;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (--budget < 0) return false;
    if (next !== null && typeof next === 'object') {
      // One push per child, stopping at the budget: a spread of a huge array would overflow the stack.
      const children = Array.isArray(next) ? next : Object.values(next as Record<string, unknown>);
      for (let i = 0; i < children.length && pending.length <= budget; i++) pending.push(children[i]);
      if (pending.length > budget) return false;
    }
  }
  return true;
}

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
  /** True when the slice is used up: the caller then awaits {@link breathe} (no await otherwise). */
  const due = () => performance.now() - since >= STRINGIFY_SLICE_MS;
  async function breathe(): Promise<void> {
    await pause();
    since = performance.now();
  }
  async function encode(input: unknown, key: string): Promise<string | undefined> {
    let v = input;
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
      v = (v as { toJSON(key: string): unknown }).toJSON(key);
    if (v === null || typeof v !== 'object' || hasAtMostNodes(v, STRINGIFY_SYNC_NODES)) return JSON.stringify(v);
    if (Array.isArray(v)) {
      const items: string[] = [];
      for (let i = 0; i < v.length; i++) {
        if (due()) await breathe();
        items.push((await encode(v[i], String(i))) ?? 'null');
      }
      return `[${items.join(',')}]`;
    }
    const record = v as Record<string, unknown>;
    const fields: string[] = [];
    for (const name of Object.keys(record)) {
      if (due()) await breathe();
      const encoded = await encode(record[name], name);
      if (encoded !== undefined) fields.push(`${JSON.stringify(name)}:${encoded}`);
    }
    return `{${fields.join(',')}}`;
  }
  return encode(value, '');
}
