/** Row shape of `request_notes`: an operator's internal working note on a request (PRODUCT §2.16). */
export interface RequestNoteTable {
  /** `note_<ULID>`: time-sortable, so `ORDER BY id` is oldest first. */
  id: string;
  request_id: string;
  workspace_id: string;
  /** The note; null once a deletion of the request's subject erased it. */
  text: string | null;
  /** SHA-256 (hex) of the text as written: what the audit entry holds. */
  text_sha256: string;
  /** The principal that wrote it (`token:tok_…`, `oidc:<sub>`) and its name as the audit trail shows it. */
  author: string;
  author_name: string;
  /** RFC 3339 UTC. */
  created_at: string;
  /** When an erasure removed the text (RFC 3339 UTC); null while it stands. */
  erased_at: string | null;
}
