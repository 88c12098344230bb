import { hash, randomBytes } from 'node:crypto';

/** Scopes a token can carry (PRODUCT.md §2.2); `admin` implies all the others. */
export const TOKEN_SCOPES = ['privacy:write', 'privacy:read', 'policy:read', 'policy:write', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Prefix of every API token; lets secret scanners and the authenticator recognise one. */
export const TOKEN_PREFIX = 'pcs_';

/** A new API token: `pcs_` + 32 random bytes in base64url (256 bits). */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * The stored form of a token: SHA-256, hex. A fast hash is right here (unlike passwords): the
 * token has 256 bits of entropy, so no dictionary applies.
 */
export function hashToken(token: string): string {
  // crypto.hash: one call, no Hash object; it runs on every authenticated request.
  return hash('sha256', token, 'hex');
}

/** True when `granted` includes `needed`, or `admin`. */
export function hasScope(granted: ReadonlySet<string>, needed: string): boolean {
  return granted.has(needed) || granted.has('admin');
}
