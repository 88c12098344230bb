/** A pull/merge-request event as parsed from GitHub or GitLab, before any policy applies. */
export interface IncomingChangeEvent {
  provider: 'github' | 'gitlab';
  /** `owner/name` or `group/sub/project`, as the provider spells it. */
  repository: string;
  number: number;
  /** The provider's action: `opened`/`synchronize` (GitHub), `open`/`update` (GitLab). */
  action: string;
  head_sha: string | null;
  title: string | null;
  author: { account_id: string; login: string | null } | null;
}

/** The policy decision recorded with a change event (PRODUCT.md §2.6). */
export interface ChangeDecision {
  processing_allowed: boolean;
  /** Machine-readable reasons, e.g. `processing_disallowed`, `author_pseudonymized`, `author_erased`. */
  reasons: string[];
  excluded_paths: string[];
  policy_version: string;
}

/** A change event as the API lists it. */
export interface ChangeEventResource {
  id: string;
  workspace_id: string;
  provider: string;
  repository: string;
  number: number;
  action: string;
  head_sha: string | null;
  title: string | null;
  author: { account_id: string | null; login: string | null; pseudonym: string | null } | null;
  decision: ChangeDecision;
  received_at: string;
}
