/**
 * No "none" without a look (issue 32, PRODUCT §2.17 with §2.13): a database system none of whose
 * identity fields the request can fill ends `not_searchable` (never "holds no data"), and the
 * letter says so and which identity would let it be searched; an access for which nothing was
 * found (0 rows, `not_searchable`) waits for the identity review as a deletion does;
 * `confirm_no_data: false` skips the review but the letter still names the system not searched;
 * re-pointing a deletion re-opens every task for the new identity (new ids, announced again),
 * masks the new identity's rows, and the person is told only after. On the service's SQLite and
 * PostgreSQL stores, against PostgreSQL and MariaDB targets, with a webhook system beside.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDatabaseSystem, runUntilIdle, shopDataset } from '../../helpers/connector-flow.js';
import { createShopTarget, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';
import { addSystem, insertEndpoint, postResult, tasksOf } from '../../helpers/data-systems.js';
import { dialects } from '../../helpers/databases.js';
import { auditOf, type Fixture, fileRequest, openFixture, requestRow } from '../../helpers/worker.js';

const kinds = await targetKinds();
const SENTENCE =
  'Shop accounts could not be searched with what you gave us (your e-mail address): it finds people by your GitHub account id ' +
  'or your user name. We do not know whether it holds data about you.';

for (const dialect of dialects()) {
  for (const { kind, skip } of kinds) {
    describe(`not searched is not "none" (${dialect.name} store, ${kind} target)`, { skip }, () => {
      let f: Fixture;
      let target: ShopTarget;
      let admin: string;
      let tasksToken: string;
      const db = () => f.t.services.database.db;
      const byEmail = (request_type: string, subject_id: string, extra: Record<string, unknown> = {}) =>
        fileRequest(f, { request_type, scope: ['user'], subject_provider: 'email', subject_id, ...extra });
      const get = (url: string) => f.t.app.inject({ url, headers: { authorization: admin } });
      /** Answers the request's pending `crm` (webhook) task with 0 records, as a system that holds nothing would. */
      async function crmAnswers(requestId: string, body: Record<string, unknown>) {
        const crm = (await tasksOf(db(), requestId)).find((t) => t.system_key === 'crm');
        assert.equal(crm?.status, 'pending');
        const res = await postResult(f.t, tasksToken, crm!.id, body);
        assert.equal(res.statusCode, 200, res.body);
      }
      const mailsOf = (requestId: string, kind: string) =>
        db()
          .selectFrom('privacy_center_mails')
          .select('id')
          .where('request_id', '=', requestId)
          .where('kind', '=', kind)
          .execute();

      before(async () => {
        target = await createShopTarget(kind);
        f = await openFixture(dialect.create, { workspaces: ['acme', 'lenient'], env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
        admin = await f.t.bearer(['admin', 'privacy:read'], ['acme', 'lenient']);
        tasksToken = await f.t.bearer(['tasks:write'], ['acme']);
        await addDatabaseSystem(f, admin, {
          key: 'shop-db',
          name: 'Shop database',
          kind,
          url: target.url,
          dataset: shopDataset('shop'),
        });
        const accounts = shopDataset('shop_accounts', { withoutEmailIdentity: true });
        await addDatabaseSystem(f, admin, {
          key: 'shop-accounts',
          name: 'Shop accounts',
          kind,
          url: target.url,
          dataset: accounts,
        });
        await addSystem(f.t, admin, {
          key: 'crm',
          name: 'CRM',
          categories: ['user'],
          request_types: ['access', 'deletion'],
          endpoint_id: await insertEndpoint(db(), 'acme'),
        });
        await f.t.services.policies.putLayer('lenient', null, { confirm_no_data: false }, 'test');
        await addDatabaseSystem(f, admin, {
          workspace_id: 'lenient',
          key: 'shop-accounts',
          name: 'Shop accounts',
          kind,
          url: target.url,
          dataset: accounts,
        });
      });
      after(async () => {
        await f?.close();
        await target?.drop();
      });

      it('an access that found 0 rows waits for the identity review; the system that could not look is not_searchable', async () => {
        const filed = await byEmail('access', 'nobody@example.com');
        await runUntilIdle(f);
        await crmAnswers(filed.id, { outcome: 'completed', records: { user: 0 } });
        const row = await requestRow(f, filed.id);
        assert.deepEqual([row.status, row.status_reason], ['action_required', 'identity_unmatched']);
        const tasks = await tasksOf(db(), filed.id);
        const shop = tasks.find((t) => t.system_key === 'shop-db')!;
        assert.equal(shop.status, 'completed');
        assert.deepEqual((JSON.parse(shop.result!) as { collections: unknown }).collections, {
          customer: { rows: 0 },
          login: { rows: 0 },
          orders: { rows: 0 },
          preference: { rows: 0 },
          address: { rows: 0 },
          order_line: { rows: 0 },
        });
        const accounts = tasks.find((t) => t.system_key === 'shop-accounts')!;
        assert.equal(accounts.status, 'not_searchable');
        assert.deepEqual(JSON.parse(accounts.result!), {
          outcome: 'not_searchable',
          searched_by: ['github_id', 'username'],
          request_had: ['email'],
        });
        const resource = await get(`/api/v1/data-tasks/${accounts.id}`);
        assert.equal(resource.json().status, 'not_searchable');
        const listed = await get('/api/v1/data-tasks?workspace_id=acme&status=not_searchable');
        assert.ok(
          (listed.json().items as { id: string }[]).some((t) => t.id === accounts.id),
          listed.body,
        );
        const audit = (await auditOf(f, accounts.id)).find((e) => e.action === 'data_task.not_searchable');
        assert.deepEqual(audit?.details.searched_by, ['github_id', 'username']);
        assert.ok(!JSON.stringify(audit).includes('nobody@'), 'identity names only, never the value');
      });

      it('a letter names the system it could not search and what would let it be searched, never "holds no data"', async () => {
        const filed = await byEmail('access', 'ada@example.com');
        await runUntilIdle(f);
        await crmAnswers(filed.id, { outcome: 'completed', records: { user: 0 } });
        assert.equal((await requestRow(f, filed.id)).status, 'completed', 'the shop found her: no review');
        const pkg = (await get(`/api/v1/privacy/requests/${filed.id}/package`)).json();
        assert.equal(pkg.systems['shop-db'].customer[0].email, 'ada@example.com');
        assert.equal(pkg.systems['shop-accounts'], undefined, 'no data part for a system that did not look');
        assert.deepEqual(pkg.system_answers['shop-accounts'], {
          not_searchable: true,
          searched_by: ['github_id', 'username'],
          request_had: ['email'],
        });
        const letter = (await get(`/api/v1/privacy/requests/${filed.id}/package?format=html`)).body;
        assert.match(letter, /Systems we could not search/);
        assert.ok(letter.includes(SENTENCE), letter);
        const accountsSection = letter.slice(letter.indexOf('Systems we could not search'));
        assert.doesNotMatch(accountsSection.split('</section>')[0]!, /holds no data/);
        assert.match(letter, /CRM[^]*This system holds no data of yours/, 'the CRM said 0: that one may say it');
      });

      it('confirm_no_data: false completes without review, and the letter still names the system not searched', async () => {
        const filed = await byEmail('access', 'nobody@example.com', { workspace_id: 'lenient' });
        await runUntilIdle(f);
        const row = await requestRow(f, filed.id);
        assert.deepEqual([row.status, row.status_reason], ['completed', null]);
        const letter = (await get(`/api/v1/privacy/requests/${filed.id}/package?format=html`)).body;
        assert.ok(letter.includes(SENTENCE), letter);
      });

      it('re-pointed to an identity with rows: every task runs again for it, the rows are masked, "deleted" only after', async () => {
        const filed = await byEmail('deletion', 'nobdy@example.com', { notify_email: 'bob@example.com' });
        await runUntilIdle(f);
        await crmAnswers(filed.id, { outcome: 'completed', erased: {} });
        assert.deepEqual(
          [(await requestRow(f, filed.id)).status, (await requestRow(f, filed.id)).status_reason],
          ['action_required', 'identity_unmatched'],
        );
        const first = await tasksOf(db(), filed.id);
        // Bob is known here too (an identity event gave his profile the address): the re-run erases that profile.
        await f.t.services.subjects.applyIdentityEvent('acme', 'clerk', {
          id: 'evt_bob_1',
          type: 'user.created',
          occurred_at: '2026-05-01T09:00:00.000Z',
          data: { user_id: 'user_bob', email: 'bob@example.com', name: 'Bob Other' },
        });
        const repointed = await f.t.app.inject({
          method: 'POST',
          url: `/api/v1/privacy/requests/${filed.id}/identity`,
          headers: { authorization: f.auth },
          payload: { subject_provider: 'email', subject_id: 'bob@example.com', reason: 'typo in the address' },
        });
        assert.equal(repointed.statusCode, 200, repointed.body);
        assert.equal(repointed.json().status, 'queued');
        const reopened = await tasksOf(db(), filed.id);
        assert.deepEqual(
          reopened.map((t) => [t.system_key, t.status, t.result]),
          first.map((t) => [t.system_key, 'pending', null]),
          'every task is kept and opened again',
        );
        for (const [i, t] of reopened.entries()) assert.notEqual(t.id, first[i]!.id, 'a new id: an old answer cannot count');
        const late = await postResult(f.t, tasksToken, first.find((t) => t.system_key === 'crm')!.id, {
          outcome: 'not_applicable',
        });
        assert.equal(late.statusCode, 404, 'an answer to the old task is refused');
        const entry = (await auditOf(f, filed.id)).find((e) => e.action === 'privacy_request.identity_repointed');
        assert.equal(entry?.details.tasks_reopened, 3);
        const crm = reopened.find((t) => t.system_key === 'crm')!;
        const events = await db()
          .selectFrom('outbound_messages')
          .select('payload')
          .where('event_type', '=', 'data_task.created')
          .execute();
        const announced = events.map((e) => JSON.parse(e.payload)).find((p) => p.data.task.id === crm.id);
        assert.deepEqual(
          announced?.data.identities,
          { email: ['bob@example.com'], clerk_id: ['user_bob'] },
          'the CRM is told the new identity and what the service knows of it',
        );
        assert.deepEqual(await mailsOf(filed.id, 'completed'), [], 'nobody is told "deleted" yet');
        const [bobBefore] = await target.admin('SELECT email FROM customer WHERE id = 2');
        assert.equal(bobBefore?.email, 'bob@example.com');

        await runUntilIdle(f);
        assert.equal((await requestRow(f, filed.id)).status, 'processing', 'the CRM has not answered for the new identity yet');
        assert.deepEqual(await mailsOf(filed.id, 'completed'), []);
        await crmAnswers(filed.id, { outcome: 'completed', erased: { user: 1 } });
        const done = await requestRow(f, filed.id);
        assert.deepEqual([done.status, done.subject_id], ['completed', 'bob@example.com']);
        const [bob] = await target.admin('SELECT email, full_name FROM customer WHERE id = 2');
        assert.match(String(bob?.email), /@masked\.invalid$/);
        assert.equal(bob?.full_name, 'erased');
        const [ada] = await target.admin('SELECT email FROM customer WHERE id = 1');
        assert.equal(ada?.email, 'ada@example.com', 'only the new identity’s rows');
        const profile = await db().selectFrom('subjects').select('id').where('subject_id', '=', 'user_bob').execute();
        assert.deepEqual(profile, [], 'the service’s own erasure ran again, for the new identity');
        const report = (await get(`/api/v1/privacy/requests/${filed.id}/report`)).json();
        const parts = report.systems as { key: string; outcome: string; collections?: Record<string, unknown> }[];
        assert.deepEqual(parts.find((p) => p.key === 'shop-db')?.collections?.customer, { masked: 1, deleted: 0 });
        assert.equal(parts.find((p) => p.key === 'shop-accounts')?.outcome, 'not_searchable');
        assert.equal((await mailsOf(filed.id, 'completed')).length, 1, 'told once, after every system answered');
      });

      it('preview refuses a phone identity that is not E.164 (422 at subject_id)', async () => {
        const systems = (await get('/api/v1/data-systems?workspace_id=acme')).json().items as { id: string; key: string }[];
        const res = await f.t.app.inject({
          method: 'POST',
          url: `/api/v1/data-systems/${systems.find((s) => s.key === 'shop-db')!.id}/preview`,
          headers: { authorization: admin },
          payload: { subject_provider: 'phone', subject_id: '0171 234567', request_type: 'access' },
        });
        assert.equal(res.statusCode, 422, res.body);
        assert.deepEqual(res.json().detail, [
          { type: 'value_error', loc: ['body', 'subject_id'], msg: 'value is not a valid phone number', input: '0171 234567' },
        ]);
      });
    });
  }
}
