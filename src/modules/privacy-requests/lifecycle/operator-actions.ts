import { runUnitOfWork } from '../../../db/unit-of-work.js';
import type { Executor } from '../../../db/executor.js';
import { saveResultJson } from '../result.repository.js';
import type { Updateable } from 'kysely';
import type { PrivacyRequestTable } from '../../../db/tables/privacy-request.table.js';
import { afterOwnStep } from './request-end.js';
import { closeTasksOfEndedRequest } from './task-closing.js';
import { type Clock, toTimestamp } from '../../../lib/clock.js';
import { recordAudit } from '../../audit/audit.repository.js';
import { applyCorrections } from '../../subject-data/correction.js';
import { coversWorkspace, type Principal } from '../../principals/principal.js';
import { type Regulation, computeExtendedDueAt } from '../deadline.fns.js';
import { type OperatorAction, statusAfter } from './lifecycle.fns.js';
import { toResource } from '../privacy-request.fns.js';
import { requestStatusChanged } from './request-events.js';
import * as repo from '../privacy-request.repository.js';
import type { PrivacyRequestRow } from '../../request-model/request-model.js';
import type { PrivacyRequestResource } from '../privacy-request.types.js';

/** The request does not exist, or not in the caller's workspaces (404). */
export class RequestNotFoundError extends Error {}

/** The action is not allowed in the request's current status (409). */
export class InvalidTransitionError extends Error {
  constructor(
    readonly action: OperatorAction,
    readonly status: string,
  ) {
    super(`cannot ${action} a request in status ${status}`);
  }
}

/**
 * Separation of duties: the principal that filed a request may not approve it (403). Only a
 * request whose filer is unknown (`filed_by` null, docs/decisions.md) can be approved by anyone.
 */
export class SelfApprovalError extends Error {
  constructor() {
    super('the principal that filed a request cannot approve it');
  }
}

/** Input of an operator action: `reason` for reject/cancel/extend, `changes` for corrections. */
export interface ActionInput {
  reason?: string;
  changes?: Record<string, unknown>;
}

function changedFields(action: OperatorAction, row: PrivacyRequestRow, next: string, reason: string | undefined, at: string) {
  if (action === 'extend') {
    const regulations = row.regulation.split('+') as Regulation[];
    // The binding date moved: the due-soon and overdue events start over for it (jobs/deadline-events.ts).
    const extended_due_at = toTimestamp(computeExtendedDueAt(regulations, new Date(row.created_at)));
    return { extended_due_at, due_soon_notified_at: null, overdue_notified_at: null };
  }
  if (action === 'approve') return { status: next, status_reason: null };
  if (action === 'corrections') return { status: next, completed_at: at, status_reason: null };
  // Reject and cancel end the request; a worker holding it loses its lease and rolls back.
  return { status: next, status_reason: reason ?? null, lease_owner: null, lease_expires_at: null };
}

/**
 * Operator actions on a request (PRODUCT.md §2.3): approve, reject, cancel, extend (once: GDPR
 * +2 months, CCPA +45 days), corrections. Each runs in one transaction under a row lock, checks
 * the transition (lifecycle.fns.ts), and is audited with actor and reason (never corrected
 * values: only field names). The filer of a request cannot approve it (separation of duties).
 */
export function createPrivacyRequestActions(deps: { db: Executor; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /**
     * @throws RequestNotFoundError, InvalidTransitionError, SelfApprovalError (approve by the
     *   principal that filed it; checked after the transition, so nothing is written),
     *   NotCorrectableError (corrections).
     */
    async act(principal: Principal, id: string, action: OperatorAction, input: ActionInput): Promise<PrivacyRequestResource> {
      return runUnitOfWork(db, async (unit) => {
        const { tx } = unit;
        const row = await repo.lockRequest(tx, id);
        if (!row || !coversWorkspace(principal, row.workspace_id)) throw new RequestNotFoundError(id);
        const next = statusAfter(action, row);
        if (next === null) throw new InvalidTransitionError(action, row.status);
        if (action === 'approve' && row.filed_by === principal.id) throw new SelfApprovalError();
        const at = toTimestamp(clock());
        const report = action === 'corrections' ? await applyCorrections(tx, row, input.changes ?? {}, clock()) : undefined;
        let fields: Updateable<PrivacyRequestTable> = { ...changedFields(action, row, next, input.reason, at), updated_at: at };
        if (report !== undefined) {
          // The corrections are the request's own step; its data tasks decide its end (PRODUCT §2.9).
          const after = await afterOwnStep(tx, row, { pkg: null, report: JSON.stringify(report) }, at);
          const { status, status_reason, completed_at } = after;
          fields = { ...fields, status, status_reason, completed_at };
          await saveResultJson(tx, id, null, after.report, at);
        }
        const updated = await repo.updateRequest(tx, id, fields);
        if (action === 'reject' || action === 'cancel') await closeTasksOfEndedRequest(unit, id, principal, at);
        const details = {
          from: row.status,
          to: updated.status,
          ...(input.reason ? { reason: input.reason } : {}),
          ...(report ? { report } : {}),
        };
        recordAudit(unit, {
          actor: principal.id,
          actorName: principal.name,
          requestId: id,
          action: `privacy_request.${action}`,
          targetType: 'privacy_request',
          targetId: id,
          workspaceId: row.workspace_id,
          details,
          occurredAt: at,
        });
        requestStatusChanged(unit, updated, row.status, at);
        return toResource(updated);
      });
    },
  };
}

export type PrivacyRequestActions = ReturnType<typeof createPrivacyRequestActions>;
