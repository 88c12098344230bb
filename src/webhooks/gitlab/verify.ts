import { timingSafeEqual } from 'node:crypto';
import { hashSecret } from '../../modules/integrations/integration.service.js';

/**
 * Checks `X-Gitlab-Token` against the stored SHA-256 of the integration's token, in constant
 * time (hashing both sides first makes the lengths equal). Source: GitLab Docs, "Webhooks:
 * validate payloads by using a secret token".
 *
 * @returns false for a missing or wrong token; never throws.
 */
export function verifyGitlabToken(storedHash: string, token: string | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(storedHash, 'hex');
  const presented = Buffer.from(hashSecret(token), 'hex');
  return expected.length === presented.length && timingSafeEqual(expected, presented);
}
