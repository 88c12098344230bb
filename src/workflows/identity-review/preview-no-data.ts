import type { Executor } from '../../db/executor.js';
import type { Principal } from '../../modules/principals/principal.js';
import { findRequestById } from '../../modules/privacy-requests/privacy-request.repository.js';
import { checkAwaitingReview, noDataStatement } from './review-checks.js';

/**
 * `GET …/{id}/confirm-no-data` (PRODUCT §2.21): what confirming would tell the person, before
 * anyone confirms: the statement their letter or confirmation will carry. Changes nothing.
 * @throws RequestNotFoundError, NotAwaitingIdentityReviewError (409).
 */
export async function previewNoData(deps: { db: Executor }, principal: Principal, id: string): Promise<{ statement: string }> {
  const { db } = deps;
  checkAwaitingReview(await findRequestById(db, id), principal, id);
  return { statement: await noDataStatement(db, id) };
}
