/**
 * A request's own identity as the identity a data system is searched by (PRODUCT §2.17): the
 * dataset name (Fides `fides_meta.identity`) a `(subject_provider, subject_id)` pair stands for,
 * and the values it is matched with. Pure; no I/O.
 */

import { EMAIL_PROVIDER } from '../request-model/request-model.js';

/** `subject_provider` of a request by phone number (PRODUCT §2.17). */
export const PHONE_PROVIDER = 'phone';

/** E.164 (ITU-T E.164 §6: at most 15 digits, no leading 0 in the country code), with its `+`. */
export const E164_PATTERN = /^\+[1-9][0-9]{6,14}$/;

/** What a phone number may carry for readability (U+0020 spaces, dashes, dots, parentheses): removed before the E.164 check. */
const PHONE_PUNCTUATION = /[ .()-]/g;

/**
 * A phone number as E.164 (PRODUCT §2.17): spaces, dashes, dots and parentheses removed, then
 * `^\+[1-9][0-9]{6,14}$`. `" +49 (30) 1234-5678 "` → `"+493012345678"`.
 * @returns the number, or null when what is left is not E.164 (no `+`, a leading 0, letters, too short or long).
 */
export function normalizePhoneNumber(text: string): string | null {
  const compact = text.replace(PHONE_PUNCTUATION, '');
  return E164_PATTERN.test(compact) ? compact : null;
}

/** The Pydantic-shaped message of a refused phone number (as pydantic-extra-types' `PhoneNumber` words it). */
export const INVALID_PHONE_MESSAGE = 'value is not a valid phone number';

/**
 * Why `subject_id` cannot stand for its `subject_provider`, or null when it can: a `phone`
 * identity must be a phone number in E.164 once punctuation is removed ({@link normalizePhoneNumber}).
 * Other providers take any text.
 */
export function subjectIdProblem(subjectProvider: string, subjectId: string): string | null {
  if (subjectProvider === PHONE_PROVIDER && normalizePhoneNumber(subjectId) === null) return INVALID_PHONE_MESSAGE;
  return null;
}

/** The identity a request names, under its dataset name, with the values it is matched by. */
export interface RequestIdentity {
  /** `email`, `phone_number` or `<provider>_id` (provider lower-cased). */
  name: string;
  /** Each value once, in order; empty when the identity cannot be searched (a phone number that is not E.164). */
  values: string[];
}

/**
 * The request's own identity as a data system is searched by it (PRODUCT §2.17):
 * `email` → `email`, the address trimmed, matched as given and lower-cased (both values);
 * `phone` → `phone_number` in E.164 ({@link normalizePhoneNumber}); any other provider P →
 * `P_id` (P lower-cased) with the id as given.
 */
export function requestIdentity(subjectProvider: string, subjectId: string): RequestIdentity {
  if (subjectProvider === EMAIL_PROVIDER) {
    const address = subjectId.trim();
    return { name: 'email', values: [...new Set([address, address.toLowerCase()])].filter((v) => v !== '') };
  }
  if (subjectProvider === PHONE_PROVIDER) {
    const number = normalizePhoneNumber(subjectId);
    return { name: 'phone_number', values: number === null ? [] : [number] };
  }
  return { name: `${subjectProvider.toLowerCase()}_id`, values: [subjectId] };
}

/** Providers whose names are not written as a capitalised word. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = { github: 'GitHub', gitlab: 'GitLab', workos: 'WorkOS' };

/**
 * How a letter names an identity (PRODUCT §2.13: plain words): `email` → "e-mail address",
 * `phone_number` → "phone number", `username` → "user name", `github_id` → "GitHub account id",
 * `clerk_id` → "Clerk account id"; another name with its underscores as spaces.
 */
export function identityWords(name: string): string {
  if (name === 'email') return 'e-mail address';
  if (name === 'phone_number') return 'phone number';
  if (name === 'username') return 'user name';
  const provider = /^(.+)_id$/.exec(name)?.[1];
  if (!provider) return name.replaceAll('_', ' ');
  const word = PROVIDER_NAMES[provider] ?? `${provider.charAt(0).toUpperCase()}${provider.slice(1).replaceAll('_', ' ')}`;
  return `${word} account id`;
}
