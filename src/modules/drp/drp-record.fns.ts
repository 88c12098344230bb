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
  /** Completed with nothing found (PRODUCT §2.13); false when left out. */
  readonly nothing_found?: boolean;
  /** A completed access's status link (letter and JSON), or null. */
  readonly results_url?: string | null;
  /** When its package expires or expired, or null. */
  readonly package_expires_at?: string | null;
  /** A completed access whose package was deleted or erased; false when left out. */
  readonly package_gone?: boolean;
}

/** What the status object needs beyond the joined row, read by the caller (src/workflows/drp). */
export interface FiledRequestFacts {
  /** Completed with nothing found: its own step found nothing and no data task did ({@link nothingFoundAsks}). */
  readonly nothingFound?: boolean;
  /** The results link of a completed access ({@link resultsLinkDue}). */
  readonly resultsUrl?: string | null;
  /** A record waiting for the person's code: its `user_verification_url` (absent: not shown). */
  readonly verificationUrl?: string | null;
}

/** What the status object reads of an opt-out a DRP record filed. */
export interface FiledOptOutView {
  readonly status: string;
  readonly due_at: string;
}

/**
 * The state of a DRP record for {@link drpStatusObject} (PRODUCT §2.19 "Status object"): what it
 * filed (a privacy request or an opt-out, read now), or its own decision (a denial, a fulfilment
 * without filing). "Nothing found" and the results link come with `filed.request`, read by the
 * caller.
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
      nothingFound: request.nothing_found ?? false,
      rejection:
        request.status === 'rejected'
          ? {
              reason: request.status_reason ?? '',
              drpReason: isDrpDenialReason(request.drp_reason) ? request.drp_reason : null,
            }
          : null,
      cancelReason: ended ? request.status_reason : null,
      resultsUrl: request.results_url ?? null,
      packageExpiresAt: request.package_expires_at ?? null,
      packageGone: request.package_gone ?? false,
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
 * Whether "nothing found" must be read for this row (PRODUCT §2.13): its request completed and its
 * own step found nothing (`subject_found` 0). The caller then reads its data tasks: nothing found
 * when none found anything (as the identity review decides; confirm-no-data keeps `subject_found`).
 */
export function nothingFoundAsks(row: DrpRequestListRow): boolean {
  return row.pr_status === 'completed' && row.pr_subject_found === 0;
}

/** When the filed request's package expires or expired (the sweeper's time), or null. */
function packageExpiry(row: DrpRequestListRow): string | null {
  return row.rr_package_expires_at ?? row.rr_package_expired_at;
}

/**
 * Whether the row's status object names a results link now (PRODUCT §2.19: a `fulfilled`
 * access): its access request completed with something found, and its package is still there and
 * not past its expiry.
 */
export function resultsLinkDue(row: DrpRequestListRow, nothingFound: boolean, now: Date): boolean {
  if (row.pr_status !== 'completed' || row.pr_request_type !== 'access' || nothingFound) return false;
  const expiry = packageExpiry(row);
  return row.rr_has_package === 1 && (expiry === null || Date.parse(expiry) > now.getTime());
}

/**
 * The status object now of a record read with the state of what it filed (one joined row) and
 * `facts` the caller read besides (src/workflows/drp/drp-status-facts.ts: every reader of the
 * status object goes through it, so the answer, the callbacks and the list agree).
 */
export function statusObjectOfRow(row: DrpRequestListRow, now: Date, facts: FiledRequestFacts = {}): DrpStatusObject {
  const completedAccess = row.pr_status === 'completed' && row.pr_request_type === 'access';
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
          nothing_found: facts.nothingFound ?? false,
          results_url: facts.resultsUrl ?? null,
          package_expires_at: completedAccess ? packageExpiry(row) : null,
          package_gone: completedAccess && row.rr_has_package === 0,
        };
  const optOut = row.oo_status === null ? undefined : { status: row.oo_status, due_at: row.oo_due_at ?? row.due_at };
  const verificationUrl = row.status === 'awaiting_person' ? (facts.verificationUrl ?? null) : null;
  return drpStatusObject(drpRequestState(row, { request, optOut, verificationUrl }), now);
}

/** A string member of an audit entry's `details` (JSON), or null. */
function detail(details: string | null, name: string): string | null {
  if (details === null) return null;
  const value = (JSON.parse(details) as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
}
