import type { PrivacyRequestRow } from './privacy-request.repository.js';
import type { PrivacyRequestResource } from './privacy-request.types.js';

/** The API path of a request: the `Location` of a create and `links.self`. */
export function requestLocation(id: string): string {
  return `/api/v1/privacy/requests/${id}`;
}

/** Maps a stored row to the API resource. */
export function toResource(row: PrivacyRequestRow): PrivacyRequestResource {
  return {
    id: row.id,
    status: row.status,
    request_type: row.request_type,
    scope: JSON.parse(row.scope) as string[],
    subject_id: row.subject_id,
    subject_provider: row.subject_provider,
    workspace_id: row.workspace_id,
    client_request_id: row.client_request_id,
    intake_ref: row.intake_ref,
    regulation: row.regulation,
    created_at: row.created_at,
    due_at: row.due_at,
    extended_due_at: row.extended_due_at,
    completed_at: row.completed_at,
    status_reason: row.status_reason,
    links: { self: requestLocation(row.id) },
  };
}

/** Opaque list cursor: base64url of the last id seen. */
export function encodeCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

/** The id inside a cursor, or null when the cursor was not made by {@link encodeCursor}. */
export function decodeCursor(cursor: string): string | null {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  return /^pr_[0-9A-HJKMNP-TV-Z]{26}$/.test(id) ? id : null;
}
