import type { CanonicalIdentityEvent, IdentityEventType, LinkedAccount, SubjectState } from './identity-event.types.js';

/** Orders events by `occurred_at`, then by id: a total order, so every replica folds alike. */
export function compareEvents(
  a: Pick<CanonicalIdentityEvent, 'id' | 'occurred_at'>,
  b: Pick<CanonicalIdentityEvent, 'id' | 'occurred_at'>,
): number {
  if (a.occurred_at !== b.occurred_at) return a.occurred_at < b.occurred_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Lower-cases providers and keeps the first of each (provider, account_id). */
export function normalizeLinkedAccounts(accounts: readonly LinkedAccount[]): LinkedAccount[] {
  const seen = new Set<string>();
  const out: LinkedAccount[] = [];
  for (const account of accounts) {
    const provider = account.provider.toLowerCase();
    const key = `${provider}\u0000${account.account_id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ provider, account_id: account.account_id, login: account.login ?? null });
  }
  return out;
}

/** A subject's state without its linked accounts (what the `subjects` row holds). */
export type SubjectProfile = Omit<SubjectState, 'linked_accounts'> & { linked_accounts?: LinkedAccount[] };

function applyProfile(state: SubjectProfile, data: CanonicalIdentityEvent['data']): void {
  if (data.email !== undefined) state.email = data.email;
  if (data.name !== undefined) state.name = data.name;
  if (data.username !== undefined) state.username = data.username;
  if (data.linked_accounts !== undefined) state.linked_accounts = normalizeLinkedAccounts(data.linked_accounts);
}

/**
 * What each event type does to a subject: whether its data (email, name, username, linked
 * accounts) applies, and the state it leaves the subject in (none: unchanged).
 */
const EVENT_EFFECTS: Readonly<Record<IdentityEventType, { appliesData: boolean; state?: SubjectState['state'] }>> = {
  'user.created': { appliesData: true, state: 'active' },
  'user.updated': { appliesData: true },
  'user.deactivated': { appliesData: true, state: 'deactivated' },
  'user.reactivated': { appliesData: true, state: 'active' },
  'user.deleted': { appliesData: false, state: 'deleted' },
};

function applyOne(state: SubjectProfile, event: CanonicalIdentityEvent): void {
  const effect = EVENT_EFFECTS[event.type];
  if (effect.appliesData) applyProfile(state, event.data);
  if (effect.state !== undefined) state.state = effect.state;
  state.last_event_at = event.occurred_at;
}

/**
 * A subject's state from the set of its events, whatever order and however often they arrived:
 * the events are de-duplicated by id, applied in {@link compareEvents} order, and nothing after
 * a `user.deleted` applies (deletion is final). So an older event never overwrites a newer one,
 * and any interleaving of a set of events, with duplicates, folds to the same state.
 */
export function foldIdentityEvents(events: readonly CanonicalIdentityEvent[]): SubjectState {
  const unique = [...new Map(events.map((e) => [e.id, e])).values()].sort(compareEvents);
  const state: SubjectState = {
    state: 'active',
    email: null,
    name: null,
    username: null,
    linked_accounts: [],
    last_event_at: null,
  };
  for (const event of unique) {
    if (state.state === 'deleted') break;
    applyOne(state, event);
  }
  return state;
}

/**
 * The state after one more event, from the fold of the events before it: equal to
 * {@link foldIdentityEvents} of all of them when `event` sorts after every event folded into
 * `state` (the caller checks: its `occurred_at` is later than `state.last_event_at`). A deleted
 * state stays as it is (deletion is final).
 *
 * @param state - the fold so far; its `linked_accounts` may be left out, and the result then has
 *   them only when `event` names them (`data.linked_accounts`).
 * @returns a new state; `state` is not changed.
 */
export function foldNext(state: SubjectProfile, event: CanonicalIdentityEvent): SubjectProfile {
  if (state.state === 'deleted') return state;
  const next = { ...state };
  applyOne(next, event);
  return next;
}
