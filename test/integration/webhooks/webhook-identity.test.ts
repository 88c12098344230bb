/**
 * `POST /webhook/identity` with one `standard` integration (PRODUCT.md §2.6): Standard Webhooks
 * verification (spec vector, headers, tolerance, tampering), idempotent application of canonical
 * events, deletion finality, concurrency. Clerk, WorkOS, routing and auto-erase:
 * webhook-identity-formats.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { accountPseudonym } from '../../../src/lib/keyed-hash.js';
import { verifyStandardWebhook } from '../../../src/webhooks/identity/verify.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import {
  canonicalEvent,
  countIdentityEvents,
  flipByte,
  minutesFromNow,
  newStandardSecret,
  postIdentity,
  standardHeaders,
  UNVERIFIED,
} from '../../helpers/identity-webhooks.js';

describe('Standard Webhooks specification test vector', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const msgId = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const payload = '{"test": 2432232314}';
  const expected = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;
  const headers = { 'webhook-id': msgId, 'webhook-timestamp': String(timestamp), 'webhook-signature': expected };

  it('signs the vector exactly as the specification says', () => {
    assert.equal(new Webhook(secret).sign(msgId, new Date(timestamp * 1000), payload), expected);
  });

  it('verifies the vector at its own time, under both header spellings', (t) => {
    t.mock.method(Date, 'now', () => timestamp * 1000 + 10_000);
    assert.equal(verifyStandardWebhook(secret, request(headers), payload), true);
    assert.equal(
      verifyStandardWebhook(
        secret,
        request({ 'svix-id': msgId, 'svix-timestamp': String(timestamp), 'svix-signature': `v1,bm90IHRoaXMgb25l ${expected}` }),
        payload,
      ),
      true,
    );
    assert.equal(verifyStandardWebhook(secret, request(headers), payload.replace('4', '5')), false);
  });

  it('refuses the vector today: its timestamp is years outside the 5-minute tolerance', () => {
    assert.equal(verifyStandardWebhook(secret, request(headers), payload), false);
  });
});

for (const dialect of dialects()) {
  describe(`identity webhook, standard format (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const secret = newStandardSecret();
    const WS = 'acme';
    const PROVIDER = 'okta';
    let n = 0;
    /** Delivers a canonical event, signed now with a fresh message id unless told otherwise. */
    const deliver = (body: string, options: { messageId?: string; prefix?: 'webhook' | 'svix' } = {}) =>
      postIdentity(t, body, standardHeaders(secret, options.messageId ?? `msg_${++n}`, body, options));
    const subject = (userId: string) => t.services.subjects.get(WS, PROVIDER, userId);
    const events = (userId: string) => countIdentityEvents(t, WS, PROVIDER, userId);

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      await t.services.integrations.create(
        { kind: 'identity', workspace_id: WS, format: 'standard', subject_provider: PROVIDER, secret },
        'test',
      );
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('applies user.created: the subject row and its linked identities', async () => {
      const linked = [
        { provider: 'GitHub', account_id: 583231, login: 'octocat' },
        { provider: 'gitlab', account_id: '4711' },
      ];
      const res = await deliver(
        canonicalEvent('evt_c1', 'user.created', '2026-01-05T10:00:00Z', {
          user_id: 'u_1',
          email: 'ada@example.com',
          name: 'Ada Lovelace',
          username: 'ada',
          linked_accounts: linked,
        }),
      );
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { status: 'accepted', event_id: 'evt_c1' });
      assert.deepEqual(await subject('u_1'), {
        state: 'active',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        username: 'ada',
        last_event_at: '2026-01-05T10:00:00.000Z',
        linked_accounts: [
          { provider: 'github', account_id: '583231', login: 'octocat' },
          { provider: 'gitlab', account_id: '4711', login: null },
        ],
      });
      const rows = await t.services.database.db
        .selectFrom('linked_identities')
        .select(['workspace_id', 'provider', 'account_id', 'login'])
        .orderBy('provider')
        .execute();
      assert.deepEqual(rows, [
        { workspace_id: WS, provider: 'github', account_id: '583231', login: 'octocat' },
        { workspace_id: WS, provider: 'gitlab', account_id: '4711', login: null },
      ]);
      assert.equal(await events('u_1'), 1);
    });

    it('never lets an older user.updated overwrite a newer one', async () => {
      assert.equal(
        (
          await deliver(
            canonicalEvent('evt_u2', 'user.updated', '2026-01-05T12:00:00Z', { user_id: 'u_1', email: 'ada@new.example' }),
          )
        ).json().status,
        'accepted',
      );
      const late = await deliver(
        canonicalEvent('evt_u1', 'user.updated', '2026-01-05T11:00:00Z', {
          user_id: 'u_1',
          email: 'ada@old.example',
          name: 'A. Lovelace',
        }),
      );
      assert.deepEqual(late.json(), { status: 'accepted', event_id: 'evt_u1' });
      const s = await subject('u_1');
      assert.equal(s?.email, 'ada@new.example', 'the older email overwrote the newer one');
      assert.equal(s?.name, 'A. Lovelace', 'a field no newer event set takes the older value');
      assert.equal(s?.last_event_at, '2026-01-05T12:00:00.000Z');
      assert.equal(await events('u_1'), 3);
    });

    it('answers duplicate to the same event again (any message id, any body) and changes nothing', async () => {
      const body = canonicalEvent('evt_u2', 'user.updated', '2026-01-05T12:00:00Z', { user_id: 'u_1', email: 'ada@new.example' });
      const before = await subject('u_1');
      for (const res of [
        await deliver(body, { messageId: 'msg_redelivery' }),
        await deliver(body, { messageId: 'msg_redelivery' }),
        await deliver(body),
      ]) {
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json(), { status: 'duplicate', event_id: 'evt_u2' });
      }
      const altered = await deliver(
        canonicalEvent('evt_u2', 'user.updated', '2026-01-06T00:00:00Z', { user_id: 'u_1', email: 'mallory@example.com' }),
      );
      assert.deepEqual(altered.json(), { status: 'duplicate', event_id: 'evt_u2' });
      assert.deepEqual(await subject('u_1'), before);
      assert.equal(await events('u_1'), 3);
    });

    it('deactivates and reactivates, in event order whatever the arrival order', async () => {
      const ev = (id: string, type: string, at: string) => deliver(canonicalEvent(id, type, at, { user_id: 'u_2' }));
      await ev('evt_a1', 'user.created', '2026-02-01T00:00:00Z');
      assert.equal((await ev('evt_a2', 'user.deactivated', '2026-02-02T00:00:00Z')).json().status, 'accepted');
      assert.equal((await subject('u_2'))?.state, 'deactivated');
      await ev('evt_a3', 'user.reactivated', '2026-02-03T00:00:00Z');
      assert.equal((await subject('u_2'))?.state, 'active');
      await ev('evt_a4', 'user.deactivated', '2026-02-05T00:00:00Z');
      await ev('evt_a5', 'user.reactivated', '2026-02-04T00:00:00Z');
      assert.equal((await subject('u_2'))?.state, 'deactivated', 'a late, older reactivation undid a newer deactivation');
    });

    it('makes user.deleted final: a later user.updated changes nothing', async () => {
      await deliver(
        canonicalEvent('evt_d1', 'user.created', '2026-03-01T00:00:00Z', {
          user_id: 'u_3',
          email: 'grace@example.com',
          linked_accounts: [{ provider: 'github', account_id: '9' }],
        }),
      );
      const del = await deliver(canonicalEvent('evt_d2', 'user.deleted', '2026-03-02T00:00:00Z', { user_id: 'u_3' }));
      assert.deepEqual(del.json(), { status: 'accepted', event_id: 'evt_d2' }, 'no auto-erase policy: no request filed');
      const deleted = await subject('u_3');
      assert.equal(deleted?.state, 'deleted');
      const later = await deliver(
        canonicalEvent('evt_d3', 'user.updated', '2026-03-03T00:00:00Z', {
          user_id: 'u_3',
          email: 'back@example.com',
          linked_accounts: [],
        }),
      );
      assert.equal(later.statusCode, 200);
      const reactivated = await deliver(canonicalEvent('evt_d4', 'user.reactivated', '2026-03-04T00:00:00Z', { user_id: 'u_3' }));
      assert.equal(reactivated.statusCode, 200);
      assert.deepEqual(await subject('u_3'), deleted);
      const requests = await t.services.database.db.selectFrom('privacy_requests').select('id').execute();
      assert.equal(requests.length, 0);
    });

    it('accepts the svix-* twins of the headers', async () => {
      const res = await deliver(
        canonicalEvent('evt_s1', 'user.created', '2026-04-01T00:00:00Z', { user_id: 'u_4', email: 'svix@example.com' }),
        { prefix: 'svix' },
      );
      assert.deepEqual(res.json(), { status: 'accepted', event_id: 'evt_s1' });
      assert.equal((await subject('u_4'))?.email, 'svix@example.com');
    });

    describe('unverifiable deliveries: 401, nothing stored', () => {
      const body = canonicalEvent('evt_x', 'user.created', '2026-05-01T00:00:00Z', { user_id: 'u_x', email: 'x@example.com' });
      const cases: [string, () => { payload: string; headers: Record<string, string> }][] = [
        [
          'timestamp 6 minutes old',
          () => ({ payload: body, headers: standardHeaders(secret, 'msg_x', body, { at: minutesFromNow(-6) }) }),
        ],
        [
          'timestamp 6 minutes in the future',
          () => ({ payload: body, headers: standardHeaders(secret, 'msg_x', body, { at: minutesFromNow(6) }) }),
        ],
        ['one byte of the body flipped', () => ({ payload: flipByte(body), headers: standardHeaders(secret, 'msg_x', body) })],
        [
          'another message id than signed',
          () => ({ payload: body, headers: { ...standardHeaders(secret, 'msg_x', body), 'webhook-id': 'msg_y' } }),
        ],
        ['signed with another secret', () => ({ payload: body, headers: standardHeaders(newStandardSecret(), 'msg_x', body) })],
        [
          'no signature header',
          () => ({ payload: body, headers: without(standardHeaders(secret, 'msg_x', body), 'webhook-signature') }),
        ],
        [
          'no timestamp header',
          () => ({ payload: body, headers: without(standardHeaders(secret, 'msg_x', body), 'webhook-timestamp') }),
        ],
        ['no id header', () => ({ payload: body, headers: without(standardHeaders(secret, 'msg_x', body), 'webhook-id') })],
        ['no headers at all', () => ({ payload: body, headers: { 'content-type': 'application/json' } })],
        [
          'a v2 signature only',
          () => ({
            payload: body,
            headers: {
              ...standardHeaders(secret, 'msg_x', body),
              'webhook-signature': standardHeaders(secret, 'msg_x', body)['webhook-signature']?.replace('v1,', 'v2,') ?? '',
            },
          }),
        ],
      ];
      for (const [why, make] of cases) {
        it(why, async () => {
          const { payload, headers } = make();
          const res = await postIdentity(t, payload, headers);
          assert.equal(res.statusCode, 401, res.body);
          assert.deepEqual(res.json(), UNVERIFIED);
          assert.equal(await subject('u_x'), null);
          assert.equal(await events('u_x'), 0);
        });
      }
    });

    it('answers 400 to an authentic body that is not JSON or not the canonical shape, storing nothing', async () => {
      for (const body of [
        '{"id": "evt_bad", "type": ',
        '',
        'null',
        canonicalEvent('evt_bad', 'user.created', '2026-05-01T00:00:00Z', { email: 'no-user@example.com' }),
      ]) {
        const res = await deliver(body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      }
      const subjects = await t.services.database.db.selectFrom('subjects').select('subject_id').execute();
      assert.deepEqual(subjects.map((s) => s.subject_id).sort(), ['u_1', 'u_2', 'u_3', 'u_4']);
    });

    it('ignores an authentic event of an unhandled type, storing nothing', async () => {
      const res = await deliver(canonicalEvent('evt_i', 'user.signed_in', '2026-05-01T00:00:00Z', { user_id: 'u_i' }));
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().status, 'ignored');
      assert.equal(await subject('u_i'), null);
    });

    it('moves a linked account to the subject that names it last, with its new login', async () => {
      const link = (id: string, userId: string, login: string) =>
        canonicalEvent(id, 'user.created', '2026-06-02T00:00:00Z', {
          user_id: userId,
          linked_accounts: [{ provider: 'GitHub', account_id: '77', login }],
        });
      assert.equal((await deliver(link('evt_move_a', 'u_move_a', 'old-login'))).json().status, 'accepted');
      assert.deepEqual((await subject('u_move_a'))?.linked_accounts, [
        { provider: 'github', account_id: '77', login: 'old-login' },
      ]);
      assert.equal((await deliver(link('evt_move_b', 'u_move_b', 'new-login'))).json().status, 'accepted');
      assert.deepEqual((await subject('u_move_a'))?.linked_accounts, []);
      assert.deepEqual((await subject('u_move_b'))?.linked_accounts, [
        { provider: 'github', account_id: '77', login: 'new-login' },
      ]);
    });

    it('stores one event for 20 concurrent identical deliveries', async () => {
      const body = canonicalEvent('evt_conc', 'user.created', '2026-06-01T00:00:00Z', {
        user_id: 'u_5',
        email: 'many@example.com',
        linked_accounts: [{ provider: 'github', account_id: '55' }],
      });
      const headers = standardHeaders(secret, 'msg_conc', body);
      const results = await Promise.all(Array.from({ length: 20 }, () => postIdentity(t, body, headers)));
      assert.deepEqual(
        results.map((r) => r.statusCode),
        Array(20).fill(200),
      );
      const statuses = results.map((r) => r.json().status).sort();
      assert.deepEqual(statuses, ['accepted', ...Array(19).fill('duplicate')]);
      assert.equal(await events('u_5'), 1);
      const s = await subject('u_5');
      assert.equal(s?.email, 'many@example.com');
      assert.deepEqual(s?.linked_accounts, [{ provider: 'github', account_id: '55', login: null }]);
    });

    it('ignores an event for a tombstoned account, known subject or new, and changes nothing', async () => {
      const tombstone = (userId: string) =>
        t.services.database.db
          .insertInto('tombstones')
          .values({
            workspace_id: WS,
            subject_hash: accountPseudonym(t.services.keys.pseudonymKey, PROVIDER, userId),
            created_at: '2026-07-01T00:00:00.000Z',
          })
          .execute();
      const created = canonicalEvent('evt_t1', 'user.created', '2026-07-01T00:00:00Z', {
        user_id: 'u_tomb',
        email: 'a@example.com',
      });
      assert.equal((await deliver(created)).json().status, 'accepted');
      const before = await subject('u_tomb');
      await tombstone('u_tomb');
      const update = canonicalEvent('evt_t2', 'user.updated', '2026-07-02T00:00:00Z', {
        user_id: 'u_tomb',
        email: 'b@example.com',
      });
      const ERASED = { status: 'ignored', event_id: 'evt_t2', reason: 'the subject was erased' };
      assert.deepEqual((await deliver(update)).json(), ERASED);
      assert.deepEqual(await subject('u_tomb'), before);
      assert.equal(await events('u_tomb'), 1);
      await tombstone('u_tomb_new');
      const fresh = canonicalEvent('evt_t3', 'user.created', '2026-07-03T00:00:00Z', {
        user_id: 'u_tomb_new',
        email: 'c@example.com',
      });
      assert.deepEqual((await deliver(fresh)).json(), { ...ERASED, event_id: 'evt_t3' });
      assert.equal(await subject('u_tomb_new'), null);
    });

    it('leaves a moved account with its new subject when the old one gets an event that does not name it', async () => {
      const event = (id: string, userId: string, at: string, data: Record<string, unknown>) =>
        deliver(canonicalEvent(id, 'user.updated', at, { user_id: userId, ...data }));
      const account = [{ provider: 'github', account_id: '78', login: 'mover' }];
      await event('evt_keep_a1', 'u_keep_a', '2026-06-03T00:00:00Z', { linked_accounts: account });
      await event('evt_keep_b1', 'u_keep_b', '2026-06-04T00:00:00Z', { linked_accounts: account });
      assert.equal((await event('evt_keep_a2', 'u_keep_a', '2026-06-05T00:00:00Z', { name: 'A' })).json().status, 'accepted');
      assert.equal((await subject('u_keep_a'))?.name, 'A');
      assert.deepEqual((await subject('u_keep_a'))?.linked_accounts, []);
      assert.deepEqual((await subject('u_keep_b'))?.linked_accounts, account);
    });

    it('keeps linked accounts through events that do not name them, and drops them when an event empties the list', async () => {
      const ev = (id: string, at: string, data: Record<string, unknown>) =>
        deliver(canonicalEvent(id, 'user.updated', at, { user_id: 'u_links', ...data }));
      const linked = async () => (await subject('u_links'))?.linked_accounts;
      await ev('evt_l1', '2026-08-01T00:00:00Z', { email: 'l@example.com' });
      assert.deepEqual(await linked(), []);
      await ev('evt_l2', '2026-08-02T00:00:00Z', { linked_accounts: [{ provider: 'gitlab', account_id: '12' }] });
      await ev('evt_l3', '2026-08-03T00:00:00Z', { email: 'l2@example.com' });
      assert.deepEqual(await linked(), [{ provider: 'gitlab', account_id: '12', login: null }]);
      await ev('evt_l4', '2026-08-04T00:00:00Z', { linked_accounts: [] });
      assert.deepEqual(await linked(), []);
      await ev('evt_l5', '2026-08-05T00:00:00Z', { email: 'l3@example.com' });
      assert.deepEqual(await linked(), []);
      assert.equal((await subject('u_links'))?.email, 'l3@example.com');
    });
  });
}

function without(headers: Record<string, string>, name: string): Record<string, string> {
  const { [name]: _, ...rest } = headers;
  return rest;
}
