import { identityWords } from '../../modules/subject-data/request-identity.fns.js';
import { element, type Html, raw } from './html.js';

/**
 * A data system that could not be searched with what the person gave (PRODUCT §2.17: a task
 * `not_searchable`): its name and the identities (names, never values) it is searched by and the
 * request had.
 */
export interface NotSearchedPart {
  key: string;
  name: string;
  searched_by: string[];
  request_had: string[];
}

/** "your phone number or your user name": identities as a person reads them. */
function identityList(names: readonly string[]): string {
  const words = names.map((name) => `your ${identityWords(name)}`);
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/**
 * What the person is told of a system that could not be searched (PRODUCT §2.17), never "holds
 * no data": that it was not searched with what they gave, and which identity would let it be.
 * `Shop database could not be searched with what you gave us (your e-mail address): it finds
 * people by your phone number. Give us your phone number and we will search it.`
 */
export function notSearchedSentence(part: Pick<NotSearchedPart, 'name' | 'searched_by' | 'request_had'>): string {
  const gave = part.request_had.length > 0 ? ` (${identityList(part.request_had)})` : '';
  const by = part.searched_by.length > 0 ? `: it finds people by ${identityList(part.searched_by)}` : '';
  const next =
    part.searched_by.length > 0
      ? ` Give us ${identityList(part.searched_by)} and we will search it.`
      : ' Ask us how it can be searched for you.';
  return `${part.name} could not be searched with what you gave us${gave}${by}. We do not know whether it holds data about you.${next}`;
}

/**
 * "Systems we could not search" (PRODUCT §2.17): one sentence per such system
 * ({@link notSearchedSentence}); nothing when every system could be searched.
 */
export function notSearchedPart(parts: readonly NotSearchedPart[] | undefined): Html {
  if (!parts || parts.length === 0) return raw('');
  return element('section', [
    element('h2', 'Systems we could not search'),
    ...parts.map((part) => element('p', notSearchedSentence(part), 'not-searched')),
  ]);
}
