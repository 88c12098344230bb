import { parsePointer, resolveSlot } from './json-pointer.fns.js';

/**
 * Redactions of a package (PRODUCT §2.20, GDPR Art. 15(4)): pure functions over the package as
 * parsed JSON. The stored package stays as found; every reader gets it through
 * {@link applyRedactions}.
 */

/** What the person reads in place of a withheld value: `[withheld: <reason>]`. */
export function withheldText(reason: string): string {
  return `[withheld: ${reason}]`;
}

/** Whether `path` is a JSON Pointer to a member of `pkg` (not the whole package). */
export function pathInPackage(pkg: unknown, path: string): boolean {
  const tokens = parsePointer(path);
  return tokens !== null && tokens.length > 0 && resolveSlot(pkg, tokens) !== null;
}

/**
 * `pkg` with each redaction's value replaced by {@link withheldText} of its reason, in place
 * (pass a fresh parse). Deeper paths first, so a value withheld inside a member that is withheld
 * whole ends as the outer one's text; a path the package does not have (any more) is skipped.
 * @returns `pkg`.
 */
export function applyRedactions<T>(pkg: T, redactions: readonly { path: string; reason: string }[]): T {
  const parsed = redactions
    .map((r) => ({ tokens: parsePointer(r.path), reason: r.reason }))
    .filter((r): r is { tokens: string[]; reason: string } => r.tokens !== null && r.tokens.length > 0)
    .sort((a, b) => b.tokens.length - a.tokens.length);
  for (const { tokens, reason } of parsed) {
    const slot = resolveSlot(pkg, tokens);
    if (slot === null) continue;
    if (Array.isArray(slot.parent)) slot.parent[slot.key as number] = withheldText(reason);
    else slot.parent[slot.key as string] = withheldText(reason);
  }
  return pkg;
}
