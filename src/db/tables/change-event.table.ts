/**
 * Row shape of `change_events`: a recorded pull/merge-request event and the policy decision taken
 * for it. The author is kept as the policy's `author_identity` allowed: ids and login (`full`),
 * a keyed pseudonym (`pseudonymous`), or nothing (`none`, or an erased author).
 */
export interface ChangeEventTable {
  id: string;
  workspace_id: string;
  integration_id: string;
  provider: string;
  /** Lower-cased (policies and filters match it case-insensitively). */
  repository: string;
  /** The repository as the provider spelled it (`Codertocat/Hello-World`); null for events stored before 2026-11-23. */
  repository_display: string | null;
  number: number;
  action: string;
  head_sha: string | null;
  title: string | null;
  author_account_id: string | null;
  author_login: string | null;
  author_pseudonym: string | null;
  /** JSON: `{processing_allowed, reasons[], excluded_paths, policy_version}`. */
  decision: string;
  policy_version: string;
  received_at: string;
}
