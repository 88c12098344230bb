/**
 * The data categories a request's processing works on: the leaves of the scope keys of
 * PRODUCT.md §1 (`user` and `user.contact` are only parents).
 */
export const DATA_CATEGORIES = ['user.account', 'user.contact.email', 'user.name', 'user.content'] as const;
export type DataCategory = (typeof DATA_CATEGORIES)[number];

/**
 * True when `scope` covers `category`: some key equals it or is one of its ancestors
 * (fideslang-style dotted keys: `user` covers everything, `user.contact` covers
 * `user.contact.email`). A key never covers its parent.
 */
export function covers(scope: readonly string[], category: string): boolean {
  return scope.some((key) => category === key || category.startsWith(`${key}.`));
}

/** The {@link DATA_CATEGORIES} that `scope` covers, in their fixed order. */
export function categoriesInScope(scope: readonly string[]): DataCategory[] {
  return DATA_CATEGORIES.filter((category) => covers(scope, category));
}

/**
 * A request row's `scope` column (a JSON array of strings) as an array.
 * @throws SyntaxError when the column is not JSON; non-strings are dropped.
 */
export function parseScope(column: string): string[] {
  const value: unknown = JSON.parse(column);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
