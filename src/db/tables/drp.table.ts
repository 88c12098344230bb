/**
 * Row shapes of the Data Rights Protocol 1.0's tables (PRODUCT §2.19; migration
 * 2026-12-08T0401-drp).
 */

/** `drp_settings`: a workspace's DRP switch and its directory entry's fields. */
export interface DrpSettingsTable {
  workspace_id: string;
  /** 1 on, 0 off. */
  enabled: number;
  /** `^[A-Za-z0-9_-]{1,100}$`, unique across the service. */
  business_id: string;
  name: string;
  /** JSON array of DRP actions the business takes. */
  supported_actions: string;
  /** JSON object: logo, web_url, privacy_policy_url, technical_contact, business_contact (null when absent). */
  details: string;
  updated_at: string;
  updated_by: string;
}

/** `drp_agents`: an authorized agent registered in one workspace. */
export interface DrpAgentTable {
  /** `agt_<ULID>`. */
  id: string;
  workspace_id: string;
  /** The agent's DRP id (`agent-id`), unique per workspace. */
  agent_id: string;
  name: string;
  /** Standard Base64 of the 32 raw Ed25519 key bytes, as registered. */
  verify_key: string;
  /** SHA-256 of the raw key, lowercase hex. */
  key_fingerprint: string;
  /** JSON object: web_url, identity_assurance_url, technical_contact, business_contact. */
  details: string;
  confirm_with_consumer: number;
  disabled: number;
  paired_at: string | null;
  created_at: string;
  updated_at: string;
}

/** `drp_pairings`: a pair-wise token, by its SHA-256 only. */
export interface DrpPairingTable {
  token_hash: string;
  /** The agent row (`agt_…`). */
  agent_ref: string;
  workspace_id: string;
  created_at: string;
  /** When a newer pairing replaced it; it stays valid 24 h after that. Null: the current one. */
  replaced_at: string | null;
}

/** `drp_requests`: a DRP record, whether or not it became a privacy request or an opt-out. */
export interface DrpRequestTable {
  /** UUID v4. */
  request_id: string;
  workspace_id: string;
  agent_ref: string;
  agent_id: string;
  agent_request_id: string | null;
  exercise: string;
  regime: string | null;
  /**
   * The record's own decision: `filed` (its DRP status comes from what it filed), `denied`,
   * `fulfilled` (nothing to file), or `awaiting_person` (waiting for the person's code).
   */
  status: string;
  reason: string | null;
  processing_details: string | null;
  /** Due date of a record that filed nothing (a denial's). */
  due_at: string;
  received_at: string;
  privacy_request_id: string | null;
  opt_out_id: string | null;
  status_callback: string | null;
  /** JSON: `*_verified` flags, relationships, power_of_attorney (never a name, phone number or address). */
  kept: string;
  revoked: number;
  /** JSON: the last status object answered or sent. */
  last_status: string | null;
}

/** `drp_callbacks`: a status object to POST to a DRP request's `status_callback`. */
export interface DrpCallbackTable {
  /** `cb_<ULID>`: the `drp-callback-id` header, the same on every retry. */
  id: string;
  request_id: string;
  workspace_id: string;
  agent_ref: string;
  url: string;
  /** The status object, JSON, as sent. */
  payload: string;
  /** `pending`, `delivered`, `failed` or `superseded`. */
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  /** A sender holds it until then. */
  lease_expires_at: string | null;
  /** The last failed attempt's short reason (`timeout`, `http_500`, …). */
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** `drp_digests`: a signed body's SHA-256, kept until its `expires-at` (single use). */
export interface DrpDigestTable {
  digest: string;
  request_id: string | null;
  expires_at: string;
}

/**
 * `drp_user_verifications`: a DRP request waiting for the person's own code (PRODUCT §2.19,
 * `need_user_verification`); deleted when it is filed or its 14 days pass.
 */
export interface DrpUserVerificationTable {
  /** The DRP request's `request_id`. */
  request_id: string;
  workspace_id: string;
  /** JSON of what it files once verified (names the person's address), sealed (lib/secret-box.ts). */
  filing_sealed: string;
  /** Keyed hash of the current 6-digit code (modules/privacy-center/privacy-center.fns.ts), null before one is sent. */
  code_hash: string | null;
  code_expires_at: string | null;
  attempts_left: number;
  /** Codes mailed so far (at most `MAX_CODES`). */
  codes_sent: number;
  /** When the right code was entered (the filing follows in its own commit). */
  verified_at: string | null;
  /** End of the 14 days: then the DRP request is denied `insuf_verification`. */
  expires_at: string;
  created_at: string;
}
