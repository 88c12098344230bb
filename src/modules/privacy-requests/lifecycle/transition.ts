import type { Updateable } from 'kysely';
import type { PrivacyRequestTable } from '../../../db/tables/privacy-request.table.js';
import type { UnitOfWork } from '../../../db/unit-of-work.js';
import { type ActorRef, actorFields, recordAudit } from '../../audit/audit.repository.js';
import type { PrivacyRequestRow } from '../../request-model/request-model.js';
import { LeaseLost } from '../privacy-request.errors.js';
import { updateRequest } from './request-state.repository.js';
import { deleteResult, replaceResultAtCompletion, type ResultJson, saveResultJson } from './request-state.repository.js';
import { requestMailOnChange, requestStatusChanged } from './request-events.js';
import { finishAttempt } from './request-state.repository.js';
import { closeTasksOfEndedRequest } from './task-closing.js';
import { nextTurn } from '../../../lib/yielding.js';

/** Columns a transition may set (`updated_at` is the transition's own time). */
export type RequestChange = Omit<Updateable<PrivacyRequestTable>, 'id' | 'updated_at'>;

/** One change of a request's state, as {@link commitTransition} writes it. Times RFC 3339 UTC. */
export interface Transition {
  /** The columns that change: `status`, `status_reason`, `completed_at`, deadlines, backoff… */
  change: RequestChange;
  /** When it happens: `updated_at`, the result's time, the audit entry's `occurred_at`. */
  at: string;
  /**
   * Only while this worker holds the request in `processing` under its lease (which it ends);
   * when it does not, nothing is written and {@link LeaseLost} is thrown.
   */
  leaseOwner?: string;
  /**
   * The result to store (JSON text; null: none): `saved` inserts or replaces it; `completed`
   * replaces the one stored by the own step once the data tasks' part is added (its package
   * expiry is computed again from `at`).
   */
  result?: ResultJson & { stored: 'saved' | 'completed' };
  /** The stored result is removed (the request runs again for another identity and answers anew). */
  clearResult?: true;
  /** The request ends: its pending data tasks become `not_applicable`, audited by this actor. */
  closeTasksBy?: ActorRef;
  /** The audit entry about the request; absent for the worker's own retries. */
  audit?: { actor: ActorRef; action: string; details: Record<string, unknown> };
}

/**
 * The one writer of a privacy request's state (PRODUCT §2.3, §2.9): in `unit`, sets the
 * columns of `t.change`, stores the result, closes the data tasks of a request that ends, records
 * the audit entry and enqueues the `privacy_request.*` events of the change (transactional
 * outbox). Operator actions, the worker's record of an attempt, the erasure step and the data
 * tasks' results all change a request through it; the decisions (which status comes next) are
 * theirs, in lifecycle.fns.ts. The caller holds the request's row (lock or lease).
 *
 * @param request - the request as it was before the change (its status is the event's `previous_status`).
 * @returns the request as stored after the change.
 * @throws LeaseLost when `t.leaseOwner` no longer holds the request (the unit then rolls back).
 */
export async function commitTransition(unit: UnitOfWork, request: PrivacyRequestRow, t: Transition): Promise<PrivacyRequestRow> {
  const fields = { ...t.change, updated_at: t.at };
  const updated =
    t.leaseOwner === undefined
      ? await updateRequest(unit.tx, request.id, fields)
      : await finishAttempt(unit.tx, request.id, t.leaseOwner, fields);
  if (!updated) throw new LeaseLost();
  if (t.clearResult) await deleteResult(unit.tx, request.id);
  if (t.result?.stored === 'saved') await saveResultJson(unit.tx, request.id, t.result, t.at);
  if (t.result?.stored === 'completed') {
    await replaceResultAtCompletion(unit.tx, request.id, t.result, t.at);
    // A package with its systems' part may be megabytes (issue 23 item 2): its write and the
    // commit are the two steps that cannot be split, so the event loop gets a turn between them.
    await nextTurn();
  }
  if (t.closeTasksBy !== undefined) await closeTasksOfEndedRequest(unit, request.id, t.closeTasksBy, t.at);
  if (t.audit)
    recordAudit(unit, {
      ...actorFields(t.audit.actor),
      requestId: request.id,
      action: t.audit.action,
      targetType: 'privacy_request',
      targetId: request.id,
      workspaceId: request.workspace_id,
      details: t.audit.details,
      occurredAt: t.at,
    });
  requestStatusChanged(unit, updated, request.status, t.at);
  const reason = t.audit?.details['reason'];
  requestMailOnChange(unit, request, updated, typeof reason === 'string' ? reason : null, t.at);
  return updated;
}
