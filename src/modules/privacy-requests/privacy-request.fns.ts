import { requestLocation } from '../request-model/request-model.js';
import type { NewRequestRow } from './privacy-request.repository.js';
import type { PrivacyRequestResource } from './privacy-request.types.js';

/** Maps a stored row to the API resource. */
export function toResource(row: NewRequestRow & { assignee?: string | null }): PrivacyRequestResource {
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
    received_at: row.received_at ?? row.created_at,
    created_at: row.created_at,
    due_at: row.due_at,
    extended_due_at: row.extended_due_at,
    completed_at: row.completed_at,
    status_reason: row.status_reason,
    assignee: row.assignee ?? null,
    links: { self: requestLocation(row.id) },
  };
}
