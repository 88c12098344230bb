import type { UnitOfWork } from '../../../db/unit-of-work.js';
import { enqueueEvent } from '../../outbound-events/outbox.repository.js';
import { enqueueRequestMail } from '../../privacy-center/mail-outbox.repository.js';
import { redactSentMessagesAtCommit } from '../../outbound-events/message-log.repository.js';
import { isFinal } from '../../request-model/request-model.js';
import { toResource } from '../privacy-request.fns.js';
import { traitsOf } from '../request-types.js';
import { isAnnounced } from './lifecycle.fns.js';
import type { NewRequestRow } from '../privacy-request.repository.js';
import type { PrivacyRequestResource } from '../privacy-request.types.js';

/**
 * The outbound events a privacy request's changes send (PRODUCT §2.8), enqueued in the unit of
 * work that makes the change (transactional outbox: nothing is sent if it rolls back). Every
 * event's `data` is the request resource (never its package).
 */

/**
 * `privacy_request.created`, for a request just filed in `unit` (its resource, as the filing
 * answers it, and that resource's JSON text `json`, built once for the answer, the key's record
 * and the event), and the "received" mail to the person when the request has a notify address
 * (`hasNotifyAddress`; PRODUCT §2.15; written at commit, modules/privacy-center/mail-outbox.repository.ts).
 * A filing without one enqueues no mail, which spares its batch the read of notify addresses.
 */
export function requestFiled(unit: UnitOfWork, request: PrivacyRequestResource, json: string, hasNotifyAddress: boolean): void {
  enqueueEvent(unit, {
    workspaceId: request.workspace_id,
    type: 'privacy_request.created',
    data: request,
    dataJson: json,
    occurredAt: request.created_at,
    requestId: request.id,
  });
  if (!hasNotifyAddress) return;
  enqueueRequestMail(unit, {
    requestId: request.id,
    workspaceId: request.workspace_id,
    kind: 'received',
    payload: {
      request_type: request.request_type,
      received_at: request.received_at,
      due_at: request.due_at,
      regulation: request.regulation,
    },
    at: request.created_at,
  });
}

/**
 * The mail a change tells the person (PRODUCT §2.15), for a request with a notify address: an
 * extension with its reason (GDPR Art. 12(3)), the completion (with the status link), a rejection
 * with its reason and the right to complain (Art. 12(4)). Nothing for other changes. `reason` is
 * the operator's reason of the action that made the change.
 */
export function requestMailOnChange(
  unit: UnitOfWork,
  before: NewRequestRow,
  after: NewRequestRow,
  reason: string | null,
  occurredAt: string,
): void {
  const base = { requestId: after.id, workspaceId: after.workspace_id, at: occurredAt };
  const payload = {
    request_type: after.request_type,
    received_at: after.received_at ?? after.created_at,
    due_at: after.extended_due_at ?? after.due_at,
    regulation: after.regulation,
  };
  if (before.extended_due_at === null && after.extended_due_at !== null) {
    enqueueRequestMail(unit, { ...base, kind: 'extended', payload: { ...payload, reason } });
  }
  if (before.status === after.status) return;
  if (after.status === 'completed') enqueueRequestMail(unit, { ...base, kind: 'completed', payload });
  if (after.status === 'rejected') {
    enqueueRequestMail(unit, { ...base, kind: 'rejected', payload: { ...payload, reason: after.status_reason ?? reason } });
  }
}

/**
 * `privacy_request.status_changed` (with `previous_status`) for a request whose status `unit`
 * changed from `previousStatus` to `row.status`, and `privacy_request.completed` when it is now
 * `completed`. Nothing for a change that is not announced ({@link isAnnounced}: an extension,
 * the worker's retry; docs/decisions.md, "Outbound events"). `occurredAt` is the change's time
 * (RFC 3339). When a request whose type erases ends, the payloads of the messages already sent
 * about it (its tasks named the accounts it erased) are redacted at commit.
 */
export function requestStatusChanged(unit: UnitOfWork, row: NewRequestRow, previousStatus: string, occurredAt: string): void {
  if (!isAnnounced(previousStatus, row.status)) return;
  const resource = toResource(row);
  const base = { workspaceId: row.workspace_id, occurredAt, requestId: row.id };
  enqueueEvent(unit, { ...base, type: 'privacy_request.status_changed', data: { ...resource, previous_status: previousStatus } });
  if (row.status === 'completed') enqueueEvent(unit, { ...base, type: 'privacy_request.completed', data: resource });
  if (traitsOf(row.request_type).erases && isFinal(row.status)) redactSentMessagesAtCommit(unit, row.id);
}

/** `privacy_request.due_soon` or `privacy_request.overdue` for an open request, found by the deadline sweep. */
export function requestDeadlineReached(unit: UnitOfWork, row: NewRequestRow, moment: 'due_soon' | 'overdue', at: string): void {
  enqueueEvent(unit, {
    workspaceId: row.workspace_id,
    type: moment === 'due_soon' ? 'privacy_request.due_soon' : 'privacy_request.overdue',
    data: toResource(row),
    occurredAt: at,
    requestId: row.id,
  });
}
