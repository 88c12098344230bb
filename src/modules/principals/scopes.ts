/**
 * Scopes a principal (an API token or an OIDC operator) can carry (PRODUCT.md §2.2); `admin` implies all the others. `tasks:write`: a
 * data system reporting its task results (§2.9).
 */
export const SCOPES = ['privacy:write', 'privacy:read', 'policy:read', 'policy:write', 'tasks:write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** True when `granted` includes `needed` (or one of them, for a list), or `admin`. */
export function hasScope(granted: ReadonlySet<string>, needed: string | readonly string[]): boolean {
  if (granted.has('admin')) return true;
  return typeof needed === 'string' ? granted.has(needed) : needed.some((scope) => granted.has(scope));
}
