import { type DrpVerifyKey, parseVerifyKey } from '../../modules/drp/signed-body.fns.js';

const cache = new Map<string, DrpVerifyKey | null>();
/** Entries kept before the cache starts over (registrations are few; a bound all the same). */
const MOST = 1000;

/**
 * The parsed verify key of a stored registration (src/modules/drp/README.md "Wiring it": parse
 * once, cache by key text). Null for a key that no longer parses (stored before a stricter rule):
 * such an agent's signatures never verify.
 */
export function storedVerifyKey(text: string): DrpVerifyKey | null {
  const known = cache.get(text);
  if (known !== undefined) return known;
  if (cache.size >= MOST) cache.clear();
  const parsed = parseVerifyKey(text);
  const key = parsed.ok ? parsed.key : null;
  cache.set(text, key);
  return key;
}
