import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = /^sha256=[0-9a-f]{64}$/;

/**
 * Checks `X-Hub-Signature-256` (`sha256=<hex HMAC-SHA-256 of the raw body>`) in constant time.
 * The HMAC is computed over the bytes as received (no re-encoding of a decoded string), which is
 * what @octokit/webhooks-methods' `verify` computes for a body that is valid UTF-8.
 * Source: GitHub Docs, "Validating webhook deliveries".
 *
 * @param body - the raw body: its bytes, or its text (UTF-8). Callers pass an empty body for
 *   bytes that are not UTF-8, which never verify.
 * @returns false for an empty secret or body, a missing, malformed or wrong signature; never throws.
 */
export function verifyGithubSignature(secret: string, body: Buffer | string, signature: string | undefined): boolean {
  if (!secret || body.length === 0 || !signature || !SIGNATURE.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signature.slice('sha256='.length), 'hex'));
}
