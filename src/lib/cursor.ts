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
