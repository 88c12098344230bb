import type { Executor } from '../../db/executor.js';
import { EMAIL_PROVIDER, normalizeEmail } from '../../modules/request-model/request-model.js';
import { repeatWindowStart } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';
import { findRepeatedRequestId } from '../../modules/privacy-requests/repeat-request.repository.js';
import { accountSet } from '../../modules/subject-data/accounts.fns.js';
import { resolveSubject } from '../../modules/subject-data/subject-data.repository.js';
import type { Account, SubjectKey } from '../../modules/subject-data/subject-data.types.js';
import { listLinkedIdentities } from '../../modules/subjects/subject.repository.js';

/**
 * Every identity of the subject a request names (PRODUCT §2.13): the named key, the matched
 * subject's own key and e-mail address, and every account linked to it; only the named key when
 * nothing matched.
 */
async function subjectIdentities(db: Executor, key: SubjectKey): Promise<Account[]> {
  const subject = await resolveSubject(db, key);
  const linked = subject ? await listLinkedIdentities(db, subject.id) : [];
  const accounts = accountSet(key, subject ?? null, linked);
  const email = subject?.email;
  const named = (a: Account) => a.provider === EMAIL_PROVIDER && normalizeEmail(a.account_id) === normalizeEmail(email ?? '');
  if (email && !accounts.some(named)) accounts.push({ provider: EMAIL_PROVIDER, account_id: email });
  return accounts;
}

/**
 * The request a new one repeats (PRODUCT §2.20): the most recent request of the same type in the
 * same workspace for the same matched subject (any of its identities) that is open, or was
 * completed within `windowDays` days before `now` (counted from `completed_at`); null when there
 * is none. Reads only; the caller checks `windowDays > 0` first (0: no check at all). Requests of
 * other workspaces never count.
 */
export async function findRepeatedRequest(
  db: Executor,
  request: SubjectKey & { request_type: string },
  windowDays: number,
  now: Date,
): Promise<string | null> {
  const identities = await subjectIdentities(db, request);
  const id = await findRepeatedRequestId(db, {
    workspaceId: request.workspace_id,
    requestType: request.request_type,
    identities,
    completedSince: repeatWindowStart(now, windowDays),
  });
  return id ?? null;
}
