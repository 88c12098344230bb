import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { recordAudit } from '../../modules/audit/audit.repository.js';
import { RedactionNotFoundError } from '../../modules/package-review/package-review.errors.js';
import { deleteRedaction } from '../../modules/package-review/package-redaction.repository.js';
import type { Principal } from '../../modules/principals/principal.js';
import { lockRequestInReview } from './reviewed-request.js';

/**
 * `DELETE …/{id}/package/redactions/{rid}` (PRODUCT §2.20): the value is no longer withheld.
 * Only while the request waits for its review (after release the person has the package as
 * released). Audited (`privacy_request.redaction_removed`) with the path.
 *
 * @throws RequestNotFoundError, NotAwaitingReviewError (409), RedactionNotFoundError (404).
 */
export async function removeRedaction(
  deps: { db: Executor; clock: Clock },
  principal: Principal,
  requestId: string,
  redactionId: string,
): Promise<void> {
  const { db, clock } = deps;
  await runUnitOfWork(db, async (unit) => {
    const request = await lockRequestInReview(unit.tx, principal, requestId);
    const removed = await deleteRedaction(unit.tx, request.id, redactionId);
    if (!removed) throw new RedactionNotFoundError();
    recordAudit(unit, {
      actor: principal.id,
      actorName: principal.name,
      requestId: request.id,
      action: 'privacy_request.redaction_removed',
      targetType: 'privacy_request',
      targetId: request.id,
      workspaceId: request.workspace_id,
      details: { redaction_id: removed.id, path: removed.path },
      occurredAt: toTimestamp(clock()),
    });
  });
}
