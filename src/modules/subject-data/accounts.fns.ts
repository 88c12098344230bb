import type { LinkedAccount } from '../subjects/identity-event.types.js';
import type { Account, SubjectKey } from './subject-data.types.js';

function sameAccount(a: Account, b: Account): boolean {
  return a.provider.toLowerCase() === b.provider.toLowerCase() && a.account_id === b.account_id;
}

/**
 * The account set a request covers (PRODUCT.md §1, "a privacy request covers the whole linked
 * set"): the key the request named, the subject's own identity-provider key (when the request
 * named a linked code-host account instead), and every linked account; each once.
 *
 * @param subject - the resolved subject's key, or null when the service has never seen it.
 */
export function accountSet(
  requested: SubjectKey,
  subject: Pick<SubjectKey, 'subject_provider' | 'subject_id'> | null,
  linked: readonly LinkedAccount[],
): Account[] {
  const candidates: Account[] = [
    { provider: requested.subject_provider, account_id: requested.subject_id },
    ...(subject ? [{ provider: subject.subject_provider, account_id: subject.subject_id }] : []),
    ...linked.map((a) => ({ provider: a.provider, account_id: a.account_id })),
  ];
  const out: Account[] = [];
  for (const account of candidates) if (!out.some((seen) => sameAccount(seen, account))) out.push(account);
  return out;
}
