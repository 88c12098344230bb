import { packageWithout } from './package.fns.js';
import { categoriesInScope, type DataCategory } from './scope.fns.js';

/**
 * An answer in transit survives a deletion (PRODUCT §2.13, issue 22 item 7): a completed
 * access/export package of the subject that nobody has fetched yet is not cut by the deletion;
 * the categories it would erase are held on the package and erased once it has been fetched
 * once (the retention sweep, src/jobs/package-expiry.ts), or with the whole package when it
 * expires (`PACKAGE_RETENTION_DAYS`).
 */

/** What decides whether a stored package is in transit (a `request_results` row and its request's status). */
export interface PackageDelivery {
  package: string | null;
  package_fetched_at: string | null;
  package_expires_at: string | null;
  /** The status of the request the package answers. */
  status: string | undefined;
}

/**
 * True when the package answers a completed request, exists, has not been fetched yet and has
 * not expired at `now` (RFC 3339 UTC): a deletion holds its erasure instead of cutting it.
 */
export function isInTransit(p: PackageDelivery, now: string): boolean {
  if (p.package === null || p.status !== 'completed' || p.package_fetched_at !== null) return false;
  return p.package_expires_at === null || p.package_expires_at > now;
}

/** The categories held on a package (`package_erasure_held`, JSON), none when null or unreadable. */
export function heldCategories(json: string | null): DataCategory[] {
  if (json === null) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? categoriesInScope(value.filter((v): v is string => typeof v === 'string')) : [];
  } catch {
    return [];
  }
}

/** The held categories after a further erasure of `erase`: both, in category order, as stored JSON. */
export function holdMore(json: string | null, erase: readonly DataCategory[]): string {
  return JSON.stringify(categoriesInScope([...heldCategories(json), ...erase]));
}

/**
 * The package as it stands once delivered: without the held categories (null when nothing is
 * left: it is erased). A package with nothing held is returned unchanged.
 */
export function deliveredPackage(pkg: string, held: string | null): string | null {
  const categories = heldCategories(held);
  return categories.length === 0 ? pkg : packageWithout(pkg, categories).json;
}
