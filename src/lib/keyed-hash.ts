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

/** How many pseudonyms {@link createPseudonymizer} keeps before it starts over. */
export const PSEUDONYM_MEMO_ENTRIES = 10_000;

/**
 * {@link accountPseudonym} under one key, remembered for the accounts seen recently: every
 * webhook delivery pseudonymises its author or subject, and the same few accounts come back.
 * The result is a pure function of the key and the account, so nothing ever invalidates an
 * entry; the memo holds at most `maxEntries` and is emptied when full.
 */
export function createPseudonymizer(key: string, maxEntries = PSEUDONYM_MEMO_ENTRIES) {
  const memo = new Map<string, string>();
  return (provider: string, accountId: string): string => {
    const account = `${provider.toLowerCase()}:${accountId}`;
    let pseudonym = memo.get(account);
    if (pseudonym === undefined) {
      pseudonym = createHmac('sha256', key).update(account).digest('hex');
      if (memo.size >= maxEntries) memo.clear();
      memo.set(account, pseudonym);
    }
    return pseudonym;
  };
}
