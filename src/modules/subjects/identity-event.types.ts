/** The lifecycle events every identity format is mapped onto (PRODUCT.md §2.6). */
export const IDENTITY_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deactivated',
  'user.reactivated',
  'user.deleted',
] as const;
export type IdentityEventType = (typeof IDENTITY_EVENT_TYPES)[number];

/** A code-host account linked to a subject. `provider` is lower-case (`github`, `gitlab`). */
export interface LinkedAccount {
  provider: string;
  account_id: string;
  login?: string | null;
}

/**
 * The canonical identity event (`format: standard`, PRODUCT.md §2.6). Absent profile fields are
 * left as they are; `null` clears one. `occurred_at` is RFC 3339 UTC with milliseconds.
 */
export interface CanonicalIdentityEvent {
  id: string;
  type: IdentityEventType;
  occurred_at: string;
  data: {
    user_id: string;
    email?: string | null;
    name?: string | null;
    username?: string | null;
    linked_accounts?: LinkedAccount[];
  };
}

/** A subject's state as folded from its events. */
export interface SubjectState {
  state: 'active' | 'deactivated' | 'deleted';
  email: string | null;
  name: string | null;
  username: string | null;
  linked_accounts: LinkedAccount[];
  /** `occurred_at` of the last event that applied, or null. */
  last_event_at: string | null;
}
