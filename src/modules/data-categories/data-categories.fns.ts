/**
 * Data categories the service itself holds (PRODUCT.md §1): the keys a request's `scope` and a
 * data system's `categories` may name. Fideslang-style dotted keys: a key covers its descendants.
 */
export const SCOPE_KEYS = ['user', 'user.account', 'user.contact', 'user.contact.email', 'user.name', 'user.content'] as const;
export type ScopeKey = (typeof SCOPE_KEYS)[number];

/** True when `a` covers `b`: the same key or one of its ancestors (fideslang-style dotted keys). */
export function coversKey(a: string, b: string): boolean {
  return a === b || b.startsWith(`${a}.`);
}
