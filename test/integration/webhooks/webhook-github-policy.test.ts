/**
 * GitHub change events under policy: the author as `author_identity` allows, tombstoned authors,
 * the recorded decision, and `GET /api/v1/change-events` (PRODUCT.md §2.4, §2.6).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toTimestamp } from '../../../src/lib/clock.js';
import { accountPseudonym } from '../../../src/lib/keyed-hash.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { githubPullRequest, type Payload } from '../../helpers/webhook-payloads.js';
import { pseudonymKey, sendGithub } from '../../helpers/webhook-requests.js';

const AUTHOR_ID = '21031067';

/** The opened example moved to `owner/name` (the owner routes it). */
function openedIn(fullName: string, edit: (p: Payload) => void = () => undefined): string {
  const payload = githubPullRequest('opened');
  const [owner] = fullName.split('/');
  payload.repository.full_name = fullName;
  payload.repository.name = fullName.split('/')[1];
  payload.repository.owner.login = owner;
  edit(payload);
  return JSON.stringify(payload);
}

for (const dialect of dialects()) {
  describe(`GitHub change events under policy (${dialect.name})`, () => {
    const SECRET = 'gh-policy-secret-1e6d2a';
    let database: TestDatabase;
    let t: TestApp;
    let key: string;
    const record = async (fullName: string, edit?: (p: Payload) => void) => {
      const res = await sendGithub(t.app, { body: openedIn(fullName, edit), secret: SECRET });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'accepted', res.body);
      const row = await t.services.database.db
        .selectFrom('change_events')
        .selectAll()
        .where('id', '=', res.json().event_id)
        .executeTakeFirstOrThrow();
      return { body: res.json(), row };
    };
    const authorColumns = (row: {
      author_account_id: string | null;
      author_login: string | null;
      author_pseudonym: string | null;
    }) => ({
      account_id: row.author_account_id,
      login: row.author_login,
      pseudonym: row.author_pseudonym,
    });

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      key = await pseudonymKey(t.services);
      await t.services.integrations.create(
        { kind: 'github', workspace_id: 'acme', namespace: 'codertocat', secret: SECRET },
        'test',
      );
      await t.services.integrations.create(
        { kind: 'github', workspace_id: 'globex', namespace: 'octo-org', secret: SECRET },
        'test',
      );
      // acme: the workspace allows full ids; repository layers can only make that more private.
      await t.services.policies.putLayer('acme', null, { author_identity: 'full' }, 'test');
      await t.services.policies.putLayer('acme', 'Codertocat/Pseudo-Repo', { author_identity: 'pseudonymous' }, 'test');
      await t.services.policies.putLayer('acme', 'Codertocat/Hidden-Repo', { author_identity: 'none' }, 'test');
      await t.services.policies.putLayer(
        'globex',
        null,
        { processing_allowed: false, excluded_paths: ['vendor/**', '*.lock'] },
        'test',
      );
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('author_identity full: account id, login and pseudonym; no author reason', async () => {
      const { body, row } = await record('Codertocat/Hello-World');
      assert.deepEqual(authorColumns(row), {
        account_id: AUTHOR_ID,
        login: 'Codertocat',
        pseudonym: accountPseudonym(key, 'github', AUTHOR_ID),
      });
      assert.deepEqual(body.decision, { processing_allowed: true, reasons: [], excluded_paths: [], policy_version: 'd5.w1.r0' });
    });

    it('author_identity pseudonymous (repository layer): the keyed pseudonym only, reason author_pseudonymized', async () => {
      const { body, row } = await record('Codertocat/Pseudo-Repo');
      assert.equal(row.repository, 'codertocat/pseudo-repo');
      assert.deepEqual(authorColumns(row), {
        account_id: null,
        login: null,
        pseudonym: accountPseudonym(key, 'github', AUTHOR_ID),
      });
      assert.deepEqual(body.decision.reasons, ['author_pseudonymized']);
      assert.equal(body.decision.policy_version, 'd5.w1.r1');
      assert.deepEqual(JSON.parse(row.decision), body.decision);
    });

    it('author_identity none (repository layer): no author at all, reason author_omitted; the API shows author null', async () => {
      const { body, row } = await record('Codertocat/Hidden-Repo');
      assert.deepEqual(authorColumns(row), { account_id: null, login: null, pseudonym: null });
      assert.deepEqual(body.decision.reasons, ['author_omitted']);
      const auth = await t.bearer(['privacy:read'], ['acme']);
      const list = await t.app.inject({
        method: 'GET',
        url: '/api/v1/change-events?workspace_id=acme&repository=codertocat/hidden-repo',
        headers: { authorization: auth },
      });
      assert.equal(list.statusCode, 200, list.body);
      assert.equal(list.json().items.length, 1);
      assert.equal(list.json().items[0].author, null);
    });

    it('a tombstoned author is stored without identity even under full, reason author_erased', async () => {
      const erasedId = '583231';
      const subjectHash = accountPseudonym(key, 'github', erasedId);
      await t.services.database.db
        .insertInto('tombstones')
        .values({ workspace_id: 'acme', subject_hash: subjectHash, created_at: toTimestamp(new Date()) })
        .execute();
      const { body, row } = await record('Codertocat/Hello-World', (p) => {
        p.pull_request.user.id = Number(erasedId);
        p.pull_request.user.login = 'erased-person';
      });
      assert.deepEqual(authorColumns(row), { account_id: null, login: null, pseudonym: null });
      assert.ok(body.decision.reasons.includes('author_erased'), JSON.stringify(body.decision));
      assert.ok(!body.decision.reasons.includes('author_pseudonymized'));
      const stored = JSON.stringify(await t.services.database.db.selectFrom('change_events').selectAll().execute());
      assert.ok(!stored.includes('erased-person') && !stored.includes(subjectHash), 'nothing about the erased author is stored');
    });

    it('records processing_allowed false (processing_disallowed) and the excluded paths of the workspace policy', async () => {
      const { body, row } = await record('octo-org/Hello-World');
      assert.equal(row.workspace_id, 'globex');
      assert.equal(body.decision.processing_allowed, false);
      assert.ok(body.decision.reasons.includes('processing_disallowed'), JSON.stringify(body.decision));
      assert.deepEqual(body.decision.excluded_paths, ['vendor/**', '*.lock']);
      assert.equal(body.decision.policy_version, 'd5.w1.r0');
      assert.equal(row.policy_version, 'd5.w1.r0');
      assert.deepEqual(JSON.parse(row.decision), body.decision);
    });

    it('lists a repository’s events newest first, with cursor pagination, filtered case-insensitively', async () => {
      const ids: string[] = [];
      for (const number of [10, 11, 12]) {
        const { body } = await record('Codertocat/Listed-Repo', (p) => {
          p.number = number;
        });
        ids.push(body.event_id);
      }
      await record('Codertocat/Other-Repo');
      const auth = await t.bearer(['privacy:read'], ['acme']);
      const url = '/api/v1/change-events?workspace_id=acme&repository=Codertocat%2FLISTED-repo&limit=2';
      const first = await t.app.inject({ method: 'GET', url, headers: { authorization: auth } });
      assert.equal(first.statusCode, 200, first.body);
      const page1 = first.json();
      assert.deepEqual(
        page1.items.map((e: { id: string }) => e.id),
        [ids[2], ids[1]],
      );
      assert.deepEqual(
        page1.items.map((e: { number: number }) => e.number),
        [12, 11],
      );
      assert.equal(typeof page1.next_cursor, 'string');
      const item = page1.items[0];
      assert.equal(item.provider, 'github');
      assert.equal(item.repository, 'codertocat/listed-repo');
      assert.equal(item.action, 'opened');
      assert.deepEqual(item.author, {
        account_id: AUTHOR_ID,
        login: 'Codertocat',
        pseudonym: accountPseudonym(key, 'github', AUTHOR_ID),
      });
      assert.deepEqual(item.decision, { processing_allowed: true, reasons: [], excluded_paths: [], policy_version: 'd5.w1.r0' });
      const second = await t.app.inject({
        method: 'GET',
        url: `${url}&cursor=${page1.next_cursor}`,
        headers: { authorization: auth },
      });
      assert.equal(second.statusCode, 200, second.body);
      assert.deepEqual(
        second.json().items.map((e: { id: string }) => e.id),
        [ids[0]],
      );
      assert.equal(second.json().next_cursor, null);
      const bad = await t.app.inject({ method: 'GET', url: `${url}&cursor=bm90LWEtY3Vyc29y`, headers: { authorization: auth } });
      assert.equal(bad.statusCode, 422, bad.body);
      assert.deepEqual(bad.json().detail[0].loc, ['query', 'cursor']);
    });

    it('lists only with privacy:read on the workspace', async () => {
      const url = '/api/v1/change-events?workspace_id=acme';
      const anonymous = await t.app.inject({ method: 'GET', url });
      assert.equal(anonymous.statusCode, 401);
      const wrongScope = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: await t.bearer(['policy:read', 'privacy:write'], ['acme']) },
      });
      assert.equal(wrongScope.statusCode, 403, wrongScope.body);
      const otherWorkspace = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: await t.bearer(['privacy:read'], ['globex']) },
      });
      assert.equal(otherWorkspace.statusCode, 403, otherWorkspace.body);
      const allowed = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: await t.bearer(['privacy:read'], ['acme']) },
      });
      assert.equal(allowed.statusCode, 200, allowed.body);
      const items = allowed.json().items as { workspace_id: string }[];
      assert.equal(items.length, 8, 'every event this file recorded but the globex one');
      assert.ok(
        items.every((e) => e.workspace_id === 'acme'),
        'no globex event leaks into acme',
      );
    });
  });
}
