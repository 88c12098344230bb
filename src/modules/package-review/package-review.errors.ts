/** A redaction or a release on a request that does not wait for its review (PRODUCT §2.20): a 409. */
export class NotAwaitingReviewError extends Error {
  constructor(readonly status: string) {
    super(`request in status ${status} does not await a review of its package`);
  }
}

/** A redaction `path` that names no member of the package (PRODUCT §2.20): a 422 at `["body","path"]`. */
export class PathNotInPackageError extends Error {
  constructor(readonly path: string) {
    super('the path names no value of the package');
  }
}

/** No redaction of that id on the request: a 404. */
export class RedactionNotFoundError extends Error {
  constructor() {
    super('no such redaction');
  }
}

/** The same path is withheld already (PRODUCT §2.20): a 409 naming the redaction that stands. */
export class PathAlreadyWithheldError extends Error {
  constructor(readonly redactionId: string) {
    super('the path is withheld already');
  }
}

/**
 * Release by an operator whose own redaction still stands (PRODUCT §2.20, four eyes, as for
 * approval in §2.3): a 403.
 */
export class SelfReleaseError extends Error {
  constructor() {
    super('an operator whose redaction stands cannot release the package');
  }
}
