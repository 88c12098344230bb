import { HttpError } from '../../http/errors/http-error.js';

/** Webhook answers that are not a 200 (PRODUCT.md §2.6). None names which check failed. */
export const webhookErrors = {
  /** Missing, malformed or wrong signature/token, stale timestamp, or no integration to verify against. */
  unauthenticated: () => new HttpError(401, 'Webhook signature or token could not be verified'),
  /** Authentic, but the body is not the JSON the source promised. */
  badPayload: () => new HttpError(400, 'Webhook payload is not valid JSON of the expected shape'),
  /** Authentic JSON, but a field breaks the source's schema or the stored bounds (`problem` names it). */
  schemaViolation: (source: string, problem: string) =>
    new HttpError(400, `Webhook payload does not match the ${source} schema: ${problem}`),
  /** Authentic, but the delivery id header is longer than the service keeps. */
  deliveryIdTooLong: (headerName: string, max: number) =>
    new HttpError(400, `Webhook ${headerName} header must be at most ${max} characters`),
  /** Authentic identity event dated later than now plus the signature tolerance. */
  futureEvent: () =>
    new HttpError(400, 'Identity event occurred_at is more than 5 minutes in the future: check the sender clock'),
  unsupportedMediaType: () => new HttpError(415, 'Unsupported media type: send application/json'),
};

/** Why a delivery was refused, for the log line (never the payload, never a header value). */
export type RejectReason = 'no_integration' | 'bad_signature' | 'stale_timestamp' | 'missing_headers';
