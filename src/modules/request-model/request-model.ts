import type { Selectable } from 'kysely';
import type { PrivacyRequestTable } from '../../db/tables/privacy-request.table.js';

/**
 * Request types (PRODUCT.md §1): access (GDPR Art. 15), export (portability, Art. 20),
 * correction (rectification, Art. 16), deletion (erasure, Art. 17). What each one does is
 * said once, in modules/privacy-requests/request-types.ts.
 */
export const REQUEST_TYPES = ['access', 'export', 'correction', 'deletion'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

/** Lifecycle states (PRODUCT.md §2.3). */
export const REQUEST_STATUSES = [
  'pending_approval',
  'queued',
  'processing',
  'completed',
  'action_required',
  'failed',
  'rejected',
  'canceled',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** Statuses after which nothing more happens to a request. */
export const FINAL_STATUSES = ['completed', 'failed', 'rejected', 'canceled'] as const;

/**
 * Every status that is not final (PRODUCT.md §2.3). Queries select open requests with
 * `status IN (…)` so an index on `status` serves them, however many final requests there are.
 */
export const OPEN_STATUSES = ['pending_approval', 'queued', 'processing', 'action_required'] as const;

/** True for completed, failed, rejected and canceled. */
export function isFinal(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

/** True when `value` is one of the {@link REQUEST_TYPES}. */
export function isRequestType(value: string): value is RequestType {
  return (REQUEST_TYPES as readonly string[]).includes(value);
}

/** A stored privacy request (a row of `privacy_requests`), as every module reads it. */
export type PrivacyRequestRow = Selectable<PrivacyRequestTable>;

/** The API path of a request: the `Location` of a create, `links.self`, and the key of its stored answers. */
export function requestLocation(id: string): string {
  return `/api/v1/privacy/requests/${id}`;
}

/** The `subject_provider` of a request that names its subject by e-mail address (PRODUCT §2.13). */
export const EMAIL_PROVIDER = 'email';

/** An e-mail address as requests by e-mail are matched: trimmed, lower-cased. */
export function normalizeEmail(address: string): string {
  return address.trim().toLowerCase();
}

/** A regulation a workspace is under (its policy's `regulations`; PRODUCT §2.3): GDPR or the CCPA. */
export type Regulation = 'gdpr' | 'ccpa';
