import type { Selectable } from 'kysely';
import type { ChangeEventRow } from '../change-events/change-event.repository.js';
import type { PrivacyRequestRow } from '../request-model/request-model.js';
import type { RequestResultTable } from '../../db/tables/privacy-request.table.js';
import type { LinkedAccount } from '../subjects/identity-event.types.js';
import type { IdentityEventRow, SubjectRow } from '../subjects/subject.repository.js';

export type RequestResultRow = Selectable<RequestResultTable>;

/** One identity of a subject's linked set: an identity-provider user or a code-host account. */
export interface Account {
  provider: string;
  account_id: string;
}

/** The key a privacy request names its subject by (PRODUCT.md §1). */
export interface SubjectKey {
  workspace_id: string;
  subject_provider: string;
  subject_id: string;
}

/**
 * Everything the service holds about one data subject, as read for one request: the folded
 * profile and its linked identities, the identity events it was folded from, the change events
 * authored by any account of the set (found by keyed pseudonym or stored account id), and the
 * subject's other privacy requests with what processing them produced.
 */
export interface SubjectData {
  /** The `subjects` row, or null when the service has never seen the subject. */
  subject: SubjectRow | null;
  /** Code-host accounts linked to the subject (empty without a subject). */
  linked: LinkedAccount[];
  /** The account set: the linked accounts, the subject's own key and the key the request named. */
  accounts: Account[];
  identityEvents: IdentityEventRow[];
  /** Oldest first. */
  changeEvents: ChangeEventRow[];
  /** The subject's privacy requests other than the one being processed, oldest first. */
  requests: PrivacyRequestRow[];
  /** The stored results of {@link requests}. */
  results: RequestResultRow[];
}
