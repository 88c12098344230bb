import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether an `Authorization` header value is exactly `Bearer <token>` (RFC 6750 §2.1; the scheme
 * case-insensitive). Compares SHA-256 digests in constant time, so neither the token's content
 * nor its length leaks through timing.
 *
 * @param header - the header as received, or undefined when absent.
 * @param token - the expected secret.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}
