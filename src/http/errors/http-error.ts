import type { ErrorItem } from '../validation/error-item.js';

/**
 * An error with an HTTP status and a human sentence for the client: rendered as
 * `{"detail": "<sentence>"}` with `headers` set on the response.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

/** A 422 carrying FastAPI-shaped validation errors: rendered as `{"detail": [ErrorItem…]}`. */
export class RequestValidationError extends Error {
  readonly statusCode = 422;
  constructor(readonly errors: ErrorItem[]) {
    super('request validation failed');
    this.name = 'RequestValidationError';
  }
}
