import { createHash } from 'node:crypto';

/** Opaque list cursor: base64url of the last id of the previous page. */
export function encodeCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

/**
 * The id inside a cursor made by {@link encodeCursor} for ids with `prefix` (`pr`, `chg`, …),
 * or null when the cursor is not one.
 */
export function decodeCursor(cursor: string, prefix: string): string | null {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  return new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`).test(id) ? id : null;
}

/**
 * A page from `limit + 1` rows fetched newest first: the first `limit` rows, and a cursor after
 * the last of them when the extra row shows that more follow.
 */
export function toPage<T extends { id: string }>(rows: T[], limit: number): { items: T[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}

/**
 * A cursor this service did not issue, or issued for another query (other filters, another
 * sort): the list cannot go on from it. `cursor` is the value as sent (echoed in the 422).
 */
export class InvalidCursorError extends Error {
  constructor(readonly cursor: string) {
    super('invalid cursor');
  }
}

/** A short fingerprint of a list query's filters: the same filters (in any key order), the same text. */
function queryBinding(filters: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(filters)
      .sort()
      .map((key) => [key, filters[key] ?? null]),
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/**
 * A cursor bound to its query: base64url of JSON `{"p": position, "q": fingerprint of filters}`.
 * `position` is the sort key of the page's last item (e.g. `[seq]`, `[due, id]`).
 */
export function encodeBoundCursor(position: readonly (string | number)[], filters: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ p: position, q: queryBinding(filters) }), 'utf8').toString('base64url');
}

/**
 * The position inside a cursor made by {@link encodeBoundCursor} for the same `filters`.
 * `isPosition` checks its shape (types, id prefixes).
 * @throws InvalidCursorError when the cursor is malformed, was made for other filters, or its position is not one.
 */
export function decodeBoundCursor<P extends readonly unknown[]>(
  cursor: string,
  filters: Record<string, unknown>,
  isPosition: (position: readonly unknown[]) => position is P,
): P {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError(cursor);
  }
  if (typeof parsed !== 'object' || parsed === null) throw new InvalidCursorError(cursor);
  const { p, q } = parsed as { p?: unknown; q?: unknown };
  if (q !== queryBinding(filters) || !Array.isArray(p) || !isPosition(p)) throw new InvalidCursorError(cursor);
  return p;
}
