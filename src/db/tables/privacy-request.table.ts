import type { ColumnType } from 'kysely';

/** Row shape of `privacy_requests`. Times are RFC 3339 UTC strings; `scope` is a JSON array. */
export interface PrivacyRequestTable {
  id: string;
  workspace_id: string;
  request_type: string;
  scope: string;
  subject_provider: string;
  subject_id: string;
  client_request_id: string;
  intake_ref: string;
  regulation: string;
  status: string;
  /**
   * When the controller received the request (PRODUCT §2.13): given at filing, else the filing
   * time; deadlines count from it. Backfilled from `created_at` for earlier requests.
   */
  received_at: string;
  status_reason: string | null;
  created_at: string;
  due_at: string;
  extended_due_at: string | null;
  completed_at: string | null;
  updated_at: string;
  /** Processing attempts so far (the worker's retries). */
  attempts: number;
  /** The worker holding the request, and until when (RFC 3339); null when none does. */
  lease_owner: string | null;
  lease_expires_at: string | null;
  /** Earliest time of the next attempt after a failure (backoff), or null. */
  next_attempt_at: string | null;
  /**
   * The principal that filed the request (`token:tok_…`, `oidc:<sub>`, `integration:int_…`); it
   * may not approve it. Null only for a request filed before 2026-11-23 whose `created` audit
   * entry is missing (docs/decisions.md).
   */
  filed_by: string | null;
  /**
   * Whether the request's own step found its identity here (PRODUCT §2.13): 1 when a subject,
   * linked account or change-event author matched, 0 when nothing did, null before the own step
   * (or when a stand-in handler did not say). With 0, a request whose systems found nothing
   * either waits as `identity_unmatched`.
   */
  subject_found: ColumnType<number | null, never, number | null>;
  /** When the deadline sweep enqueued `privacy_request.due_soon` / `.overdue` (once each); null before. */
  due_soon_notified_at: ColumnType<string | null, never, string | null>;
  overdue_notified_at: ColumnType<string | null, never, string | null>;
  /** The operator the request is assigned to (their name as the audit trail shows it); null: nobody (PRODUCT §2.16). */
  assignee: ColumnType<string | null, never, string | null>;
  /**
   * The request this one repeats (PRODUCT §2.20): the most recent request of the same type for
   * the same matched subject in the workspace, open or completed within the policy's
   * `repeat_window_days`, when this one was filed; null otherwise. Set at filing only.
   */
  related_request_id: string | null;
  /**
   * The authorized agent that filed it (PRODUCT §2.19): JSON `{id, name, drp_request_id,
   * proof_ref}`; null for every other request. Set at filing only.
   */
  agent: string | null;
  /**
   * `agent`'s `id` (a DRP `agent-id`, or the privacy center agent's keyed pseudonym), for the
   * list's `agent_id` filter; null for every other request. Set at filing only.
   */
  agent_id: string | null;
}

/** Row shape of `request_results`: what processing produced. `package` holds personal data. */
export interface RequestResultTable {
  request_id: string;
  /** JSON: the access/export package (GDPR Art. 15/20); null after erasure or for other types. */
  package: string | null;
  /** JSON: the erasure/correction report (no personal data). */
  report: string | null;
  /** When processing produced it (RFC 3339 UTC). */
  created_at: string;
  /** When the package is deleted: set by the retention sweeper; null until then or without a package. */
  package_expires_at: string | null;
  /** When the retention sweeper deleted the package; null while it exists. */
  package_expired_at: string | null;
  /** When the package was first fetched (delivered); null until then (PRODUCT §2.13). */
  package_fetched_at: string | null;
  /**
   * JSON list of the categories a deletion of the same subject erases once the package has been
   * fetched once (the retention sweep does it; expiry drops it whole); null when none waits.
   */
  package_erasure_held: string | null;
}
