import type { ErrorItem } from '../validation/error-item.js';
import { HttpError, RequestValidationError } from './http-error.js';

const BEARER = { 'WWW-Authenticate': 'Bearer' };

/**
 * Every error the API returns on purpose, in one place: status, sentence and headers.
 * Sources: RFC 9110 (statuses), RFC 6750 §3 (`WWW-Authenticate: Bearer`), IETF
 * draft-ietf-httpapi-idempotency-key-header (409/422 for keys).
 */
export const errors = {
  notAuthenticated: () => new HttpError(401, 'Not authenticated', BEARER),
  invalidCredentials: () => new HttpError(401, 'Invalid authentication credentials', BEARER),
  missingScope: (scope: string) => new HttpError(403, `This token lacks the ${scope} scope`),
  workspaceForbidden: () => new HttpError(403, 'This token is not valid for that workspace'),
  notFound: (what: string) => new HttpError(404, `${what} not found`),
  routeNotFound: () => new HttpError(404, 'Not Found'),
  malformedUrl: () => new HttpError(400, 'The request URL is malformed (invalid percent-encoding)'),
  pathSegmentTooLong: () => new HttpError(414, 'A path segment of the request URL is too long'),
  idempotencyInFlight: () =>
    new HttpError(409, 'A request with this Idempotency-Key is still being processed; retry later', { 'Retry-After': '1' }),
  clientRequestIdTaken: (location: string) =>
    new HttpError(409, 'A privacy request with this client_request_id already exists in the workspace', { Location: location }),
  bodyTooLarge: () => new HttpError(413, 'Request body is too large'),
  unsupportedMediaType: () => new HttpError(415, 'Unsupported media type: send application/json'),
  tooManyRequests: (retryAfterSeconds: number) =>
    new HttpError(429, `Rate limit exceeded; retry in ${retryAfterSeconds} seconds`, {
      'Retry-After': String(retryAfterSeconds),
    }),
  unavailable: () => new HttpError(503, 'Service temporarily unavailable; retry later', { 'Retry-After': '5' }),
  storageUnavailable: () =>
    new HttpError(503, 'The database cannot store data right now (storage full or read-only); retry later', {
      'Retry-After': '30',
    }),
  internal: () => new HttpError(500, 'Internal Server Error'),
  idempotencyKeyReused: (key: string) => new RequestValidationError([idempotencyKeyReusedItem(key)]),
};

function idempotencyKeyReusedItem(key: string): ErrorItem {
  return {
    type: 'idempotency_key_reused',
    loc: ['header', 'idempotency-key'],
    msg: 'Idempotency-Key was already used with a different request body',
    input: key,
  };
}
