import type { Policy } from '../policies/policy.types.js';
import type { ChangeDecision, IncomingChangeEvent } from './change-event.types.js';

/** The author columns of a change event. */
export interface StoredAuthor {
  author_account_id: string | null;
  author_login: string | null;
  author_pseudonym: string | null;
}

const NO_AUTHOR: StoredAuthor = { author_account_id: null, author_login: null, author_pseudonym: null };

/**
 * How the author is stored: in full (`full`), as a keyed pseudonym (`pseudonymous`), or not at all
 * (`none`, or an erased author, whatever the policy). Returns the columns and the reason recorded.
 *
 * @param pseudonym - the author's keyed pseudonym (see lib/keyed-hash.ts), or null without an author.
 */
export function storedAuthor(
  author: IncomingChangeEvent['author'],
  identity: Policy['author_identity'],
  pseudonym: string | null,
  erased: boolean,
): { columns: StoredAuthor; reason: string | null } {
  if (!author || pseudonym === null) return { columns: NO_AUTHOR, reason: null };
  if (erased) return { columns: NO_AUTHOR, reason: 'author_erased' };
  if (identity === 'none') return { columns: NO_AUTHOR, reason: 'author_omitted' };
  if (identity === 'pseudonymous')
    return { columns: { ...NO_AUTHOR, author_pseudonym: pseudonym }, reason: 'author_pseudonymized' };
  return {
    columns: { author_account_id: author.account_id, author_login: author.login, author_pseudonym: pseudonym },
    reason: null,
  };
}

/** The decision recorded with a change event: the effective policy's verdict and why. */
export function decide(policy: Policy, policyVersion: string, authorReason: string | null): ChangeDecision {
  const reasons: string[] = [];
  if (!policy.processing_allowed) reasons.push('processing_disallowed');
  if (policy.excluded_paths.length > 0) reasons.push('paths_excluded');
  if (authorReason) reasons.push(authorReason);
  return {
    processing_allowed: policy.processing_allowed,
    reasons,
    excluded_paths: [...policy.excluded_paths],
    policy_version: policyVersion,
  };
}
