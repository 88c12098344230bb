/** `POST /webhook/mrhost`: GitLab tokens, group routing, merge-request actions and dedup (PRODUCT.md §2.6). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountPseudonym } from '../../../src/lib/keyed-hash.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { gitlabMergeRequest, type Payload } from '../../helpers/webhook-payloads.js';
import { pseudonymKey, sendGitlab, storedCounts, UNVERIFIED } from '../../helpers/webhook-requests.js';

/** The documented MR hook with `edit` applied, as the JSON text sent. */
function mr(edit: (p: Payload) => void = () => undefined): string {
  const payload = gitlabMergeRequest();
  edit(payload);
  return JSON.stringify(payload);
}

const withAction = (action: string) =>
  mr((p) => {
    p.object_attributes.action = action;
  });
const inProject = (path: string) =>
  mr((p) => {
    p.project.path_with_namespace = path;
  });

for (const dialect of dialects()) {
  describe(`GitLab webhook (${dialect.name})`, () => {
    const TOKEN = 'glpat-hook-token-gitlabhq-93ab';
    const GROUP_TOKEN = 'gl-hook-token-group-1d77';
    const SUB_TOKEN = 'gl-hook-token-group-sub-5e02';
    let database: TestDatabase;
    let t: TestApp;
    const ids = { gitlabhq: '', group: '', sub: '', github: '' };
    const eventRow = (id: string) =>
      t.services.database.db.selectFrom('change_events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      const create = async (namespace: string, workspace: string, secret: string) =>
        (await t.services.integrations.create({ kind: 'gitlab', workspace_id: workspace, namespace, secret }, 'test')).id;
      ids.gitlabhq = await create('gitlabhq', 'acme', TOKEN);
      ids.group = await create('group', 'ws-group', GROUP_TOKEN);
      ids.sub = await create('Group/Sub', 'ws-sub', SUB_TOKEN);
      // Same namespace and secret, other kind.
      ids.github = (
        await t.services.integrations.create(
          { kind: 'github', workspace_id: 'acme', namespace: 'gitlabhq', secret: TOKEN },
          'test',
        )
      ).id;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('records the documented open event: accepted, one row with the expected columns', async () => {
      const res = await sendGitlab(t.app, { body: mr(), token: TOKEN });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.status, 'accepted');
      assert.match(body.event_id, /^chg_[0-9A-HJKMNP-TV-Z]{26}$/);
      assert.deepEqual(body.decision, {
        processing_allowed: true,
        reasons: ['author_pseudonymized'],
        excluded_paths: [],
        policy_version: 'd5.w0.r0',
      });
      const row = await eventRow(body.event_id);
      const key = await pseudonymKey(t.services);
      assert.deepEqual(
        { ...row, received_at: undefined },
        {
          id: body.event_id,
          workspace_id: 'acme',
          integration_id: ids.gitlabhq,
          provider: 'gitlab',
          repository: 'gitlabhq/gitlab-test',
          repository_display: 'gitlabhq/gitlab-test',
          number: 1,
          action: 'open',
          head_sha: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
          title: 'MS-Viewport',
          author_account_id: null,
          author_login: null,
          author_pseudonym: accountPseudonym(key, 'gitlab', '51'),
          decision: JSON.stringify(body.decision),
          policy_version: 'd5.w0.r0',
          received_at: undefined,
        },
      );
    });

    it('records update', async () => {
      const res = await sendGitlab(t.app, { body: withAction('update'), token: TOKEN });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'accepted');
      assert.equal((await eventRow(res.json().event_id)).action, 'update');
    });

    it('ignores close and merge, and hooks other than Merge Request Hook, storing nothing', async () => {
      const before = await storedCounts(t.services);
      for (const action of ['close', 'merge']) {
        const res = await sendGitlab(t.app, { body: withAction(action), token: TOKEN });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().status, 'ignored', action);
        assert.equal(typeof res.json().reason, 'string');
      }
      const push = JSON.stringify({
        object_kind: 'push',
        event_name: 'push',
        ref: 'refs/heads/master',
        project: gitlabMergeRequest().project,
        commits: [],
      });
      const pushed = await sendGitlab(t.app, { body: push, token: TOKEN, event: 'Push Hook' });
      assert.equal(pushed.statusCode, 200, pushed.body);
      assert.equal(pushed.json().status, 'ignored');
      const mislabelled = await sendGitlab(t.app, { body: mr(), token: TOKEN, event: 'Note Hook' });
      assert.equal(mislabelled.json().status, 'ignored', 'the X-Gitlab-Event header decides');
      assert.deepEqual(await storedCounts(t.services), before);
    });

    it('refuses a wrong, missing or other integration’s token: 401, nothing stored', async () => {
      const before = await storedCounts(t.services);
      for (const token of ['wrong-token', null, '', GROUP_TOKEN, TOKEN.toUpperCase()]) {
        const res = await sendGitlab(t.app, { body: mr(), token });
        assert.equal(res.statusCode, 401, `${JSON.stringify(token)}: ${res.body}`);
        assert.deepEqual(res.json(), UNVERIFIED);
      }
      const unknownGroup = await sendGitlab(t.app, { body: inProject('nobody/project'), token: TOKEN });
      assert.equal(unknownGroup.statusCode, 401, unknownGroup.body);
      const unknownId = await sendGitlab(t.app, {
        body: mr(),
        token: TOKEN,
        query: '?integration=int_01ZZZZZZZZZZZZZZZZZZZZZZZZ',
      });
      assert.equal(unknownId.statusCode, 401, unknownId.body);
      const githubId = await sendGitlab(t.app, { body: mr(), token: TOKEN, query: `?integration=${ids.github}` });
      assert.equal(githubId.statusCode, 401, 'a GitHub integration never verifies a GitLab delivery');
      assert.deepEqual(await storedCounts(t.services), before);
    });

    it('routes a project to the matching group whose token verifies, group/sub before group', async () => {
      const sub = await sendGitlab(t.app, { body: inProject('Group/Sub/Proj'), token: SUB_TOKEN });
      assert.equal(sub.statusCode, 200, sub.body);
      const subRow = await eventRow(sub.json().event_id);
      assert.deepEqual([subRow.workspace_id, subRow.integration_id, subRow.repository], ['ws-sub', ids.sub, 'group/sub/proj']);
      // Issue 11: the parent group's hook (GitLab fires it for sub-group projects too) is no longer
      // lost to the more specific integration: its token verifies the parent's.
      const parentToken = await sendGitlab(t.app, { body: inProject('group/sub/proj'), token: GROUP_TOKEN });
      assert.equal(parentToken.statusCode, 200, parentToken.body);
      const parentRow = await eventRow(parentToken.json().event_id);
      assert.deepEqual([parentRow.workspace_id, parentRow.integration_id], ['ws-group', ids.group]);
      const before = await storedCounts(t.services);
      const wrong = await sendGitlab(t.app, { body: inProject('group/sub/proj'), token: 'gl-no-such-token-0000' });
      assert.equal(wrong.statusCode, 401);
      assert.deepEqual(await storedCounts(t.services), before);
      const other = await sendGitlab(t.app, { body: inProject('group/other/deep/proj'), token: GROUP_TOKEN });
      assert.equal(other.statusCode, 200, other.body);
      const otherRow = await eventRow(other.json().event_id);
      assert.deepEqual([otherRow.workspace_id, otherRow.integration_id], ['ws-group', ids.group]);
    });

    it('de-duplicates by Idempotency-Key, whatever the event UUID', async () => {
      const first = await sendGitlab(t.app, { body: mr(), token: TOKEN, idempotencyKey: 'gl-idem-0001' });
      assert.equal(first.json().status, 'accepted');
      const before = await storedCounts(t.services);
      const again = await sendGitlab(t.app, { body: mr(), token: TOKEN, idempotencyKey: 'gl-idem-0001' });
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual(again.json(), { ...first.json(), status: 'duplicate' });
      assert.deepEqual(await storedCounts(t.services), before);
    });

    it('without Idempotency-Key, de-duplicates by X-Gitlab-Event-UUID', async () => {
      const uuid = '6f1e5c3a-9d0b-4c55-8f4e-0e4a1b2c3d4e';
      const before = await storedCounts(t.services);
      const first = await sendGitlab(t.app, { body: mr(), token: TOKEN, uuid });
      const second = await sendGitlab(t.app, { body: mr(), token: TOKEN, uuid });
      assert.equal(first.json().status, 'accepted');
      assert.equal(second.json().status, 'duplicate');
      assert.equal(second.json().event_id, first.json().event_id);
      assert.equal((await storedCounts(t.services)).events, before.events + 1);
      const fresh = await sendGitlab(t.app, { body: mr(), token: TOKEN, uuid: 'f0e1d2c3-0000-4000-8000-000000000001' });
      assert.equal(fresh.json().status, 'accepted', 'another UUID is another delivery');
      assert.equal((await storedCounts(t.services)).events, before.events + 2);
    });

    it('records one change event for 20 identical deliveries at once', async () => {
      const uuid = '20202020-2020-4020-8020-202020202020';
      const body = mr();
      const before = await storedCounts(t.services);
      const answers = await Promise.all(Array.from({ length: 20 }, () => sendGitlab(t.app, { body, token: TOKEN, uuid })));
      assert.ok(
        answers.every((a) => a.statusCode === 200),
        answers.map((a) => a.statusCode).join(','),
      );
      const statuses = answers.map((a) => a.json().status as string);
      assert.equal(statuses.filter((s) => s === 'accepted').length, 1);
      assert.equal(statuses.filter((s) => s === 'duplicate').length, 19);
      assert.equal(new Set(answers.map((a) => a.json().event_id)).size, 1);
      assert.deepEqual(await storedCounts(t.services), { events: before.events + 1, deliveries: before.deliveries + 1 });
    });

    it('answers 400 to invalid JSON with a valid token routed by ?integration=, 401 without a route', async () => {
      const broken = '{"object_kind":"merge_request",';
      const before = await storedCounts(t.services);
      const res = await sendGitlab(t.app, { body: broken, token: TOKEN, query: `?integration=${ids.gitlabhq}` });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(typeof res.json().detail, 'string');
      const unrouted = await sendGitlab(t.app, { body: broken, token: TOKEN });
      assert.equal(unrouted.statusCode, 401, unrouted.body);
      const wrongToken = await sendGitlab(t.app, { body: broken, token: 'wrong-token', query: `?integration=${ids.gitlabhq}` });
      assert.equal(wrongToken.statusCode, 401, 'the token is checked before the body is judged');
      assert.deepEqual(await storedCounts(t.services), before);
    });

    it('answers 401, not 400, to a body that is not UTF-8 and has no token', async () => {
      const res = await sendGitlab(t.app, { body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), token: null });
      assert.equal(res.statusCode, 401, res.body);
      assert.deepEqual(res.json(), UNVERIFIED);
    });
  });
}
