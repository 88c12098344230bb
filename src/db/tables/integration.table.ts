/**
 * Row shape of `integrations`: a webhook source bound to one workspace. GitLab tokens are kept
 * as `secret_hash` (SHA-256; GitLab sends the token itself); GitHub and identity secrets are
 * needed to compute HMACs, so they are kept encrypted in `secret_ciphertext`.
 */
export interface IntegrationTable {
  id: string;
  kind: string;
  workspace_id: string;
  /** GitHub owner login or GitLab group path, lower-cased; null for identity integrations. */
  namespace: string | null;
  /** Identity integrations: `standard`, `clerk` or `workos`. */
  format: string | null;
  subject_provider: string | null;
  secret_hash: string | null;
  secret_ciphertext: string | null;
  created_at: string;
}

/** Row shape of `webhook_deliveries`: one per delivery id per integration, kept for the dedup window. */
export interface WebhookDeliveryTable {
  integration_id: string;
  delivery_id: string;
  received_at: string;
  expires_at: string;
  /** The JSON response body first given for this delivery (no personal data). */
  outcome: string;
}
