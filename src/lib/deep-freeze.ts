/**
 * Freezes `value` and everything reachable from it (plain objects and arrays), so a cached value
 * can be handed to many callers without copying: a write to it throws (ES modules are strict).
 *
 * @returns the same value, frozen.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
