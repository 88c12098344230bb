/**
 * JSON Pointer (RFC 6901) over parsed JSON: what a redaction's `path` names in a package
 * (PRODUCT §2.20). Pure.
 */

/**
 * The reference tokens of `pointer` (RFC 6901 §3–4: `/` separates them, `~1` is `/`, `~0` is
 * `~`), or null when it is not a pointer: it must start with `/`, and a `~` must be followed by
 * `0` or `1`. The empty pointer (the whole document) is null here too: a package cannot be
 * withheld whole (reject the request instead).
 */
export function parsePointer(pointer: string): string[] | null {
  if (!pointer.startsWith('/')) return null;
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    if (/~(?![01])/.test(raw)) return null;
    tokens.push(raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return tokens;
}

/** An array index as RFC 6901 §4 writes it: `0`, or digits without a leading zero. */
function arrayIndex(token: string, length: number): number | null {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) return null;
  const index = Number(token);
  return index < length ? index : null;
}

/** The container holding the value `tokens` name, and the key or index of that value in it. */
export interface PointerSlot {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
}

/**
 * Where `tokens` point in `doc`: the parent container and the member's key or index, or null
 * when some token names no member (a missing key, an index past the end, `-`, a step into a
 * string or number). Own properties only.
 */
export function resolveSlot(doc: unknown, tokens: readonly string[]): PointerSlot | null {
  let current: unknown = doc;
  let slot: PointerSlot | null = null;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      const index = arrayIndex(token, current.length);
      if (index === null) return null;
      slot = { parent: current, key: index };
      current = current[index];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, token)) {
      slot = { parent: current as Record<string, unknown>, key: token };
      current = (current as Record<string, unknown>)[token];
    } else return null;
  }
  return slot;
}

/** RFC 6901's form of `tokens` (the inverse of {@link parsePointer}). */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((t) => `/${t.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}
