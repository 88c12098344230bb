import { HttpError, RequestValidationError } from './http-error.js';

/** The review of a package before release's answers (PRODUCT §2.20), part of the error catalogue. */
export const PACKAGE_REVIEW_ERRORS = {
  /** A redaction or a release on a request that does not wait for its review (PRODUCT §2.20). */
  notAwaitingReview: (status: string) =>
    new HttpError(
      409,
      `This request does not wait for a review of its package (status ${status}); only a request in action_required with status_reason awaiting_review does`,
    ),
  /** A redaction `path` that names no value of the package (PRODUCT §2.20). */
  pathNotInPackage: (path: string) =>
    new RequestValidationError([
      {
        type: 'value_error',
        loc: ['body', 'path'],
        msg: 'Value error, not a JSON Pointer (RFC 6901) to a value of this package: it must start with "/" and name a member that is there, e.g. /systems/shop/orders/0/notes',
        input: path,
        ctx: { error: {} },
      },
    ]),
  pathAlreadyWithheld: (redactionId: string) =>
    new HttpError(409, `This value is withheld already (redaction ${redactionId}); remove that redaction to change its reason`),
  selfRelease: () =>
    new HttpError(
      403,
      'An operator whose redaction still stands cannot release this package; another operator must check it and release it',
    ),
};
