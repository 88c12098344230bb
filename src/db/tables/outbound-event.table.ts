import type { ColumnType } from 'kysely';

/**
 * Row shape of `webhook_endpoints`: one receiver of a workspace's outbound events (PRODUCT §2.8).
 * The signing secret is kept encrypted (lib/secret-box.ts), never hashed: it signs every delivery.
 */
export interface WebhookEndpointTable {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  /** JSON array of subscribed event types; NULL subscribes to every type. */
  event_types: string | null;
  secret_ciphertext: string;
  /** After a rotation, the old secret also signs until `previous_secret_expires_at` (24 h). */
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: string | null;
  /** Start of the current run of failed deliveries; NULL after a success. */
  failing_since: string | null;
  disabled_at: string | null;
  created_at: string;
  /** Last change by the API or the deliverer (disabling); null for endpoints created before it existed. */
  updated_at: ColumnType<string | null, string | undefined, string>;
}

/** Delivery state of an outbound message. */
export type OutboundMessageStatus = 'pending' | 'delivered' | 'failed';

/** Row shape of `outbound_messages`: the transactional outbox, one row per event per endpoint. */
export interface OutboundMessageTable {
  id: string;
  endpoint_id: string;
  workspace_id: string;
  event_type: string;
  /** The JSON body sent: `{type, timestamp, data}` (Standard Webhooks). */
  payload: string;
  status: OutboundMessageStatus;
  /** JSON array of `{attempt, at, status_code, duration_ms, error}`. */
  attempts: string;
  attempt_count: number;
  next_attempt_at: string | null;
  /** A worker holding the message until then; another worker may claim it after. */
  lease_until: string | null;
  created_at: string;
  /** The privacy request the message reports, or null (endpoint events). */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
}
