/**
 * `POST /webhook/identity` with several identity integrations (PRODUCT.md §2.5–2.6): routing by
 * `?integration`, Clerk (through Svix, Standard Webhooks signatures) and WorkOS
 * (`WorkOS-Signature`) on real payloads, and `auto_erase_on_deprovision`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
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
  workosHeaders,
} from '../../helpers/identity-webhooks.js';

/** The exact bytes of a real payload (signatures cover bytes, so no re-serialising). */
const fixtureText = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8');
const CLERK_CREATED = fixtureText('clerk-user.created.json');
const WORKOS_CREATED = fixtureText('workos-dsync.user.created.json');
const CLERK_USER = 'user_29w83sxmDNGwOuEthce5gg56FcC';
const WORKOS_USER = 'directory_user_01E1X1B89NH8Z3SDFJR4H7RGX7';

for (const dialect of dialects()) {
  describe(`identity webhook, several integrations (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const standardSecret = newStandardSecret();
    const clerkSecret = newStandardSecret();
    const workosSecret = 'wh_sec_0123456789abcdefABCDEF';
    const eraseSecret = newStandardSecret();
    const ids = { standard: '', clerk: '', workos: '', erase: '' };
    let n = 0;
    const signed = (secret: string, body: string, messageId = `msg_${++n}`) => standardHeaders(secret, messageId, body);
    const requestsFor = (workspaceId: string, subjectId: string) =>
      t.services.database.db
        .selectFrom('privacy_requests')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('subject_id', '=', subjectId)
        .execute();

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      const create = async (
        workspace_id: string,
        format: 'standard' | 'clerk' | 'workos',
        subject_provider: string,
        secret: string,
      ) =>
        (await t.services.integrations.create({ kind: 'identity', workspace_id, format, subject_provider, secret }, 'test')).id;
      ids.standard = await create('acme', 'standard', 'okta', standardSecret);
      ids.clerk = await create('acme', 'clerk', 'clerk', clerkSecret);
      ids.workos = await create('acme', 'workos', 'workos', workosSecret);
      ids.erase = await create('erasing', 'standard', 'okta', eraseSecret);
      await t.services.policies.putLayer('erasing', null, { auto_erase_on_deprovision: true }, 'test');
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    describe('routing', () => {
      const body = canonicalEvent('evt_r1', 'user.created', '2026-01-01T00:00:00Z', { user_id: 'u_r', email: 'r@example.com' });

      it('routes a delivery without ?integration= to the integration whose secret verifies it; none: 401, nothing stored', async () => {
        const routed = canonicalEvent('evt_r0', 'user.created', '2026-01-01T00:00:00Z', {
          user_id: 'u_r0',
          email: 'r0@example.com',
        });
        const res = await postIdentity(t, routed, signed(eraseSecret, routed));
        assert.deepEqual(res.json(), { status: 'accepted', event_id: 'evt_r0' }, 'the second workspace, found by its secret');
        assert.equal((await t.services.subjects.get('erasing', 'okta', 'u_r0'))?.email, 'r0@example.com');
        assert.equal(await t.services.subjects.get('acme', 'okta', 'u_r0'), null);
        const forged = await postIdentity(t, body, signed(newStandardSecret(), body));
        assert.equal(forged.statusCode, 401, forged.body);
        assert.doesNotMatch(forged.body, /several|integrations exist|int_/i, 'no answer tells of other integrations');
        assert.equal(await t.services.subjects.get('acme', 'okta', 'u_r'), null);
      });

      it('applies the delivery to the integration named by ?integration', async () => {
        const res = await postIdentity(t, body, signed(standardSecret, body), ids.standard);
        assert.deepEqual(res.json(), { status: 'accepted', event_id: 'evt_r1' });
        assert.equal((await t.services.subjects.get('acme', 'okta', 'u_r'))?.email, 'r@example.com');
      });

      it("answers 401 when the named integration's secret did not sign it, or it does not exist", async () => {
        const other = canonicalEvent('evt_r2', 'user.created', '2026-01-01T00:00:00Z', { user_id: 'u_r2' });
        for (const integration of [ids.clerk, ids.workos, 'int_00000000000000000000000000']) {
          const res = await postIdentity(t, other, signed(standardSecret, other), integration);
          assert.equal(res.statusCode, 401, `${integration}: ${res.body}`);
          assert.deepEqual(res.json(), UNVERIFIED);
        }
        assert.equal(await countIdentityEvents(t, 'acme', 'okta', 'u_r2'), 0);
      });
    });

    describe('Clerk (through Svix)', () => {
      it('applies the real user.created payload signed with Standard Webhooks headers; the event id is the message id', async () => {
        const res = await postIdentity(
          t,
          CLERK_CREATED,
          signed(clerkSecret, CLERK_CREATED, 'msg_2LpYhkNHfXGaqmbHjBeJ7vJ3FzK'),
          ids.clerk,
        );
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { status: 'accepted', event_id: 'msg_2LpYhkNHfXGaqmbHjBeJ7vJ3FzK' });
        assert.deepEqual(await t.services.subjects.get('acme', 'clerk', CLERK_USER), {
          state: 'active',
          email: 'example@example.org',
          name: 'Example Example',
          username: null,
          last_event_at: '2022-05-31T15:56:31.835Z',
          linked_accounts: [],
        });
        const again = await postIdentity(
          t,
          CLERK_CREATED,
          standardHeaders(clerkSecret, 'msg_2LpYhkNHfXGaqmbHjBeJ7vJ3FzK', CLERK_CREATED, { prefix: 'svix' }),
          ids.clerk,
        );
        assert.deepEqual(again.json(), { status: 'duplicate', event_id: 'msg_2LpYhkNHfXGaqmbHjBeJ7vJ3FzK' });
      });

      it('applies user.deleted (svix-* headers) and ignores other Clerk events', async () => {
        const deleted = JSON.stringify({
          data: { deleted: true, id: CLERK_USER, object: 'user' },
          object: 'event',
          type: 'user.deleted',
          timestamp: 1654012600000,
        });
        const res = await postIdentity(
          t,
          deleted,
          standardHeaders(clerkSecret, 'msg_del', deleted, { prefix: 'svix' }),
          ids.clerk,
        );
        assert.deepEqual(res.json(), { status: 'accepted', event_id: 'msg_del' });
        assert.equal((await t.services.subjects.get('acme', 'clerk', CLERK_USER))?.state, 'deleted');
        const session = JSON.stringify({
          data: { id: 'sess_1', object: 'session', user_id: CLERK_USER },
          object: 'event',
          type: 'session.created',
          timestamp: 1654012600001,
        });
        assert.equal((await postIdentity(t, session, signed(clerkSecret, session), ids.clerk)).json().status, 'ignored');
        assert.equal(await countIdentityEvents(t, 'acme', 'clerk', CLERK_USER), 2);
      });

      it('refuses the Clerk payload signed with another integration’s secret, or tampered', async () => {
        const body = CLERK_CREATED.replace('example@example.org', 'attacker@example.org');
        const wrong = await postIdentity(t, body, signed(standardSecret, body), ids.clerk);
        const tampered = await postIdentity(t, body, signed(clerkSecret, CLERK_CREATED), ids.clerk);
        assert.deepEqual([wrong.statusCode, tampered.statusCode], [401, 401]);
      });
    });

    describe('WorkOS Directory Sync', () => {
      it('applies the real dsync.user.created payload signed with WorkOS-Signature', async () => {
        const res = await postIdentity(t, WORKOS_CREATED, workosHeaders(workosSecret, WORKOS_CREATED), ids.workos);
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { status: 'accepted', event_id: 'event_07FKJ843CVE8F7BXQSPFH0M53V' });
        assert.deepEqual(await t.services.subjects.get('acme', 'workos', WORKOS_USER), {
          state: 'active',
          email: 'lela.block@example.com',
          name: 'Lela Block',
          username: 'lela.block@example.com',
          last_event_at: '2021-06-25T19:07:33.155Z',
          linked_accounts: [],
        });
        assert.equal(
          (await postIdentity(t, WORKOS_CREATED, workosHeaders(workosSecret, WORKOS_CREATED), ids.workos)).json().status,
          'duplicate',
        );
      });

      it('deactivates on dsync.user.updated with state inactive, reactivates with active', async () => {
        const update = (id: string, at: string, state: string) => {
          const body = JSON.parse(WORKOS_CREATED);
          Object.assign(body, { event: 'dsync.user.updated', id, created_at: at });
          body.data.state = state;
          const text = JSON.stringify(body);
          return postIdentity(t, text, workosHeaders(workosSecret, text), ids.workos);
        };
        assert.equal((await update('event_upd_1', '2021-07-01T00:00:00.000Z', 'inactive')).json().status, 'accepted');
        assert.equal((await t.services.subjects.get('acme', 'workos', WORKOS_USER))?.state, 'deactivated');
        assert.equal((await update('event_upd_2', '2021-07-02T00:00:00.000Z', 'active')).json().status, 'accepted');
        assert.equal((await t.services.subjects.get('acme', 'workos', WORKOS_USER))?.state, 'active');
      });

      /** The real payload for another user and event, so that "nothing stored" is checkable. */
      const refused = WORKOS_CREATED.replace('event_07FKJ843CVE8F7BXQSPFH0M53V', 'event_refused').replace(
        WORKOS_USER,
        'directory_user_refused',
      );
      const json = { 'content-type': 'application/json' };
      const refusals: [string, () => { body: string; headers: Record<string, string> }][] = [
        [
          'a timestamp 6 minutes old',
          () => ({ body: refused, headers: workosHeaders(workosSecret, refused, minutesFromNow(-6)) }),
        ],
        [
          'a timestamp 6 minutes in the future',
          () => ({ body: refused, headers: workosHeaders(workosSecret, refused, minutesFromNow(6)) }),
        ],
        ['a flipped byte', () => ({ body: flipByte(refused), headers: workosHeaders(workosSecret, refused) })],
        ['another secret', () => ({ body: refused, headers: workosHeaders('not-the-secret', refused) })],
        ['no WorkOS-Signature', () => ({ body: refused, headers: json })],
        ['a malformed WorkOS-Signature', () => ({ body: refused, headers: { ...json, 'workos-signature': 'v1=zz, t=now' } })],
        ['Standard Webhooks headers instead', () => ({ body: refused, headers: signed(newStandardSecret(), refused) })],
      ];
      for (const [why, make] of refusals) {
        it(`answers 401 to a WorkOS delivery with ${why}, storing nothing`, async () => {
          const { body, headers } = make();
          const res = await postIdentity(t, body, headers, ids.workos);
          assert.equal(res.statusCode, 401, res.body);
          assert.deepEqual(res.json(), UNVERIFIED);
          assert.equal(await t.services.subjects.get('acme', 'workos', 'directory_user_refused'), null);
        });
      }

      it('answers 400 to an authentic WorkOS body that is not JSON', async () => {
        const body = '{"event": "dsync.user.created", ';
        const res = await postIdentity(t, body, workosHeaders(workosSecret, body), ids.workos);
        assert.equal(res.statusCode, 400, res.body);
      });
    });

    describe('auto_erase_on_deprovision', () => {
      const deliverErase = (body: string, messageId?: string) =>
        postIdentity(t, body, signed(eraseSecret, body, messageId), ids.erase);

      it('files one deletion request for a deleted subject, naming it in reason; a redelivery files none', async () => {
        await deliverErase(
          canonicalEvent('evt_e1', 'user.created', '2026-02-01T00:00:00Z', { user_id: 'u_e', email: 'erase@example.com' }),
        );
        const deleted = canonicalEvent('evt_e2', 'user.deleted', '2026-02-02T00:00:00Z', { user_id: 'u_e' });
        const res = await deliverErase(deleted, 'msg_e2');
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.equal(body.status, 'accepted');
        assert.equal(body.event_id, 'evt_e2');
        const rows = await requestsFor('erasing', 'u_e');
        assert.equal(rows.length, 1);
        const [row] = rows;
        assert.equal(row?.request_type, 'deletion');
        assert.equal(row?.subject_provider, 'okta');
        assert.match(body.reason ?? '', new RegExp(`deletion request ${row?.id}$`));
        for (const messageId of ['msg_e2', 'msg_e2_retry']) {
          const again = await deliverErase(deleted, messageId);
          assert.equal(again.statusCode, 200, again.body);
          assert.equal(again.json().status, 'duplicate');
        }
        assert.equal((await requestsFor('erasing', 'u_e')).length, 1, 'a redelivery filed a second request');
      });

      it('files nothing for a user.deleted in a workspace without the policy', async () => {
        const deleted = canonicalEvent('evt_n1', 'user.deleted', '2026-02-02T00:00:00Z', { user_id: 'u_n' });
        const res = await postIdentity(t, deleted, signed(standardSecret, deleted), ids.standard);
        assert.deepEqual(res.json(), { status: 'accepted', event_id: 'evt_n1' });
        assert.equal((await t.services.subjects.get('acme', 'okta', 'u_n'))?.state, 'deleted');
        assert.equal((await requestsFor('acme', 'u_n')).length, 0);
      });

      // A redelivery that arrives while the first is still filing the request finds the idempotency
      // claim in flight: it must answer 200 "duplicate", not fail (seen on PostgreSQL before the fix).
      it('files one request for 20 concurrent deliveries of the same user.deleted, answering 200 to each', async () => {
        const deleted = canonicalEvent('evt_c2', 'user.deleted', '2026-02-02T00:00:00Z', { user_id: 'u_c' });
        const headers = signed(eraseSecret, deleted, 'msg_c2');
        const results = await Promise.all(Array.from({ length: 20 }, () => postIdentity(t, deleted, headers, ids.erase)));
        assert.equal((await requestsFor('erasing', 'u_c')).length, 1, 'not exactly one deletion request');
        assert.deepEqual(
          results.map((r) => r.statusCode),
          Array(20).fill(200),
          results.map((r) => r.body).join('\n'),
        );
        assert.deepEqual(results.map((r) => r.json().status).sort(), ['accepted', ...Array(19).fill('duplicate')]);
      });
    });
  });
}
