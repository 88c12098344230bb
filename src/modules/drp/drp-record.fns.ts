import type { RequestStatus } from '../request-model/request-model.js';
import type { DrpRequestListRow, DrpRequestRow } from './drp-request.repository.js';
import { type DrpStatusObject, isDrpDenialReason } from './drp.types.js';
import { type DrpRequestState, type DrpSubjectState, drpStatusObject } from './status-object.fns.js';
import { USER_VERIFICATION_WINDOW_MS } from './user-verification.fns.js';

/** What the status object reads of a privacy request a DRP record filed (its row). */
export interface FiledRequestView {
  readonly request_type: string;
  readonly status: string;
  readonly status_reason: string | null;
  readonly due_at: string;
  readonly extended_due_at: string | null;
  /** The reason given to `…/extend`, when extended. */
  readonly extension_reason?: string | null;
  /** The reject body's `drp_reason`, when rejected with one. */
  readonly drp_reason?: string | null;
}

/** What the status object reads of an opt-out a DRP record filed. */
export interface FiledOptOutView {
  readonly status: string;
  readonly due_at: string;
}

/**
 * The state of a DRP record for {@link drpStatusObject} (PRODUCT §2.19 "Status object"): what it
 * filed (a privacy request or an opt-out, read now), or its own decision (a denial, a fulfilment
 * without filing). Not read here yet: "nothing found", an access package's link and expiry
 * (docs/drp.md, "Not yet").
 */
export function drpRequestState(record: DrpRequestRow, filed: FiledViews): DrpRequestState {
  return {
    requestId: record.request_id,
    agentRequestId: record.agent_request_id,
    receivedAt: record.received_at,
    revoked: record.revoked === 1,
    subject: subjectState(record, filed),
  };
}

/**
 * What a record filed, read now; for a record waiting for the person's code, its
 * `user_verification_url` (null: not to be shown, as in callbacks and the officer's list).
 */
export interface FiledViews {
  readonly request?: FiledRequestView | undefined;
  readonly optOut?: FiledOptOutView | undefined;
  readonly verificationUrl?: string | null;
}

function subjectState(record: DrpRequestRow, filed: FiledViews): DrpSubjectState {
  const { request, optOut } = filed;
  if (request) {
    const ended = request.status === 'rejected' || request.status === 'canceled';
    return {
      kind: 'privacy_request',
      requestType: request.request_type === 'access' ? 'access' : 'deletion',
      status: request.status as RequestStatus,
      dueAt: request.due_at,
      extendedDueAt: request.extended_due_at,
      extensionReason: request.extension_reason ?? null,
      nothingFound: false,
      rejection:
        request.status === 'rejected'
          ? {
              reason: request.status_reason ?? '',
              drpReason: isDrpDenialReason(request.drp_reason) ? request.drp_reason : null,
            }
          : null,
      cancelReason: ended ? request.status_reason : null,
      resultsUrl: null,
      packageExpiresAt: null,
    };
  }
  if (optOut) {
    return {
      kind: 'opt_out',
      status: optOut.status as 'queued' | 'processing' | 'completed' | 'failed' | 'canceled',
      dueAt: optOut.due_at,
      cancelReason: null,
    };
  }
  if (record.status === 'awaiting_person')
    return {
      kind: 'awaiting_user_verification',
      dueAt: record.due_at,
      userVerificationUrl: filed.verificationUrl ?? null,
      verificationExpiresAt: new Date(Date.parse(record.received_at) + USER_VERIFICATION_WINDOW_MS).toISOString(),
    };
  if (record.status === 'fulfilled') return { kind: 'fulfilled_without_filing', dueAt: record.due_at };
  return {
    kind: 'denied_without_filing',
    reason: record.reason === 'claim_not_covered' ? 'claim_not_covered' : 'insuf_verification',
    processingDetails: record.processing_details ?? '',
    dueAt: record.due_at,
  };
}

/**
 * The status object now of a record read with the state of what it filed (one joined row).
 * @param verificationUrl - gives a waiting record's `user_verification_url` (omitted when absent).
 */
export function statusObjectOfRow(
  row: DrpRequestListRow,
  now: Date,
  verificationUrl?: (record: DrpRequestRow) => string,
): DrpStatusObject {
  const request =
    row.pr_status === null
      ? undefined
      : {
          request_type: row.pr_request_type ?? '',
          status: row.pr_status,
          status_reason: row.pr_status_reason,
          due_at: row.pr_due_at ?? row.due_at,
          extended_due_at: row.pr_extended_due_at,
          extension_reason: detail(row.extend_details, 'reason'),
          drp_reason: detail(row.reject_details, 'drp_reason'),
        };
  const optOut = row.oo_status === null ? undefined : { status: row.oo_status, due_at: row.oo_due_at ?? row.due_at };
  const waiting = row.status === 'awaiting_person' && verificationUrl !== undefined;
  return drpStatusObject(drpRequestState(row, { request, optOut, verificationUrl: waiting ? verificationUrl(row) : null }), now);
}

/** A string member of an audit entry's `details` (JSON), or null. */
function detail(details: string | null, name: string): string | null {
  if (details === null) return null;
  const value = (JSON.parse(details) as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
}
