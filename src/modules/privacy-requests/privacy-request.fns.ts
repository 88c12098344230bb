import { requestLocation } from '../request-model/request-model.js';
import type { NewRequestRow } from './privacy-request.repository.js';
import type { PrivacyRequestResource, RequestAgent } from './privacy-request.types.js';

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
    related_request_id: row.related_request_id,
    assignee: row.assignee ?? null,
    agent: row.agent ? (JSON.parse(row.agent) as RequestAgent) : null,
    links: { self: requestLocation(row.id) },
  };
}

/** JSON texts of resources, kept with the resource object while it lives (see {@link resourceJson}). */
const jsonOfResource = new WeakMap<PrivacyRequestResource, string>();

/**
 * `JSON.stringify(request)`, built once per resource object: a new filing's resource is
 * answered, kept in its Idempotency-Key's record and sent in its `privacy_request.created`
 * event as the same text, which is thus built once instead of three times. The resource must
 * not be changed after its first call (a filing's never is).
 */
export function resourceJson(request: PrivacyRequestResource): string {
  let json = jsonOfResource.get(request);
  if (json === undefined) jsonOfResource.set(request, (json = JSON.stringify(request)));
  return json;
}
