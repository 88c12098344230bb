/**
 * Row shape of `subjects`: a data subject as known from its identity provider, folded from its
 * `identity_events`. `state` is `active`, `deactivated` or `deleted` (final).
 */
export interface SubjectTable {
  id: string;
  workspace_id: string;
  subject_provider: string;
  subject_id: string;
  state: string;
  email: string | null;
  name: string | null;
  username: string | null;
  last_event_at: string | null;
  updated_at: string;
}

/** Row shape of `identity_events`: each applied identity event (canonical form), once per id. */
export interface IdentityEventTable {
  subject_ref: string;
  event_id: string;
  event_type: string;
  occurred_at: string;
  /** JSON of the canonical event's `data`. Personal data: erased with the subject. */
  data: string;
  received_at: string;
}

/** Row shape of `linked_identities`: a code-host account linked to a subject. */
export interface LinkedIdentityTable {
  workspace_id: string;
  provider: string;
  account_id: string;
  subject_ref: string;
  login: string | null;
}

/** Row shape of `tombstones`: the keyed hash of an erased subject's account. */
export interface TombstoneTable {
  workspace_id: string;
  subject_hash: string;
  created_at: string;
}
