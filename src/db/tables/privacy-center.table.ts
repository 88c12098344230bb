/** Row shape of `privacy_center_settings` (PRODUCT §2.15): the public form of one workspace. */
export interface PrivacyCenterSettingsTable {
  workspace_id: string;
  /** 1 on, 0 off. */
  enabled: number;
  /** JSON array of request types offered. */
  request_types: string;
  title: string | null;
  updated_at: string;
  updated_by: string;
  /** 1: the center takes requests from authorized agents outside DRP (PRODUCT §2.19); 0 (default) not. */
  agent_requests: number;
}

/** Row shape of `privacy_center_submissions`: a submission not yet (or just) verified; gone after 24 h. */
export interface PrivacyCenterSubmissionTable {
  id: string;
  workspace_id: string;
  request_type: string;
  email: string;
  /** Keyed hash of the 6-digit code (modules/privacy-center/privacy-center.fns.ts). */
  code_hash: string;
  code_expires_at: string;
  attempts_left: number;
  submitted_at: string;
  verified_at: string | null;
  request_id: string | null;
  /** An opt-in's submission (`request_type` `opt_in`): JSON array of the opt-out kinds it opts back in to; else null. */
  opt_in_kinds: string | null;
}

/** Row shape of `privacy_center_status_tokens`: a request's status-page capability, as a hash. */
export interface PrivacyCenterStatusTokenTable {
  request_id: string;
  workspace_id: string;
  token_hash: string;
  created_at: string;
}

/** Row shape of `privacy_center_mails`: the mail outbox (one row per mail to send). */
export interface PrivacyCenterMailTable {
  id: string;
  workspace_id: string;
  request_id: string | null;
  kind: string;
  recipient: string;
  /** JSON of what the mail says (never the data of a package). */
  payload: string;
  created_at: string;
  next_attempt_at: string;
  attempts: number;
  lease_expires_at: string | null;
  /** Random value of the sender holding the lease (with `lease_expires_at`), or null. */
  lease_token: string | null;
  sent_at: string | null;
}

/** Row shape of `request_notify_addresses`: where a request's notifications go (center or `notify_email`). */
export interface RequestNotifyAddressTable {
  request_id: string;
  workspace_id: string;
  email: string;
  /** 1 when the request has a status page (filed through the center). */
  status_link: number;
  /** The reason of the request's extension, as the person was told it (shown on the status page). */
  extension_reason: string | null;
  /**
   * The authorized agent that filed it through the center's agent path (PRODUCT §2.19): its
   * received, extended, completed and rejected mails go here too, without a link or any data;
   * null otherwise, '' once the request's last mail was written.
   */
  agent_email: string | null;
}

/**
 * Row shape of `privacy_center_agent_submissions` (PRODUCT §2.19, the center's agent path): what
 * an authorized agent submitted before the person confirmed it. Not a privacy request; deleted
 * when the person answers, 24 h after submission unverified, 14 days after verification unanswered.
 */
export interface PrivacyCenterAgentSubmissionTable {
  id: string;
  workspace_id: string;
  request_type: string;
  /** Trimmed, lower case. */
  agent_email: string;
  agent_name: string;
  /** The person's address: trimmed, lower case. */
  subject_email: string;
  /** Where the person's signed permission is (e.g. a document id). */
  proof_ref: string;
  /** Keyed hash of the agent's 6-digit code. */
  code_hash: string;
  code_expires_at: string;
  attempts_left: number;
  submitted_at: string;
  /** When the agent's code was verified (the person was then asked), or null. */
  verified_at: string | null;
  /** Keyed hash of the person's confirmation link's token (set at verification), or null. */
  confirm_hash: string | null;
}
