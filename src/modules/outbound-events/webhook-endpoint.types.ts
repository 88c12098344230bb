import type { EventType } from './event-types.js';

/** `POST /api/v1/webhook-endpoints` input (PRODUCT §2.8). `event_types` absent: every type. */
export interface CreateEndpointInput {
  workspace_id: string;
  url: string;
  event_types?: EventType[];
  description?: string;
}

/** `PATCH /api/v1/webhook-endpoints/{id}` input: absent fields stay; `disabled: false` re-enables. */
export interface UpdateEndpointInput {
  url?: string;
  event_types?: EventType[] | null;
  description?: string | null;
  disabled?: boolean;
}

/** A webhook endpoint as the API shows it (never its secret). */
export interface WebhookEndpointResource {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  /** Subscribed event types; null subscribes to every type, present and future. */
  event_types: EventType[] | null;
  disabled: boolean;
  disabled_at: string | null;
  /** Start of the current run of failed delivery attempts; null after a success. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

/** An endpoint with its signing secret: the answer of a creation or rotation, shown that once. */
export interface EndpointWithSecret extends WebhookEndpointResource {
  secret: string;
}
