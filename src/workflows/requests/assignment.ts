import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { recordAudit } from '../../modules/audit/audit.repository.js';
import { coversWorkspace, type Principal } from '../../modules/principals/principal.js';
import { isFinal } from '../../modules/request-model/request-model.js';
import { InvalidTransitionError, RequestNotFoundError } from '../../modules/privacy-requests/privacy-request.errors.js';
import { toResource } from '../../modules/privacy-requests/privacy-request.fns.js';
import { lockRequest } from '../../modules/privacy-requests/privacy-request.repository.js';
import type { PrivacyRequestResource } from '../../modules/privacy-requests/privacy-request.types.js';
import { setAssignee } from '../../modules/privacy-requests/lifecycle/request-state.repository.js';

/**
 * Assigns a request to an operator, or to nobody (PRODUCT §2.16), under its row lock, audited
 * (`privacy_request.assigned`, with the previous and new assignee and the reason). Not a status
 * change: no event is announced. A final request takes no assignment (409, nothing to work on).
 *
 * @param assignee - the operator's name as the audit trail shows it (a principal's `name`), or null.
 * @throws RequestNotFoundError (absent or outside the principal's workspaces), InvalidTransitionError (final).
 */
export async function assignRequest(
  deps: { db: Executor; clock: Clock },
  principal: Principal,
  id: string,
  input: { assignee: string | null; reason?: string | undefined },
): Promise<PrivacyRequestResource> {
  return runUnitOfWork(deps.db, async (unit) => {
    const row = await lockRequest(unit.tx, id);
    if (!row || !coversWorkspace(principal, row.workspace_id)) throw new RequestNotFoundError(id);
    if (isFinal(row.status)) throw new InvalidTransitionError('assign', row.status);
    const at = toTimestamp(deps.clock());
    const updated = await setAssignee(unit.tx, id, input.assignee, at);
    recordAudit(unit, {
      actor: principal.id,
      actorName: principal.name,
      requestId: id,
      action: 'privacy_request.assigned',
      targetType: 'privacy_request',
      targetId: id,
      workspaceId: row.workspace_id,
      details: { from: row.assignee, to: input.assignee, ...(input.reason ? { reason: input.reason } : {}) },
      occurredAt: at,
    });
    return toResource(updated);
  });
}
