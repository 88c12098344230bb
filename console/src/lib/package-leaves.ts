// The values of an access/export package, one per JSON Pointer (RFC 6901), for the review before
// release (PRODUCT §2.20, §2.21): what an officer withholds is named by the pointer the API takes.

/** One value of the package: where it is and what it says. */
export interface PackageLeaf {
  /** JSON Pointer into the package, e.g. `/systems/shop/orders/0/notes`. */
  path: string;
  /** The value as text (a string as is; numbers, booleans and null as JSON). */
  text: string;
}

/** RFC 6901's escaping of one reference token: `~` → `~0`, `/` → `~1`. */
export function pointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * The values under `root` (a pointer into `pkg`; '' for all of it), depth first in the package's
 * order, at most `limit` of them: strings, numbers and booleans. A null, an empty list or an
 * empty object says nothing about anyone and is not listed. `more` says how many were left out
 * past the limit.
 */
export function packageLeaves(pkg: unknown, root: string, limit: number): { leaves: PackageLeaf[]; more: number } {
  const leaves: PackageLeaf[] = [];
  let more = 0;
  const visit = (value: unknown, path: string) => {
    if (value === null) return;
    if (typeof value === 'object') {
      const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
      for (const [key, child] of entries) visit(child, `${path}/${pointerToken(key)}`);
      return;
    }
    if (leaves.length >= limit) {
      more += 1;
      return;
    }
    leaves.push({ path, text: typeof value === 'string' ? value : String(value) });
  };
  let start: unknown = pkg;
  for (const token of root.split('/').slice(1)) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    start = start !== null && typeof start === 'object' ? (start as Record<string, unknown>)[key] : undefined;
  }
  if (start !== undefined) visit(start, root);
  return { leaves, more };
}
