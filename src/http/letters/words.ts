import { categoryName } from '../../modules/data-categories/data-categories.fns.js';
import type { Regulation } from '../../modules/policies/policy.types.js';

/**
 * A data category's plain name from the taxonomy (`GET /api/v1/data-categories`: `E-mail address`,
 * `IP addresses`), or its nearest named ancestor's; never the key itself (PRODUCT §2.13, §2.17).
 */
export const taxonomyName = categoryName;

/** What a request covered, in plain words: `All your data` for `user`, else the category's taxonomy name. */
export function scopeWords(key: string): string {
  return key === 'user' ? 'All your data' : taxonomyName(key);
}

/**
 * Each data category this service holds itself, in plain words, as a heading of the letter's
 * "Your data" (PRODUCT §1 lists the keys). These words describe this service's own (code-host)
 * data: `user.content` here is pull and merge requests. Other systems' data is named by
 * {@link taxonomyName}.
 */
export const CATEGORY_WORDS: Readonly<Record<string, string>> = {
  user: 'All your data',
  'user.account': 'Your accounts and usernames',
  'user.contact': 'Your contact details',
  'user.contact.email': 'Your e-mail address',
  'user.name': 'Your name',
  'user.content': 'Pull and merge requests you authored',
};

/** A category of this service's own data in plain words ({@link CATEGORY_WORDS}), else its {@link taxonomyName}. */
export function categoryWords(key: string): string {
  return CATEGORY_WORDS[key] ?? taxonomyName(key);
}

/** What each request type asked for, in a sentence's words, and the article of each regulation. */
const REQUEST_WORDS: Readonly<Record<string, { words: string; gdpr: string; ccpa: string }>> = {
  access: {
    words: 'access to your personal data',
    gdpr: 'right of access, GDPR Art. 15',
    ccpa: 'right to know, Cal. Civ. Code §1798.110',
  },
  export: {
    words: 'a copy of your personal data in a machine-readable format',
    gdpr: 'right to data portability, GDPR Art. 20',
    ccpa: 'a portable copy, Cal. Civ. Code §1798.130(a)(2)(B)',
  },
};

/** What a request of `type` asked for, with the articles of the `regulations` it is under. */
export function requestWords(type: string, regulations: readonly Regulation[]): string {
  const known = REQUEST_WORDS[type];
  if (!known) return `a ${type} request`;
  return `${known.words} (${regulations.map((r) => known[r]).join('; ')})`;
}

/** Field names of the package data as a person reads them; others are shown with `_` as spaces. */
export const FIELD_WORDS: Readonly<Record<string, string>> = {
  identity: 'Your account at the sign-in provider',
  provider: 'Provider',
  id: 'Id',
  state: 'Account state at the sign-in provider',
  username: 'Username',
  earlier_usernames: 'Earlier usernames',
  linked_accounts: 'Your linked GitHub or GitLab accounts',
  account_id: 'Account id',
  login: 'Login',
  identity_events: 'Updates about your account we received',
  event_id: 'Event id',
  type: 'Type',
  occurred_at: 'Occurred',
  received_at: 'Received',
  privacy_requests: 'Your other privacy requests',
  request_type: 'Request type',
  status: 'Status',
  created_at: 'Filed',
  completed_at: 'Completed',
  email: 'E-mail address',
  earlier_values: 'Earlier values',
  name: 'Name',
  change_events: 'Pull and merge request events',
  repository: 'Repository',
  number: 'Number',
  action: 'Action',
  title: 'Title',
  head_sha: 'Head commit',
  author_account_id: 'Author account id',
  author_login: 'Author login',
};

/** A name as a label: `_` and `-` as spaces, capitalised (`postal_code` → `Postal code`). */
export function humanized(key: string): string {
  const spaced = key.replaceAll(/[_-]+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A field name of this service's own data as a label: {@link FIELD_WORDS}, else {@link humanized}. */
export function fieldWords(key: string): string {
  return FIELD_WORDS[key] ?? humanized(key);
}
