import type { Executor } from '../../db/executor.js';
import { coversWorkspace, type Principal } from '../../modules/principals/principal.js';
import { NotAwaitingReviewError } from '../../modules/package-review/package-review.errors.js';
import { RequestNotFoundError } from '../../modules/privacy-requests/privacy-request.errors.js';
import { lockRequest } from '../../modules/privacy-requests/privacy-request.repository.js';
import { isAwaitingReview } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';

/**
 * Request `id`, locked in `tx`, when `principal` may see it and it waits for the review of its
 * package (PRODUCT §2.20): what every change of a review starts with.
 * @throws RequestNotFoundError (absent or outside the principal's workspaces), NotAwaitingReviewError (409).
 */
export async function lockRequestInReview(tx: Executor, principal: Principal, id: string): Promise<PrivacyRequestRow> {
  const row = await lockRequest(tx, id);
  if (!row || !coversWorkspace(principal, row.workspace_id)) throw new RequestNotFoundError(id);
  if (!isAwaitingReview(row)) throw new NotAwaitingReviewError(row.status);
  return row;
}
