import type { ColumnType } from 'kysely';

/**
 * Row shape of `opt_outs`: a person's opt-out or opt-in of one kind (PRODUCT §2.18), filed once
 * per `(workspace_id, client_request_id)`. Kept through a deletion of the person (the record that
 * lets the workspace keep honouring the choice).
 */
export interface OptOutTable {
  /** `oo_<ULID>`: time-sortable, so `ORDER BY id` is oldest first. */
  id: string;
  workspace_id: string;
  subject_provider: string;
  subject_id: string;
  /** `sale_sharing`, `sensitive_use` or `direct_marketing`. */
  kind: string;
  /** `opt_out` or `opt_in`. */
  choice: string;
  /** `form`, `gpc`, `agent` or `api`. */
  source: string;
  client_request_id: string;
  /** `queued`, `processing`, `completed`, `failed` or `canceled`. */
  status: string;
  /** RFC 3339 UTC: when the controller received it; the deadline counts from it. */
  received_at: string;
  created_at: string;
  due_at: string;
  completed_at: string | null;
  /** The principal that filed it (`token:tok_…`, `oidc:<sub>`). */
  filed_by: string;
  /** The authorized agent that filed it (PRODUCT §2.19): JSON `{id, name, drp_request_id, proof_ref}`; null otherwise. */
  agent: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * Row shape of `privacy_preferences`: a subject's standing choice of one kind, the one of the
 * latest-received accepted opt-out or opt-in of that kind (PRODUCT §2.18). No row: `not_set`.
 */
export interface PrivacyPreferenceTable {
  workspace_id: string;
  subject_provider: string;
  subject_id: string;
  kind: string;
  choice: string;
  source: string;
  /** The opt-out (`oo_…`) that set it. */
  opt_out_id: string;
  /** That opt-out's `received_at`: a choice received earlier never replaces this one. */
  received_at: string;
  updated_at: string;
}
