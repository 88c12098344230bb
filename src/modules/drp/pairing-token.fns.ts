import { hash, randomBytes } from 'node:crypto';

/** Prefix of a DRP pair-wise token (PRODUCT §2.19), so secret scanners and logs can recognise one. */
export const PAIRING_TOKEN_PREFIX = 'drp_';
/** A token's shape: the prefix and 43 Base64url characters (32 bytes, unpadded). */
const TOKEN_SHAPE = /^drp_[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/**
 * A new pair-wise token for one (agent, workspace) pair (DRP §2.05.1: "generated using a
 * cryptographically secure source"; PRODUCT §2.19): `drp_` + 32 bytes of Node's CSPRNG in
 * Base64url without padding (43 characters). Shown once, in the key setup's answer.
 */
export function newPairingToken(): string {
  return PAIRING_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * The stored form of a pair-wise token: SHA-256 of its text, lowercase hex (64 characters). The
 * store finds a token by this hash (an index lookup), so no comparison of secrets happens in
 * process and no constant-time compare is needed: the lookup's timing depends on the hash,
 * which an attacker cannot steer towards a stored one. A fast hash is right for 256 random bits.
 */
export function pairingTokenHash(token: string): string {
  return hash('sha256', token, 'hex');
}

/**
 * The pair-wise token of an `Authorization` header (`Bearer drp_…`, RFC 6750 §2.1, the scheme
 * case-insensitive), or null when the header is absent, not a bearer token, or not of a DRP
 * token's shape (such a call is a 401 without a lookup).
 */
export function bearerPairingToken(header: string | undefined): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  const token = match?.[1];
  return token !== undefined && TOKEN_SHAPE.test(token) ? token : null;
}
