import type { RequestStatus } from '../request-model/request-model.js';
import type { DrpDenialReason, DrpReason, DrpStatus, DrpStatusObject } from './drp.types.js';

/** Where a DRP request stands in this service: not filed (yet), a privacy request, or an opt-out. */
export type DrpSubjectState =
  /** Waiting for the person's code (DRP §3.02.1); not yet a privacy request or an opt-in. */
  | {
      readonly kind: 'awaiting_user_verification';
      /** The due date the filing will have (it counts from the exercise's receipt). */
      readonly dueAt: string;
      /** Null where the capability is not to be shown (the callbacks' sweep, the officer's list). */
      readonly userVerificationUrl: string | null;
      /** End of the 14 days the person has. */
      readonly verificationExpiresAt: string;
    }
  /** Answered without filing anything: an action not taken, no `email`, or the 14 days passed. */
  | {
      readonly kind: 'denied_without_filing';
      readonly reason: 'claim_not_covered' | 'insuf_verification';
      readonly processingDetails: string;
      /** When it was decided: the exercise's receipt, or the end of the 14 days. */
      readonly dueAt: string;
    }
  /** A `sale:opt-in` with no opt-out on record: nothing to withdraw (PRODUCT §2.19). */
  | { readonly kind: 'fulfilled_without_filing'; readonly dueAt: string }
  | ({ readonly kind: 'privacy_request' } & DrpPrivacyRequestState)
  | ({ readonly kind: 'opt_out' } & DrpOptOutState);

/** What the status object needs of a privacy request (its row, its result and its last actions). */
export interface DrpPrivacyRequestState {
  readonly requestType: 'access' | 'deletion';
  readonly status: RequestStatus;
  readonly dueAt: string;
  readonly extendedDueAt: string | null;
  /** The reason given to `…/extend`, when extended. */
  readonly extensionReason: string | null;
  /** Completed with nothing found (PRODUCT §2.13: confirm-no-data, or `confirm_no_data: false`). */
  readonly nothingFound: boolean;
  /** The `…/reject` body's `reason` and `drp_reason` (null: `other`), when rejected. */
  readonly rejection: { readonly reason: string; readonly drpReason: DrpDenialReason | null } | null;
  /** The `…/cancel` reason, when an operator canceled it. */
  readonly cancelReason: string | null;
  /** The §2.15 status link (letter and JSON) of a completed access request. */
  readonly resultsUrl: string | null;
  /** When its package expires (or expired); null until the retention sweeper computed it. */
  readonly packageExpiresAt: string | null;
  /**
   * A completed access whose package can no longer be fetched: deleted at its expiry, or erased by
   * a later deletion of the same subject (PRODUCT §2.13). Optional: false when left out.
   */
  readonly packageGone?: boolean;
}

/** What the status object needs of an opt-out or opt-in (PRODUCT §2.18's resource). */
export interface DrpOptOutState {
  readonly status: 'queued' | 'processing' | 'completed' | 'failed' | 'canceled';
  readonly dueAt: string;
  readonly cancelReason: string | null;
}

/** A DRP request's whole state, as the status object is computed from it. */
export interface DrpRequestState {
  readonly requestId: string;
  readonly agentRequestId: string | null;
  readonly receivedAt: string;
  /** The agent revoked it (DRP §2.04): what it filed was canceled by the revoke, or nothing was filed yet. */
  readonly revoked: boolean;
  readonly subject: DrpSubjectState;
}

/** `processing_details` of a request an operator must act on (PRODUCT §2.19's table). */
export const REVIEWING_DETAILS = 'The business is reviewing this request.';
/** `processing_details` of a failed request: the business still owes the answer. */
export const FAILED_DETAILS = 'Delayed by a processing error the business is resolving.';
/** `processing_details` of a request completed with nothing found. */
export const NO_MATCH_DETAILS = 'No personal data matching this identity is held.';

type Parts = {
  status: DrpStatus;
  reason?: DrpReason;
  expectedBy: string;
  processingDetails?: string | null;
  userVerificationUrl?: string;
  resultsUrl?: string | null;
  expiresAt?: string | null;
};

/**
 * The Exercise Status object of a DRP request (DRP §3.03; PRODUCT §2.19 "Status object" and its
 * mapping table). `expected_by` is the binding due date (`extended_due_at ?? due_at`; an
 * opt-out's due date). Fields without a value are left out, never `null`.
 * @param now - the service's clock: a fulfilled access is `expired` once its package expired.
 */
export function drpStatusObject(state: DrpRequestState, now: Date): DrpStatusObject {
  const parts = statusParts(state, now.getTime());
  return {
    request_id: state.requestId,
    ...(state.agentRequestId === null ? {} : { agent_request_id: state.agentRequestId }),
    status: parts.status,
    ...(parts.reason === undefined ? {} : { reason: parts.reason }),
    received_at: state.receivedAt,
    expected_by: parts.expectedBy,
    ...(parts.processingDetails ? { processing_details: parts.processingDetails } : {}),
    ...(parts.userVerificationUrl === undefined ? {} : { user_verification_url: parts.userVerificationUrl }),
    ...(parts.resultsUrl ? { results_url: parts.resultsUrl } : {}),
    ...(parts.expiresAt ? { expires_at: parts.expiresAt } : {}),
  };
}

function statusParts(state: DrpRequestState, now: number): Parts {
  const subject = state.subject;
  switch (subject.kind) {
    case 'awaiting_user_verification':
      if (state.revoked) return { status: 'revoked', expectedBy: subject.dueAt };
      return {
        status: 'in_progress',
        reason: 'need_user_verification',
        expectedBy: subject.dueAt,
        ...(subject.userVerificationUrl === null ? {} : { userVerificationUrl: subject.userVerificationUrl }),
        expiresAt: subject.verificationExpiresAt,
      };
    case 'denied_without_filing':
      return {
        status: 'denied',
        reason: subject.reason,
        expectedBy: subject.dueAt,
        processingDetails: subject.processingDetails,
      };
    case 'fulfilled_without_filing':
      return { status: 'fulfilled', expectedBy: subject.dueAt };
    case 'privacy_request':
      return privacyRequestParts(subject, state.revoked, now);
    case 'opt_out':
      return optOutParts(subject, state.revoked);
  }
}

function privacyRequestParts(request: DrpPrivacyRequestState, revoked: boolean, now: number): Parts {
  const expectedBy = request.extendedDueAt ?? request.dueAt;
  const extension = request.extendedDueAt !== null ? request.extensionReason : null;
  switch (request.status) {
    case 'pending_approval':
      return { status: 'open', expectedBy, processingDetails: extension };
    case 'queued':
    case 'processing':
      return { status: 'in_progress', expectedBy, processingDetails: extension };
    case 'action_required':
      return { status: 'in_progress', expectedBy, processingDetails: extension ?? REVIEWING_DETAILS };
    case 'failed':
      return { status: 'in_progress', expectedBy, processingDetails: extension ?? FAILED_DETAILS };
    case 'completed':
      return completedParts(request, expectedBy, now);
    case 'rejected':
      return {
        status: 'denied',
        reason: request.rejection?.drpReason ?? 'other',
        expectedBy,
        processingDetails: request.rejection?.reason ?? null,
      };
    case 'canceled':
      return revoked
        ? { status: 'revoked', expectedBy }
        : { status: 'denied', reason: 'other', expectedBy, processingDetails: request.cancelReason };
  }
}

function completedParts(request: DrpPrivacyRequestState, expectedBy: string, now: number): Parts {
  if (request.nothingFound) return { status: 'denied', reason: 'no_match', expectedBy, processingDetails: NO_MATCH_DETAILS };
  if (request.requestType !== 'access') return { status: 'fulfilled', expectedBy };
  const expiresAt = request.packageExpiresAt;
  if (request.packageGone === true || (expiresAt !== null && Date.parse(expiresAt) <= now))
    return { status: 'expired', expectedBy, expiresAt };
  return { status: 'fulfilled', expectedBy, resultsUrl: request.resultsUrl, expiresAt };
}

function optOutParts(optOut: DrpOptOutState, revoked: boolean): Parts {
  const expectedBy = optOut.dueAt;
  switch (optOut.status) {
    case 'queued':
    case 'processing':
      return { status: 'in_progress', expectedBy };
    case 'failed':
      return { status: 'in_progress', expectedBy, processingDetails: FAILED_DETAILS };
    case 'completed':
      return { status: 'fulfilled', expectedBy };
    case 'canceled':
      return revoked
        ? { status: 'revoked', expectedBy }
        : { status: 'denied', reason: 'other', expectedBy, processingDetails: optOut.cancelReason };
  }
}

/**
 * Whether a status object differs from the last one answered or sent (PRODUCT §2.19 "Status
 * callbacks": a change is any difference, so `queued` → `processing`, both `in_progress`, is none).
 * Compares every member, including ones present in only one of them.
 * @param last - the last object answered or sent, or null when none was.
 */
export function statusObjectChanged(last: DrpStatusObject | null, next: DrpStatusObject): boolean {
  if (last === null) return true;
  const a = last as unknown as Record<string, unknown>;
  const b = next as unknown as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].some((key) => a[key] !== b[key]);
}
