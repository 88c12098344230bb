import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { workspacePolicy } from '../../modules/policies/workspace-policy.js';
import { coversWorkspace, type Principal } from '../../modules/principals/principal.js';
import { NotWaitingAsRepeatError, RequestNotFoundError } from '../../modules/privacy-requests/privacy-request.errors.js';
import { toResource } from '../../modules/privacy-requests/privacy-request.fns.js';
import { lockRequest } from '../../modules/privacy-requests/privacy-request.repository.js';
import type { PrivacyRequestResource } from '../../modules/privacy-requests/privacy-request.types.js';
import { statusAfterProceeding } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';
import { commitTransition } from '../../modules/privacy-requests/lifecycle/transition.js';

/**
 * `POST …/{id}/proceed {reason}` (PRODUCT §2.20): a request waiting as a repeat
 * (`action_required`, `repeat_request`) goes on where filing would have sent it without the
 * repeat: `pending_approval` when the workspace policy requires approval now, else `queued`
 * (docs/decisions.md). One transaction under the request's row lock, through the lifecycle's one
 * writer; audited as `privacy_request.proceeded` with the actor, the reason and the related
 * request's id; `related_request_id` stays on the request as the record of what it repeated.
 *
 * @throws RequestNotFoundError (absent or outside the principal's workspaces),
 *   NotWaitingAsRepeatError (409: any other status or reason; nothing changes).
 */
export async function proceedWithRepeat(
  deps: { db: Executor; clock: Clock },
  principal: Principal,
  id: string,
  input: { reason: string },
): Promise<PrivacyRequestResource> {
  const { db, clock } = deps;
  return runUnitOfWork(db, async (unit) => {
    const row = await lockRequest(unit.tx, id);
    if (!row || !coversWorkspace(principal, row.workspace_id)) throw new RequestNotFoundError(id);
    const next = statusAfterProceeding(row, (await workspacePolicy(unit.tx, row.workspace_id)).require_approval);
    if (next === null) throw new NotWaitingAsRepeatError(row.status);
    const updated = await commitTransition(unit, row, {
      at: toTimestamp(clock()),
      change: { status: next, status_reason: null, attempts: 0, next_attempt_at: null },
      audit: {
        actor: principal,
        action: 'privacy_request.proceeded',
        details: { from: row.status, to: next, reason: input.reason, related_request_id: row.related_request_id },
      },
    });
    return toResource(updated);
  });
}
