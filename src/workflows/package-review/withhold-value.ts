import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../../modules/audit/audit.repository.js';
import { PathAlreadyWithheldError, PathNotInPackageError } from '../../modules/package-review/package-review.errors.js';
import { insertRedaction, listRedactions } from '../../modules/package-review/package-redaction.repository.js';
import { pathInPackage } from '../../modules/package-review/redaction.fns.js';
import type { Principal } from '../../modules/principals/principal.js';
import { findResult } from '../../modules/privacy-requests/result.repository.js';
import { lockRequestInReview } from './reviewed-request.js';
import { type RedactionView, redactionView } from './redaction-view.js';

/**
 * `POST …/{id}/package/redactions {path, reason}` (PRODUCT §2.20, GDPR Art. 15(4)): withholds
 * the value at JSON Pointer `path` of the package (as found, `/systems/shop/orders/0/notes`)
 * from the person; they read `[withheld: <reason>]` in its place. Under the request's row lock,
 * only while it waits for its review. Audited (`privacy_request.redaction_added`) with the path
 * and the reason, never the value.
 *
 * @throws RequestNotFoundError, NotAwaitingReviewError (409), PathNotInPackageError (422 at
 *   `["body","path"]`), PathAlreadyWithheldError (409): nothing stored.
 */
export async function withholdValue(
  deps: { db: Executor; clock: Clock },
  principal: Principal,
  requestId: string,
  input: { path: string; reason: string },
): Promise<RedactionView> {
  const { db, clock } = deps;
  return runUnitOfWork(db, async (unit) => {
    const request = await lockRequestInReview(unit.tx, principal, requestId);
    const stored = (await findResult(unit.tx, request.id))?.package;
    if (!stored || !pathInPackage(JSON.parse(stored) as unknown, input.path)) throw new PathNotInPackageError(input.path);
    const standing = (await listRedactions(unit.tx, request.id)).find((r) => r.path === input.path);
    if (standing) throw new PathAlreadyWithheldError(standing.id);
    const now = clock();
    const at = toTimestamp(now);
    const row = {
      id: newId('red', now.getTime()),
      request_id: request.id,
      workspace_id: request.workspace_id,
      path: input.path,
      reason: input.reason,
      created_by: principal.id,
      created_by_name: principal.name,
      created_at: at,
    };
    await insertRedaction(unit.tx, row);
    recordAudit(unit, {
      actor: principal.id,
      actorName: principal.name,
      requestId: request.id,
      action: 'privacy_request.redaction_added',
      targetType: 'privacy_request',
      targetId: request.id,
      workspaceId: request.workspace_id,
      details: { redaction_id: row.id, path: row.path, reason: row.reason },
      occurredAt: at,
    });
    return redactionView(row);
  });
}
