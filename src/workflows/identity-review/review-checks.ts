import type { Executor } from '../../db/executor.js';
import { NOT_SEARCHABLE } from '../../modules/data-systems/data-task.fns.js';
import { taskStatusesOfRequest } from '../../modules/data-systems/data-task-result.repository.js';
import { coversWorkspace, type Principal } from '../../modules/principals/principal.js';
import { NotAwaitingIdentityReviewError, RequestNotFoundError } from '../../modules/privacy-requests/privacy-request.errors.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { IDENTITY_UNMATCHED } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';

/** What a confirmed no-data answer states (GDPR Art. 15(1): confirmation whether data is processed). */
export const NO_DATA_CONFIRMATION =
  'We have checked this service and every system that holds personal data for us: we do not process any personal data about you.';

/**
 * The confirmation when a system could not be searched with what the person gave (PRODUCT §2.17):
 * it says no more than was looked at; the answer names the systems not searched.
 */
export const NO_DATA_CONFIRMATION_SEARCHED =
  'We have checked this service and every system we could search with what you gave us: we found no personal data about you there. ' +
  'The systems we could not search are named in this answer.';

/**
 * What confirming no data tells the person (GDPR Art. 15(1)): that nothing is processed, or, when
 * a system could not be searched with what they gave (PRODUCT §2.17), that the systems it could
 * search hold nothing. The preview and the confirmation read it the same way.
 */
export async function noDataStatement(db: Executor, id: string): Promise<string> {
  const unsearched = (await taskStatusesOfRequest(db, id)).some((t) => t.status === NOT_SEARCHABLE);
  return unsearched ? NO_DATA_CONFIRMATION_SEARCHED : NO_DATA_CONFIRMATION;
}

/**
 * Checks that `row` (request `id`, read or locked) is the principal's and waits for identity
 * review (PRODUCT §2.13).
 * @throws RequestNotFoundError (absent or outside the principal's workspaces), NotAwaitingIdentityReviewError (409).
 */
export function checkAwaitingReview(row: PrivacyRequestRow | undefined, principal: Principal, id: string): PrivacyRequestRow {
  if (!row || !coversWorkspace(principal, row.workspace_id)) throw new RequestNotFoundError(id);
  if (row.status !== 'action_required' || row.status_reason !== IDENTITY_UNMATCHED)
    throw new NotAwaitingIdentityReviewError(row.status, row.status_reason);
  return row;
}
