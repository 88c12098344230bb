/** How often caches look for commits by other processes on SQLite (ms): their staleness bound there. */
export const EXTERNAL_CHECK_MS = 100;

/**
 * A small in-process read cache: entries expire after `ttlMs`, and all of them are dropped when
 * `generation()` (an external change counter, e.g. SQLite's `PRAGMA data_version`) moves. Oldest
 * entries are evicted beyond `maxEntries`. Callers invalidate on their own writes.
 */
export interface TtlCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  clear(): void;
}

/**
 * @param options.ttlMs - how long an entry may be served, ms.
 * @param options.maxEntries - the most entries kept (insertion order evicts first).
 * @param options.generation - returns a number that changes whenever the underlying data may
 *   have changed elsewhere; undefined to rely on the TTL alone.
 * @param options.generationCheckMs - read `generation` at most once per this many ms (default 0:
 *   every call); a change elsewhere is then seen within that period.
 * @param options.now - clock in ms, for tests.
 */
export function createTtlCache<V>(options: {
  ttlMs: number;
  maxEntries: number;
  generation?: () => number;
  generationCheckMs?: number;
  now?: () => number;
}): TtlCache<V> {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  const now = options.now ?? Date.now;
  let seenGeneration = options.generation?.();
  let checkedAt = now();
  const checkGeneration = (at: number) => {
    if (!options.generation) return;
    // Reading the generation is not free (SQLite reads its WAL index): at most once per period.
    if (at - checkedAt < (options.generationCheckMs ?? 0)) return;
    checkedAt = at;
    const current = options.generation();
    if (current !== seenGeneration) {
      entries.clear();
      seenGeneration = current;
    }
  };
  return {
    get(key) {
      // One clock read per lookup: this runs on every authenticated request and policy read.
      const at = now();
      checkGeneration(at);
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= at) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value) {
      if (entries.size >= options.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(key, { value, expiresAt: now() + options.ttlMs });
    },
    delete: (key) => void entries.delete(key),
    clear: () => entries.clear(),
  };
}
