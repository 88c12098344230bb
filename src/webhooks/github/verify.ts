import { verify } from '@octokit/webhooks-methods';

/**
 * Checks `X-Hub-Signature-256` (`sha256=<hex HMAC-SHA-256 of the raw body>`) in constant time,
 * with @octokit/webhooks-methods. Source: GitHub Docs, "Validating webhook deliveries".
 *
 * @param body - the raw body, decoded as UTF-8 exactly as received.
 * @returns false for a missing, malformed or wrong signature; never throws.
 */
export async function verifyGithubSignature(secret: string, body: string, signature: string | undefined): Promise<boolean> {
  if (!signature || !body || !/^sha256=[0-9a-f]{64}$/.test(signature)) return false;
  try {
    return await verify(secret, body, signature);
  } catch {
    return false;
  }
}
