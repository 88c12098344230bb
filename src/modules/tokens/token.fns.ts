import { hash, randomBytes } from 'node:crypto';

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

/** A data system key a token may be limited to (PRODUCT §2.9). */
export const SYSTEM_KEY = /^[a-z0-9][a-z0-9-]{0,62}$/;
