import { createHmac } from 'node:crypto';

/**
 * The keyed pseudonym of an account: HMAC-SHA-256 over `provider:account_id` under the service's
 * pseudonym key, hex (64 chars). Stable for one deployment, unlinkable without the key
 * (GDPR Art. 4(5) pseudonymisation). Used for change-event authors and tombstones alike, so an
 * access or erasure request finds what was stored under it.
 */
export function accountPseudonym(key: string, provider: string, accountId: string): string {
  return createHmac('sha256', key).update(`${provider.toLowerCase()}:${accountId}`).digest('hex');
}
