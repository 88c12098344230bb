/**
 * Issue 11 item 3: webhook routing across tenants. Two workspaces may register the same GitHub
 * owner or overlapping GitLab groups; a delivery lands in the workspace whose integration's
 * secret verifies it, never in another one, and no answer tells one tenant what another holds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_ROUTING_CANDIDATES } from '../../../src/modules/integrations/integration.service.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { githubPullRequest, gitlabMergeRequest } from '../../helpers/webhook-payloads.js';
import { sendGithub, sendGitlab, storedCounts, UNVERIFIED } from '../../helpers/webhook-requests.js';

const GH_A = 'gh-secret-tenant-a-4f1c9e';
const GH_B = 'gh-secret-tenant-b-88d20a';
const GL_A = 'gl-token-tenant-a-0b7e31';
const GL_B = 'gl-token-tenant-b-c2a946';
const GL_B_PARENT = 'gl-token-tenant-b-parent-5d13';

/** The documented MR hook for project `path`. */
function mrIn(path: string): string {
  const payload = gitlabMergeRequest();
  payload.project.path_with_namespace = path;
  return JSON.stringify(payload);
}

/** GitHub's `pull_request` `opened` example (owner `Codertocat`). */
const prOpened = () => JSON.stringify(githubPullRequest('opened'));

for (const dialect of dialects()) {
  describe(`webhook routing across workspaces (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let adminA: string;
    let adminB: string;
    const ids: Record<string, string> = {};

    const register = (authorization: string, payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/integrations', headers: { authorization }, payload });
    const eventOf = async (res: LightMyRequestResponse) => {
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'accepted', res.body);
      return t.services.database.db
        .selectFrom('change_events')
        .select(['workspace_id', 'integration_id'])
        .where('id', '=', res.json().event_id)
        .executeTakeFirstOrThrow();
    };
    /** A registration answer that says nothing of workspace A. */
    const assertSilentAboutA = (res: LightMyRequestResponse) => {
      for (const secret of [GH_A, GL_A, ids.ghA ?? 'x', ids.glA ?? 'x', '"acme"'])
        assert.ok(!res.body.includes(secret), `answer mentions tenant A: ${res.body}`);
    };

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      adminA = await t.bearer(['admin'], ['acme']);
      adminB = await t.bearer(['admin'], ['beta']);
      const a1 = await register(adminA, { kind: 'github', workspace_id: 'acme', namespace: 'Codertocat', secret: GH_A });
      const a2 = await register(adminA, { kind: 'gitlab', workspace_id: 'acme', namespace: 'acme-group', secret: GL_A });
      assert.equal(a1.statusCode, 201, a1.body);
      assert.equal(a2.statusCode, 201, a2.body);
      ids.ghA = a1.json().id;
      ids.glA = a2.json().id;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it("tenant A's deliveries land in A before anyone else registers", async () => {
      assert.deepEqual(await eventOf(await sendGithub(t.app, { body: prOpened(), secret: GH_A })), {
        workspace_id: 'acme',
        integration_id: ids.ghA,
      });
      assert.deepEqual(await eventOf(await sendGitlab(t.app, { body: mrIn('acme-group/sub/api'), token: GL_A })), {
        workspace_id: 'acme',
        integration_id: ids.glA,
      });
    });

    it('tenant B registers the same owner and overlapping groups: 201, nothing said about A', async () => {
      const answers = [
        await register(adminB, { kind: 'github', workspace_id: 'beta', namespace: 'codertocat', secret: GH_B }),
        await register(adminB, { kind: 'gitlab', workspace_id: 'beta', namespace: 'ACME-group/sub', secret: GL_B }),
        await register(adminB, { kind: 'gitlab', workspace_id: 'beta', namespace: 'acme-group', secret: GL_B_PARENT }),
      ];
      for (const res of answers) {
        assert.equal(res.statusCode, 201, res.body);
        assertSilentAboutA(res);
      }
      const [ghB, glB, glBParent] = answers.map((r) => r.json().id as string);
      Object.assign(ids, { ghB, glB, glBParent });
      const listed = await t.app.inject({ method: 'GET', url: '/api/v1/integrations', headers: { authorization: adminB } });
      assert.deepEqual(
        (listed.json().items as { id: string }[]).map((i) => i.id),
        [ids.ghB, ids.glB, ids.glBParent],
      );
      assertSilentAboutA(listed);
      // A second one in the *same* workspace is still refused, without naming anyone.
      const again = await register(adminB, { kind: 'github', workspace_id: 'beta', namespace: 'CODERTOCAT', secret: GH_B });
      assert.equal(again.statusCode, 409, again.body);
      assert.deepEqual(again.json(), {
        detail: 'This workspace already has an integration of kind github for this namespace',
      });
    });

    it("after B registered, A's deliveries still land in A, and B's in B (both routes)", async () => {
      const before = await storedCounts(t.services);
      assert.deepEqual(await eventOf(await sendGithub(t.app, { body: prOpened(), secret: GH_A })), {
        workspace_id: 'acme',
        integration_id: ids.ghA,
      });
      assert.deepEqual(await eventOf(await sendGithub(t.app, { body: prOpened(), secret: GH_B })), {
        workspace_id: 'beta',
        integration_id: ids.ghB,
      });
      // B's sub-group integration is more specific, but A's token verifies only A's.
      for (const path of ['acme-group/sub/api', 'acme-group/other', 'Acme-Group/Sub/Deep/Project']) {
        assert.deepEqual(await eventOf(await sendGitlab(t.app, { body: mrIn(path), token: GL_A })), {
          workspace_id: 'acme',
          integration_id: ids.glA,
        });
      }
      assert.deepEqual(await eventOf(await sendGitlab(t.app, { body: mrIn('acme-group/sub/api'), token: GL_B })), {
        workspace_id: 'beta',
        integration_id: ids.glB,
      });
      assert.deepEqual(await eventOf(await sendGitlab(t.app, { body: mrIn('acme-group/sub/api'), token: GL_B_PARENT })), {
        workspace_id: 'beta',
        integration_id: ids.glBParent,
      });
      // B's sub-group token does not cover a project outside the sub-group.
      const outside = await sendGitlab(t.app, { body: mrIn('acme-group/other'), token: GL_B });
      assert.equal(outside.statusCode, 401);
      assert.deepEqual(outside.json(), UNVERIFIED);
      assert.deepEqual(await storedCounts(t.services), { events: before.events + 7, deliveries: before.deliveries + 7 });
    });

    it("naming another tenant's integration with ?integration= does not let a secret cross over", async () => {
      const before = await storedCounts(t.services);
      const crossed = [
        await sendGithub(t.app, { body: prOpened(), secret: GH_A, query: `?integration=${ids.ghB}` }),
        await sendGithub(t.app, { body: prOpened(), secret: GH_B, query: `?integration=${ids.ghA}` }),
        await sendGitlab(t.app, { body: mrIn('acme-group/sub/api'), token: GL_B, query: `?integration=${ids.glA}` }),
        await sendGithub(t.app, { body: prOpened(), secret: 'nobody-knows-this-1' }),
      ];
      for (const res of crossed) {
        assert.equal(res.statusCode, 401, res.body);
        assert.deepEqual(res.json(), UNVERIFIED);
      }
      assert.deepEqual(await storedCounts(t.services), before);
      assert.deepEqual(
        await eventOf(await sendGithub(t.app, { body: prOpened(), secret: GH_B, query: `?integration=${ids.ghB}` })),
        { workspace_id: 'beta', integration_id: ids.ghB },
      );
    });

    it('candidates are capped; later registrations never push out the established integration', async () => {
      const everywhere = await t.bearer(['admin'], ['*']);
      const extra: string[] = [];
      for (let i = 0; i < MAX_ROUTING_CANDIDATES + 1; i++) {
        const res = await register(everywhere, {
          kind: 'github',
          workspace_id: `squatter-${i}`,
          namespace: 'codertocat',
          secret: `gh-secret-squatter-${i}-aa`,
        });
        assert.equal(res.statusCode, 201, res.body);
        extra.push(res.json().id);
      }
      // A (the oldest) is still tried first, and answers.
      assert.deepEqual(await eventOf(await sendGithub(t.app, { body: prOpened(), secret: GH_A })), {
        workspace_id: 'acme',
        integration_id: ids.ghA,
      });
      // The newest is beyond the cap: it needs explicit routing.
      const newest = extra.at(-1) ?? '';
      const secret = `gh-secret-squatter-${MAX_ROUTING_CANDIDATES}-aa`;
      assert.equal((await sendGithub(t.app, { body: prOpened(), secret })).statusCode, 401);
      assert.deepEqual(await eventOf(await sendGithub(t.app, { body: prOpened(), secret, query: `?integration=${newest}` })), {
        workspace_id: `squatter-${MAX_ROUTING_CANDIDATES}`,
        integration_id: newest,
      });
    });
  });
}
