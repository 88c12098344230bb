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
