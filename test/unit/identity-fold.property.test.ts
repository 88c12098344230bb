/**
 * Properties of the identity fold (PRODUCT.md §2.6): any arrival order of a set of events, with
 * redeliveries, folds alike; deletion is final; an older event never overwrites a newer one.
 * A fixed seed (override with FC_SEED) makes every run reproducible; fast-check prints the seed
 * and the shrunk counterexample path on failure.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type {
  CanonicalIdentityEvent,
  IdentityEventType,
  LinkedAccount,
  SubjectState,
} from '../../src/modules/subjects/identity-event.types.js';
import { foldIdentityEvents, foldNext } from '../../src/modules/subjects/identity-fold.fns.js';

const SEED = Number(process.env.FC_SEED ?? 20261121);
const RUNS = 300;
const PARAMS = { seed: SEED, numRuns: RUNS };

const TYPES: IdentityEventType[] = ['user.created', 'user.updated', 'user.deactivated', 'user.reactivated', 'user.deleted'];
/** A small pool, so that equal timestamps (ties broken by id) happen often. */
const TIMES = ['2024-03-01T10:00:00.000Z', '2024-03-01T10:00:00.001Z', '2024-03-01T11:00:00.000Z', '2024-03-02T09:30:00.000Z'];
const IDS = ['evt_01', 'evt_02', 'evt_0A', 'evt_10', 'evt_a', 'evt_b', 'evt_B', 'msg_1', 'msg_2', 'z', 'Z', '_'];
const PROFILE_FIELDS = ['email', 'name', 'username', 'linked_accounts'] as const;

const nullableText = (values: string[]) => fc.oneof(fc.constant(null), fc.constantFrom(...values));
const linkedAccount: fc.Arbitrary<LinkedAccount> = fc.record(
  {
    provider: fc.constantFrom('github', 'GitHub', 'gitlab'),
    account_id: fc.constantFrom('1', '2', '583231'),
    login: nullableText(['octocat', 'monalisa']),
  },
  { requiredKeys: ['provider', 'account_id'] },
);
const data = fc.record(
  {
    email: nullableText(['a@example.com', 'b@example.com', 'c@example.com']),
    name: nullableText(['Ada', 'Grace']),
    username: nullableText(['ada', 'grace']),
    linked_accounts: fc.array(linkedAccount, { maxLength: 4 }),
  },
  { requiredKeys: [] },
);
const eventFrom = (ids: string[], times: string[], types: IdentityEventType[]): fc.Arbitrary<CanonicalIdentityEvent> =>
  fc
    .record({ id: fc.constantFrom(...ids), type: fc.constantFrom(...types), occurred_at: fc.constantFrom(...times), data })
    .map((e) => ({ ...e, data: { user_id: 'user_1', ...e.data } }));
const eventSet = fc.uniqueArray(eventFrom(IDS, TIMES, TYPES), { minLength: 1, maxLength: 8, selector: (e) => e.id });

/** The order the spec names, written independently of the code under test: occurred_at, then id (code units). */
function byTimeThenId(a: CanonicalIdentityEvent, b: CanonicalIdentityEvent): number {
  if (a.occurred_at !== b.occurred_at) return a.occurred_at < b.occurred_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The events that take effect: in order, up to and including the first user.deleted. */
function applied(events: readonly CanonicalIdentityEvent[]): CanonicalIdentityEvent[] {
  const sorted = [...events].sort(byTimeThenId);
  const cut = sorted.findIndex((e) => e.type === 'user.deleted');
  return cut === -1 ? sorted : sorted.slice(0, cut + 1);
}

/** Reference model: applies the (unique) events once, in order, stopping after a deletion. */
function referenceFold(events: readonly CanonicalIdentityEvent[]): SubjectState {
  const s: SubjectState = { state: 'active', email: null, name: null, username: null, linked_accounts: [], last_event_at: null };
  for (const e of applied(events)) {
    if (e.type !== 'user.deleted') {
      if (e.data.email !== undefined) s.email = e.data.email;
      if (e.data.name !== undefined) s.name = e.data.name;
      if (e.data.username !== undefined) s.username = e.data.username;
      if (e.data.linked_accounts !== undefined) s.linked_accounts = normalized(e.data.linked_accounts);
    }
    if (e.type === 'user.created' || e.type === 'user.reactivated') s.state = 'active';
    if (e.type === 'user.deactivated') s.state = 'deactivated';
    if (e.type === 'user.deleted') s.state = 'deleted';
    s.last_event_at = e.occurred_at;
  }
  return s;
}

function normalized(accounts: readonly LinkedAccount[]): LinkedAccount[] {
  const out: LinkedAccount[] = [];
  for (const a of accounts) {
    const provider = a.provider.toLowerCase();
    if (!out.some((o) => o.provider === provider && o.account_id === a.account_id))
      out.push({ provider, account_id: a.account_id, login: a.login ?? null });
  }
  return out;
}

/** A set, then an arrival order: a permutation of the set plus up to 8 redeliveries of its members. */
const deliveries = eventSet.chain((set) =>
  fc
    .array(fc.nat({ max: set.length - 1 }), { maxLength: 8 })
    .map((dups) => [...set, ...dups.map((i) => set[i] as CanonicalIdentityEvent)])
    .chain((all) => fc.tuple(fc.constant(set), fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }))),
);

describe(`identity fold properties (fast-check seed ${SEED}, ${RUNS} runs each)`, () => {
  it('any arrival order with duplicates folds like the set sorted by (occurred_at, id), applied once', () => {
    fc.assert(
      fc.property(deliveries, ([set, arrived]) => {
        const once = foldIdentityEvents([...set].sort(byTimeThenId));
        assert.deepEqual(foldIdentityEvents(arrived), once);
        assert.deepEqual(once, referenceFold(set));
      }),
      PARAMS,
    );
  });

  it('deletion is final: events ordered after the first user.deleted have no effect', () => {
    const withDeletion = fc.tuple(
      eventSet,
      eventFrom(['del_1'], TIMES, ['user.deleted']),
      fc.array(eventFrom(['late_1', 'late_2', 'late_3'], ['2030-01-01T00:00:00.000Z'], TYPES), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(withDeletion, ([base, deletion, later]) => {
        const set = [...base, deletion];
        const firstDeletion = [...set].sort(byTimeThenId).find((e) => e.type === 'user.deleted') as CanonicalIdentityEvent;
        const folded = foldIdentityEvents(set);
        assert.equal(folded.state, 'deleted');
        assert.equal(folded.last_event_at, firstDeletion.occurred_at);
        const upToDeletion = set.filter((e) => byTimeThenId(e, firstDeletion) <= 0);
        assert.deepEqual(folded, foldIdentityEvents(upToDeletion), 'events after the deletion changed the state');
        const uniqueLater = [...new Map(later.map((e) => [e.id, e])).values()];
        assert.deepEqual(foldIdentityEvents([...uniqueLater, ...set]), folded, 'a later event changed a deleted subject');
      }),
      PARAMS,
    );
  });

  it('an older event never overwrites a newer one: it changes only fields no newer applied event set', () => {
    const older = eventFrom(
      ['old_1'],
      ['2024-02-29T23:59:59.999Z'],
      ['user.created', 'user.updated', 'user.deactivated', 'user.reactivated'],
    );
    fc.assert(
      fc.property(eventSet, older, (base, old) => {
        const before = foldIdentityEvents(base);
        const after = foldIdentityEvents([...base, old]);
        const newer = applied(base);
        for (const field of PROFILE_FIELDS) {
          const setByNewer = newer.some((e) => e.type !== 'user.deleted' && e.data[field] !== undefined);
          const oldValue =
            field === 'linked_accounts' ? old.data.linked_accounts && normalized(old.data.linked_accounts) : old.data[field];
          const expected = setByNewer || oldValue === undefined ? before[field] : oldValue;
          assert.deepEqual(after[field], expected, `field ${field}`);
        }
        const stateSetByNewer = newer.some((e) => e.type !== 'user.updated');
        const oldState = old.type === 'user.deactivated' ? 'deactivated' : 'active';
        assert.equal(after.state, stateSetByNewer ? before.state : oldState, 'state');
        assert.equal(after.last_event_at, before.last_event_at, 'last_event_at');
      }),
      PARAMS,
    );
  });

  it('an event later than every folded one, applied on top of their fold, folds like all of them together', () => {
    const later = eventFrom(['next_1'], ['2030-01-01T00:00:00.000Z'], TYPES);
    fc.assert(
      fc.property(eventSet, later, (base, next) => {
        const all = foldIdentityEvents([...base, next]);
        assert.deepEqual(foldNext(foldIdentityEvents(base), next), all);
        // As the service uses it, from the subject row, which holds no linked accounts: they come
        // out only when the event names them, and then as the full fold has them.
        const { linked_accounts: _, ...profile } = foldIdentityEvents(base);
        const onTop = foldNext(profile, next);
        const { linked_accounts: linked, ...rest } = onTop;
        const { linked_accounts: allLinked, ...allRest } = all;
        assert.deepEqual(rest, allRest);
        // (user.deleted applies no profile data.)
        const named = profile.state !== 'deleted' && next.type !== 'user.deleted' && next.data.linked_accounts !== undefined;
        assert.deepEqual(linked, named ? allLinked : undefined);
      }),
      PARAMS,
    );
  });
});
