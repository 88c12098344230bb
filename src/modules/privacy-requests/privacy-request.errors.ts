import type { OperatorAction } from './lifecycle/lifecycle.fns.js';

/** The request does not exist, or not in the caller's workspaces (404). */
export class RequestNotFoundError extends Error {}

/** The action is not allowed in the request's current status (409). */
export class InvalidTransitionError extends Error {
  constructor(
    readonly action: OperatorAction | 'assign',
    readonly status: string,
  ) {
    super(`cannot ${action} a request in status ${status}`);
  }
}

/**
 * An extension asked for after the binding due date has passed (409, PRODUCT §2.13): the person
 * must be told of an extension within the first period, so an overdue request stays overdue.
 */
export class DeadlinePassedError extends Error {
  constructor(readonly dueAt: string) {
    super(`the deadline passed at ${dueAt}`);
  }
}

/**
 * `…/identity` or `…/confirm-no-data` on a request that does not wait for an identity review
 * (`action_required` with `status_reason: "identity_unmatched"`, PRODUCT §2.13): 409.
 */
export class NotAwaitingIdentityReviewError extends Error {
  constructor(
    readonly status: string,
    readonly statusReason: string | null,
  ) {
    super(`not waiting for an identity review (status ${status})`);
  }
}

/**
 * `…/proceed` on a request that does not wait as a repeat (`action_required` with
 * `status_reason: "repeat_request"`, PRODUCT §2.20): 409, nothing changed.
 */
export class NotWaitingAsRepeatError extends Error {
  constructor(readonly status: string) {
    super(`not waiting as a repeated request (status ${status})`);
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

/**
 * `received_at` is after the filing time or more than 365 days before it (PRODUCT §2.13): a 422
 * at `["body","received_at"]`, nothing stored. (The route's schema checks it when the request
 * arrives, with every other error; this is the service's own check, for every caller.)
 */
export class ReceivedAtOutOfRangeError extends Error {
  constructor(
    readonly input: string,
    readonly problem: 'received_at is in the future' | 'received_at is more than 365 days ago',
  ) {
    super(problem);
  }
}

/**
 * A worker's write found the request no longer `processing` under its lease (another worker took
 * over, or an operator canceled it): nothing was written, the unit rolls back.
 */
export class LeaseLost extends Error {}
