import type { Executor } from '../../db/executor.js';
import type { Transact } from '../../db/write-batcher.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { accountPseudonym } from '../../lib/keyed-hash.js';
import type { CanonicalIdentityEvent, LinkedAccount, SubjectState } from './identity-event.types.js';
import { foldIdentityEvents, foldNext, type SubjectProfile } from './identity-fold.fns.js';
import * as repo from './subject.repository.js';

/** What applying one identity event did. */
export interface ApplyResult {
  /**
   * `duplicate` when this event id was already applied for the subject; `erased` when the subject
   * was erased (tombstoned): a late or redelivered event must not bring the profile back.
   * Nothing changed in either case.
   */
  status: 'accepted' | 'duplicate' | 'erased';
  /** The subject's state after the event (its linked accounts are in `linked_identities`). */
  state: Omit<SubjectState, 'linked_accounts'>;
  /** True when the subject is deleted now and was not before this event. */
  becameDeleted: boolean;
}

/** What an erased subject looks like to the caller: deleted, nothing known. */
const ERASED_STATE: ApplyResult['state'] = {
  state: 'deleted',
  email: null,
  name: null,
  username: null,
  last_event_at: null,
};

function withoutLinks(state: SubjectProfile): ApplyResult['state'] {
  const { linked_accounts: _, ...profile } = state;
  return profile;
}

function toEvent(row: repo.IdentityEventRow): CanonicalIdentityEvent {
  return {
    id: row.event_id,
    type: row.event_type as CanonicalIdentityEvent['type'],
    occurred_at: row.occurred_at,
    data: JSON.parse(row.data),
  };
}

/**
 * True when the subject had linked accounts before event `eventId` was stored. The subject's
 * `linked_identities` rows are always among the accounts of the fold of its stored events (this
 * service writes exactly those; other subjects can only take rows away; an erasure deletes the
 * rows with the events), so with none before and none after there is nothing to delete or write.
 */
function linkedBefore(events: readonly CanonicalIdentityEvent[], eventId: string): boolean {
  return foldIdentityEvents(events.filter((e) => e.id !== eventId)).linked_accounts.length > 0;
}

/** The subject row's state as the fold it stores (without linked accounts, kept in their own table). */
function profileOf(subject: repo.SubjectRow): SubjectProfile {
  const { state, email, name, username, last_event_at } = subject;
  return { state: state as SubjectState['state'], email, name, username, last_event_at };
}

/**
 * True when `event` sorts after every event folded into the subject row (a later `occurred_at`
 * than its `last_event_at`, the usual case: events arrive in order) and the subject is not
 * deleted: the new state is then the row's state with `event` applied ({@link foldNext}).
 */
function appliesOnTop(subject: repo.SubjectRow, event: CanonicalIdentityEvent): boolean {
  return subject.state !== 'deleted' && (subject.last_event_at === null || event.occurred_at > subject.last_event_at);
}

/** One identity event about to be applied to its (locked) subject, as of `now` (RFC 3339 UTC). */
interface EventToApply {
  workspaceId: string;
  subject: repo.SubjectRow;
  event: CanonicalIdentityEvent;
  /** The event as stored. */
  row: repo.IdentityEventRow;
  now: string;
}

/**
 * Data subjects as the identity provider describes them. Each event is stored once (by id) under
 * a row lock on the subject, so redeliveries change nothing, an older event never overwrites a
 * newer one, deletion is final, and concurrent deliveries for one subject serialise. An event
 * later than every stored one (the usual case) is applied on top of the state the subject row
 * holds, so its cost does not grow with the subject's history; an older one, a redelivery or an
 * event for a deleted subject re-folds the subject from all its events.
 */
export function createSubjectService(deps: { db: Executor; transact: Transact; clock: Clock; pseudonymKey: string }) {
  const { db, transact, clock, pseudonymKey } = deps;

  /** The usual case ({@link appliesOnTop}); null when the event turns out to be stored already. */
  async function applyOnTop(tx: Executor, { workspaceId, subject, event, row, now }: EventToApply): Promise<ApplyResult | null> {
    if (!(await repo.storeEvent(tx, row))) return null;
    const next = foldNext(profileOf(subject), event);
    await repo.updateSubjectState(tx, subject.id, next, now);
    // Only an event that names linked accounts changes them; the others leave the table as it is.
    if (next.linked_accounts) await repo.replaceLinkedIdentities(tx, workspaceId, subject.id, next.linked_accounts);
    return { status: 'accepted', state: withoutLinks(next), becameDeleted: next.state === 'deleted' };
  }

  /** Any other event: stores it unless known and folds the subject from all its events. */
  async function refold(tx: Executor, { workspaceId, subject, event, row, now }: EventToApply): Promise<ApplyResult> {
    const { stored, events: rows } = await repo.storeEventAndList(tx, row);
    const events = rows.map(toEvent);
    const state = foldIdentityEvents(events);
    if (!stored) return { status: 'duplicate', state: withoutLinks(state), becameDeleted: false };
    await repo.updateSubjectState(tx, subject.id, state, now);
    if (state.linked_accounts.length > 0 || linkedBefore(events, event.id))
      await repo.replaceLinkedIdentities(tx, workspaceId, subject.id, state.linked_accounts);
    return {
      status: 'accepted',
      state: withoutLinks(state),
      becameDeleted: subject.state !== 'deleted' && state.state === 'deleted',
    };
  }

  return {
    /** Applies one canonical event to the subject (workspace, provider, event.data.user_id). */
    async applyIdentityEvent(workspaceId: string, subjectProvider: string, event: CanonicalIdentityEvent): Promise<ApplyResult> {
      const now = toTimestamp(clock());
      return transact(async ({ tx }) => {
        const key = { workspace_id: workspaceId, subject_provider: subjectProvider, subject_id: event.data.user_id };
        const fresh = {
          id: newId('sub'),
          ...key,
          state: 'active',
          email: null,
          name: null,
          username: null,
          last_event_at: null,
          updated_at: now,
        };
        const locked = await repo.lockSubject(
          tx,
          key,
          accountPseudonym(pseudonymKey, subjectProvider, event.data.user_id),
          fresh,
        );
        if (locked.erased) return { status: 'erased' as const, state: ERASED_STATE, becameDeleted: false };
        const { subject } = locked;
        const row = {
          subject_ref: subject.id,
          event_id: event.id,
          event_type: event.type,
          occurred_at: event.occurred_at,
          data: JSON.stringify(event.data),
          received_at: now,
        };
        const toApply: EventToApply = { workspaceId, subject, event, row, now };
        const onTop = appliesOnTop(subject, event) ? await applyOnTop(tx, toApply) : null;
        return onTop ?? refold(tx, toApply);
      });
    },

    /** A subject's profile and linked accounts, or null when the service has never heard of it. */
    async get(
      workspaceId: string,
      subjectProvider: string,
      subjectId: string,
    ): Promise<(SubjectState & { linked_accounts: LinkedAccount[] }) | null> {
      const row = await repo.findSubject(db, workspaceId, subjectProvider, subjectId);
      if (!row) return null;
      const { state, email, name, username, last_event_at } = row;
      return {
        state: state as SubjectState['state'],
        email,
        name,
        username,
        last_event_at,
        linked_accounts: await repo.listLinkedIdentities(db, row.id),
      };
    },
  };
}

export type SubjectService = ReturnType<typeof createSubjectService>;
