import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { coversWorkspace, type Principal } from '../../modules/principals/principal.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { applyCorrections } from '../subject-data/correction.js';
import { type Regulation, computeExtendedDueAt } from '../../modules/privacy-requests/deadline.fns.js';
import {
  DeadlinePassedError,
  InvalidTransitionError,
  RequestNotFoundError,
  SelfApprovalError,
} from '../../modules/privacy-requests/privacy-request.errors.js';
import { toResource } from '../../modules/privacy-requests/privacy-request.fns.js';
import { lockRequest } from '../../modules/privacy-requests/privacy-request.repository.js';
import type { PrivacyRequestResource } from '../../modules/privacy-requests/privacy-request.types.js';
import { traitsOf } from '../../modules/privacy-requests/request-types.js';
import { extensionTooLate, type OperatorAction, statusAfter } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';
import { afterOwnStep } from './request-end.js';
import { commitTransition, type RequestChange, type Transition } from '../../modules/privacy-requests/lifecycle/transition.js';

/** Input of an operator action: `reason` for reject/cancel/extend, `changes` for corrections. */
export interface ActionInput {
  reason?: string;
  /** Reject only: the DRP denial reason of a DRP-filed request's status object (PRODUCT §2.19); audited. */
  drp_reason?: string;
  changes?: Record<string, unknown>;
}

/** The columns an action (other than corrections) changes. */
function actionChange(action: OperatorAction, row: PrivacyRequestRow, next: string, reason: string | undefined): RequestChange {
  if (action === 'extend') {
    const regulations = row.regulation.split('+') as Regulation[];
    // The binding date moved: the due-soon and overdue events start over for it (jobs/deadline-events.ts).
    const extended_due_at = toTimestamp(computeExtendedDueAt(regulations, new Date(row.received_at ?? row.created_at)));
    return { extended_due_at, due_soon_notified_at: null, overdue_notified_at: null };
  }
  if (action === 'approve') return { status: next, status_reason: null };
  // Reject and cancel end the request; a worker holding it loses its lease and rolls back.
  return { status: next, status_reason: reason ?? null, lease_owner: null, lease_expires_at: null };
}

/**
 * An operator action on a request (PRODUCT.md §2.3): approve, reject, cancel, extend (once: GDPR
 * +2 months, CCPA +45 days), corrections. Runs in one transaction under a row lock, checks the
 * transition (lifecycle.fns.ts), and is written by the lifecycle's one writer
 * ({@link commitTransition}), audited with actor and reason (never corrected values: only field
 * names). The filer of a request cannot approve it (separation of duties).
 *
 @throws RequestNotFoundError, InvalidTransitionError, SelfApprovalError (approve by the
 *   principal that filed it; checked after the transition, so nothing is written),
 *   NotCorrectableError (corrections), DeadlinePassedError (extend after the binding due date).
 */
export async function actOnRequest(
  deps: { db: Executor; clock: Clock },
  principal: Principal,
  id: string,
  action: OperatorAction,
  input: ActionInput,
): Promise<PrivacyRequestResource> {
  const { db, clock } = deps;
  return runUnitOfWork(db, async (unit) => {
    const { tx } = unit;
    const row = await lockRequest(tx, id);
    if (!row || !coversWorkspace(principal, row.workspace_id)) throw new RequestNotFoundError(id);
    const next = statusAfter(action, row, traitsOf(row.request_type));
    if (next === null) throw new InvalidTransitionError(action, row.status);
    if (action === 'approve' && row.filed_by === principal.id) throw new SelfApprovalError();
    // Extensions only in time (PRODUCT §2.13): an overdue request stays overdue until it ends.
    if (action === 'extend' && extensionTooLate(row, clock())) throw new DeadlinePassedError(row.due_at);
    const at = toTimestamp(clock());
    const audit = (to: string, report?: unknown): Transition['audit'] => ({
      actor: principal,
      action: `privacy_request.${action}`,
      details: {
        from: row.status,
        to,
        ...(input.reason ? { reason: input.reason } : {}),
        ...(action === 'reject' && input.drp_reason ? { drp_reason: input.drp_reason } : {}),
        ...(report ? { report } : {}),
      },
    });
    if (action === 'corrections') {
      const report = await applyCorrections(tx, row, input.changes ?? {}, clock());
      // The corrections are the request's own step; its data tasks decide its end (PRODUCT §2.9).
      const after = await afterOwnStep(tx, row, { pkg: null, report: JSON.stringify(report) }, at);
      const { status, status_reason, completed_at } = after;
      const updated = await commitTransition(unit, row, {
        at,
        change: { status, status_reason, completed_at },
        result: { pkg: null, report: after.report, stored: 'saved' },
        audit: audit(status, report),
      });
      return toResource(updated);
    }
    const ends = action === 'reject' || action === 'cancel';
    const updated = await commitTransition(unit, row, {
      at,
      change: actionChange(action, row, next, input.reason),
      ...(ends ? { closeTasksBy: principal } : {}),
      audit: audit(next),
    });
    return toResource(updated);
  });
}
