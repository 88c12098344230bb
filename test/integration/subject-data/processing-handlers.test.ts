/**
 * Request handlers on a real database (PRODUCT.md §2.3, issue 4): access (GDPR Art. 15) and
 * export (Art. 20) packages of a subject and its linked identities, deletion (Art. 17) by scope
 * with its report, correction (Art. 16), and subjects the service has never seen. Data arrives
 * through the signed webhooks and requests through the API.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { findResult } from '../../../src/modules/privacy-requests/result.repository.js';
import { accountPseudonym } from '../../../src/lib/keyed-hash.js';
import { applyCorrections, NotCorrectableError } from '../../../src/workflows/subject-data/correction.js';
import type { ErasureReport } from '../../../src/modules/subject-data/erasure-report.fns.js';
import type { AccessPackage, ExportPackage } from '../../../src/modules/subject-data/package.types.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import {
  addSources,
  fileRequest,
  requestRow,
  runHandler,
  sendIdentityEvent,
  sendPullRequest,
  type Sources,
  unique,
} from '../../helpers/subject-data.js';
import { pseudonymKey } from '../../helpers/webhook-requests.js';

interface Person {
  userId: string;
  email: string;
  oldEmail: string;
  name: string;
  username: string;
  ghId: number;
  login: string;
}

function erased(report: ErasureReport, category: keyof ErasureReport['categories'], what: string): number | undefined {
  return report.categories[category]?.erased.find((e) => e.what.startsWith(what))?.count;
}

for (const dialect of dialects()) {
  describe(`request handlers (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let auth: string;
    let key: string;
    const db = () => t.services.database.db;

    /** A subject with an old and a current email, a name, a username and a linked GitHub account. */
    async function seedPerson(s: Sources): Promise<Person> {
      const r = unique();
      const p = {
        userId: `u-${r}`,
        email: `ada-${r}@example.test`,
        oldEmail: `old-${r}@example.test`,
        name: `Ada ${r}`,
        username: `ada-${r}`,
        ghId: randomInt(1e6, 1e9),
        login: `octo-${r}`,
      };
      const linked = [{ provider: 'github', account_id: String(p.ghId), login: p.login }];
      await sendIdentityEvent(t, s, 'user.created', '2026-10-01T00:00:00.000Z', {
        user_id: p.userId,
        email: p.oldEmail,
        name: p.name,
        username: p.username,
        linked_accounts: linked,
      });
      await sendIdentityEvent(t, s, 'user.updated', '2026-10-02T00:00:00.000Z', { user_id: p.userId, email: p.email });
      return p;
    }
    const prBy = (s: Sources, p: Pick<Person, 'ghId' | 'login'>, number: number, title: string) =>
      sendPullRequest(t, s, { repo: 'App', number, title, author: { id: p.ghId, login: p.login } });
    const file = (s: Sources, request_type: string, scope: string[], subject_provider: string, subject_id: string) =>
      fileRequest(t, auth, { request_type, scope, subject_provider, subject_id, workspace_id: s.workspace });
    const subjectRow = (s: Sources, p: Person) =>
      db()
        .selectFrom('subjects')
        .selectAll()
        .where('workspace_id', '=', s.workspace)
        .where('subject_id', '=', p.userId)
        .executeTakeFirst();
    /**
     * Fetches a completed request's package once (200): delivered, so a later deletion cuts it at
     * once; an answer not yet fetched is kept until then (answer-in-transit.test.ts).
     */
    const delivered = async (id: string) => {
      const res = await t.app.inject({ url: `/api/v1/privacy/requests/${id}/package`, headers: { authorization: auth } });
      assert.equal(res.statusCode, 200, res.body);
    };
    const changeEvent = (id: string) =>
      db().selectFrom('change_events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      auth = await t.bearer(['privacy:write', 'privacy:read'], ['*']);
      key = await pseudonymKey(t.services);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    describe('access and export', () => {
      let s: Sources;
      let p: Person;
      before(async () => {
        s = await addSources(t, `ws-${unique()}`);
        await t.services.policies.putLayer(s.workspace, null, { retention_days: 45 }, 'test');
        p = await seedPerson(s);
        await prBy(s, p, 1, 'Add the widget');
        await prBy(s, { ghId: p.ghId + 1, login: 'someone-else' }, 2, 'Not theirs');
      });

      it('access: profile, history, linked accounts and change events found by pseudonym, with Art. 15 information', async () => {
        const outcome = await runHandler(t, await file(s, 'access', ['user'], 'okta', p.userId));
        assert.equal(outcome.status, 'completed');
        const pkg = (outcome as { package: AccessPackage }).package;
        assert.equal(pkg.format, 'privacy-access/1');
        const account = pkg.data['user.account'];
        assert.deepEqual(account?.identity, { provider: 'okta', id: p.userId });
        assert.equal(account?.username, p.username);
        assert.deepEqual(account?.linked_accounts, [{ provider: 'github', account_id: String(p.ghId), login: p.login }]);
        assert.equal(account?.identity_events.length, 2);
        assert.deepEqual(pkg.data['user.contact.email'], { email: p.email, earlier_values: [p.oldEmail] });
        assert.deepEqual(pkg.data['user.name'], { name: p.name, earlier_values: [] });
        const events = pkg.data['user.content']?.change_events ?? [];
        // Issue 11: the repository as GitHub spelled it (`App`), not the lower-cased matching key.
        assert.deepEqual(
          events.map((e) => [e.repository, e.number, e.title, e.author_login]),
          [[`${s.owner}/App`, 1, 'Add the widget', null]],
        );
        const stored = await changeEvent(events[0]?.id ?? '');
        assert.deepEqual([stored.repository, stored.repository_display], [`${s.owner}/app`, `${s.owner}/App`]);
        assert.match(pkg.processing['user.content']?.retention ?? '', /^45 days/);
        assert.deepEqual(Object.keys(pkg.processing), ['user.account', 'user.contact.email', 'user.name', 'user.content']);
        assert.match(pkg.controller_note, /Art\. 15/);
      });

      it('export naming the linked GitHub account finds the same subject; only the categories in scope', async () => {
        const outcome = await runHandler(t, await file(s, 'export', ['user.contact', 'user.content'], 'github', String(p.ghId)));
        const pkg = (outcome as { package: ExportPackage }).package;
        assert.equal(pkg.format, 'privacy-export/1');
        assert.deepEqual(Object.keys(pkg.data), ['user.contact.email', 'user.content']);
        assert.equal(pkg.data['user.contact.email']?.email, p.email);
        assert.equal(pkg.data['user.content']?.change_events.length, 1);
        assert.equal('processing' in pkg, false);
        assert.match(pkg.controller_note, /Art\. 20/);
      });
    });

    describe('a subject the service has never seen', () => {
      let s: Sources;
      before(async () => {
        s = await addSources(t, `ws-${unique()}`);
      });

      it('access and export complete with every category in scope, empty', async () => {
        for (const type of ['access', 'export']) {
          const outcome = await runHandler(t, await file(s, type, ['user'], 'github', '424242'));
          assert.equal(outcome.status, 'completed');
          const pkg = (outcome as { package: ExportPackage }).package;
          assert.deepEqual(pkg.data['user.contact.email'], { email: null, earlier_values: [] });
          assert.deepEqual(pkg.data['user.content'], { change_events: [] });
          assert.equal(pkg.data['user.account']?.identity, null);
        }
      });

      it('deletion completes with zero counts and still tombstones the named account', async () => {
        const outcome = await runHandler(t, await file(s, 'deletion', ['user'], 'github', '424243'));
        const report = (outcome as { report: ErasureReport }).report;
        assert.ok(
          Object.values(report.categories).every((c) => c.erased.every((e) => e.count === 0)),
          JSON.stringify(report),
        );
        const tomb = await db().selectFrom('tombstones').selectAll().where('workspace_id', '=', s.workspace).execute();
        assert.deepEqual(
          tomb.map((r) => r.subject_hash),
          [accountPseudonym(key, 'github', '424243')],
        );
      });

      it('correction ends its own step at once with an empty report, saying nothing matched; applying values is refused', async () => {
        const id = await file(s, 'correction', ['user'], 'okta', 'nobody');
        // found: false: with no system finding anything either, the request waits for review (PRODUCT §2.13).
        assert.deepEqual(await runHandler(t, id), {
          status: 'completed',
          report: { format: 'correction-report/1', corrected: [], note: 'the service holds no profile of this subject' },
          found: false,
        });
        const request = await requestRow(t, id);
        await assert.rejects(
          db()
            .transaction()
            .execute((tx) => applyCorrections(tx, request, { name: 'X' })),
          (e: unknown) => e instanceof NotCorrectableError && e.reason === 'unknown subject',
        );
      });
    });

    it('deletion of user.name: the name leaves the profile, its events and earlier packages; the rest stays', async () => {
      const s = await addSources(t, `ws-${unique()}`);
      const p = await seedPerson(s);
      const pr = await prBy(s, p, 3, 'Keep me');
      const access = await file(s, 'access', ['user'], 'okta', p.userId);
      await runHandler(t, access, { record: true });
      await delivered(access);
      const outcome = await runHandler(t, await file(s, 'deletion', ['user.name'], 'okta', p.userId));
      const report = (outcome as { report: ErasureReport }).report;
      assert.deepEqual(Object.keys(report.categories), ['user.name']);
      assert.equal(erased(report, 'user.name', 'name in the subject profile'), 1);
      assert.equal(erased(report, 'user.name', 'name in stored identity events'), 1);
      assert.equal(erased(report, 'user.name', 'copies in earlier'), 1);
      const row = await subjectRow(s, p);
      assert.equal(row?.name, null);
      assert.equal(row?.email, p.email);
      const events = await db()
        .selectFrom('identity_events')
        .select('data')
        .where('subject_ref', '=', row?.id ?? '')
        .execute();
      assert.ok(events.every((e) => !e.data.includes(p.name)));
      const pkg = JSON.parse((await findResult(db(), access))?.package ?? 'null') as AccessPackage;
      assert.deepEqual(Object.keys(pkg.data), ['user.account', 'user.contact.email', 'user.content']);
      assert.equal((await changeEvent(pr.event_id)).title, 'Keep me');
      assert.equal((await db().selectFrom('tombstones').selectAll().where('workspace_id', '=', s.workspace).execute()).length, 0);
    });

    it('deletion of user.content: authored events become anonymous, decisions stay, later events by the account are stored without identity', async () => {
      const s = await addSources(t, `ws-${unique()}`);
      await t.services.policies.putLayer(s.workspace, null, { author_identity: 'full' }, 'test');
      const p = await seedPerson(s);
      const mine = await prBy(s, p, 4, 'Mine');
      const other = await prBy(s, { ghId: p.ghId + 1, login: 'other-dev' }, 5, 'Theirs');
      const before = await changeEvent(mine.event_id);
      const outcome = await runHandler(t, await file(s, 'deletion', ['user.content'], 'okta', p.userId));
      const report = (outcome as { report: ErasureReport }).report;
      assert.equal(erased(report, 'user.content', 'change event titles'), 1);
      assert.equal(erased(report, 'user.content', 'change event author'), 1);
      const after = await changeEvent(mine.event_id);
      assert.deepEqual(
        [after.title, after.author_account_id, after.author_login, after.author_pseudonym],
        [null, null, null, null],
      );
      assert.equal(after.decision, before.decision);
      assert.equal((await changeEvent(other.event_id)).author_login, 'other-dev');
      assert.equal((await subjectRow(s, p))?.email, p.email);
      const later = await prBy(s, p, 6, 'After erasure');
      assert.ok(later.decision.reasons.includes('author_erased'));
      assert.equal((await changeEvent(later.event_id)).author_login, null);
    });

    it('full deletion naming the GitHub account: nothing of the subject remains; report without personal data; a rerun is harmless', async () => {
      const s = await addSources(t, `ws-${unique()}`);
      await t.services.policies.putLayer(s.workspace, null, { author_identity: 'full' }, 'test');
      const p = await seedPerson(s);
      const bystander = await seedPerson(s);
      const pr = await prBy(s, p, 7, `Title by ${p.name}`);
      const access = await file(s, 'access', ['user'], 'okta', p.userId);
      await runHandler(t, access, { record: true });
      await delivered(access);
      const otherAccess = await file(s, 'access', ['user'], 'okta', bystander.userId);
      const deletion = await file(s, 'deletion', ['user'], 'github', String(p.ghId));
      const outcome = await runHandler(t, deletion);
      const report = (outcome as { report: ErasureReport }).report;
      const text = JSON.stringify(report);
      for (const value of [p.email, p.oldEmail, p.name, p.username, p.login, p.userId, String(p.ghId)])
        assert.equal(text.includes(value), false, value);
      assert.equal(erased(report, 'user.account', 'subject profile record'), 1);
      assert.equal(erased(report, 'user.account', 'identity events'), 2);
      assert.equal(erased(report, 'user.account', 'linked code-host accounts'), 1);
      assert.equal(erased(report, 'user.account', 'idempotency records'), 1);
      assert.equal(erased(report, 'user.contact.email', 'email address in stored identity events'), 2);
      assert.equal(await subjectRow(s, p), undefined);
      assert.ok(await subjectRow(s, bystander));
      const links = await db()
        .selectFrom('linked_identities')
        .select('account_id')
        .where('workspace_id', '=', s.workspace)
        .execute();
      assert.deepEqual(
        links.map((l) => l.account_id),
        [String(bystander.ghId)],
      );
      assert.equal((await findResult(db(), access))?.package, null);
      assert.equal((await changeEvent(pr.event_id)).title, null);
      const records = await db().selectFrom('idempotency_records').select('response_location').execute();
      const locations = records.map((r) => r.response_location);
      assert.ok(
        !locations.includes(`/api/v1/privacy/requests/${access}`) && !locations.includes(`/api/v1/privacy/requests/${deletion}`),
      );
      assert.ok(locations.includes(`/api/v1/privacy/requests/${otherAccess}`));
      const hashes = (
        await db().selectFrom('tombstones').select('subject_hash').where('workspace_id', '=', s.workspace).execute()
      ).map((r) => r.subject_hash);
      for (const [provider, id] of [
        ['github', String(p.ghId)],
        ['okta', p.userId],
      ] as const)
        assert.ok(hashes.includes(accountPseudonym(key, provider, id)));
      const again = (await runHandler(t, deletion)) as { report: ErasureReport };
      assert.equal(erased(again.report, 'user.account', 'subject profile record'), 0);
    });

    it('correction: waits for values, refuses bad ones by name, applies good ones, and a later identity event keeps them', async () => {
      const s = await addSources(t, `ws-${unique()}`);
      const p = await seedPerson(s);
      const id = await file(s, 'correction', ['user.contact', 'user.name'], 'okta', p.userId);
      assert.deepEqual(await runHandler(t, id, { record: true }), {
        status: 'action_required',
        reason: 'waiting for corrected values',
      });
      const post = (changes: Record<string, unknown>) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/privacy/requests/${id}/corrections`,
          headers: { authorization: auth },
          payload: { changes },
        });
      const secret = `fixed-${unique()}@example.test`;
      const refused = await post({ email: secret, username: 'not-in-scope', name: '' });
      assert.equal(refused.statusCode, 422, refused.body);
      assert.deepEqual(
        refused.json().detail.map((d: { loc: unknown[]; msg: string }) => [d.loc, d.msg]),
        [
          [['body', 'changes', 'username'], 'Value error, not in scope'],
          [['body', 'changes', 'name'], 'Value error, invalid value'],
        ],
      );
      assert.equal(refused.body.includes(secret), false, 'the offered values are not echoed');
      const ok = await post({ email: secret, name: 'Ada Corrected' });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().status, 'completed');
      assert.deepEqual(JSON.parse((await findResult(db(), id))?.report ?? 'null'), {
        format: 'correction-report/1',
        corrected: ['email', 'name'],
      });
      assert.deepEqual([(await subjectRow(s, p))?.email, (await subjectRow(s, p))?.name], [secret, 'Ada Corrected']);
      await sendIdentityEvent(t, s, 'user.updated', new Date().toISOString(), { user_id: p.userId, username: 'renamed' });
      const row = await subjectRow(s, p);
      assert.deepEqual([row?.email, row?.name, row?.username], [secret, 'Ada Corrected', 'renamed']);
    });
  });
}
