/**
 * Issue 11 item 6 (webhook half): authentic deliveries whose payload breaks the source's schema
 * or the stored bounds (a `number`/iid of 2^31, 1.5 or 1e300, a repository over 500 characters,
 * a head sha over 64, NUL characters) answered 500 on PostgreSQL. Now: the same 400 with a
 * `{"detail"}` naming the field on both databases, and nothing stored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';
import { canonicalEvent, newStandardSecret, postIdentity, standardHeaders } from '../helpers/identity-webhooks.js';
import { githubPullRequest, gitlabMergeRequest, type Payload } from '../helpers/webhook-payloads.js';
import { sendGithub, sendGitlab } from '../helpers/webhook-requests.js';
import { tableCounts } from './table-counts.js';

const GH_SECRET = 'gh-secret-bounds-5a0f3e';
const GL_TOKEN = 'gl-token-bounds-8e61c2';
const NUL = '\u0000';

const github = (edit: (p: Payload) => void) => {
  const payload = githubPullRequest('opened');
  edit(payload);
  return JSON.stringify(payload);
};
const gitlab = (edit: (p: Payload) => void) => {
  const payload = gitlabMergeRequest();
  edit(payload);
  return JSON.stringify(payload);
};

const NUMBERS: [string, number][] = [
  ['2^31', 2 ** 31],
  ['1.5', 1.5],
  ['1e300', 1e300],
  ['0', 0],
];

for (const dialect of dialects()) {
  describe(`webhook payloads that break their schema (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let gitlabId: string;
    let identityId: string;
    const identitySecret = newStandardSecret();

    /** `response` is a 400 whose detail matches `detail`, and nothing at all was stored. */
    async function refused(send: () => Promise<LightMyRequestResponse>, status: number, detail: RegExp) {
      const before = await tableCounts(t.services);
      const res = await send();
      assert.equal(res.statusCode, status, res.body);
      assert.deepEqual(Object.keys(res.json()), ['detail']);
      const text: unknown = res.json().detail;
      assert.match(typeof text === 'string' ? text : JSON.stringify(text), detail);
      assert.deepEqual(await tableCounts(t.services), before, 'nothing stored');
    }

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      await t.services.integrations.create(
        { kind: 'github', workspace_id: 'acme', namespace: 'Codertocat', secret: GH_SECRET },
        'test',
      );
      gitlabId = (
        await t.services.integrations.create(
          { kind: 'gitlab', workspace_id: 'acme', namespace: 'gitlabhq', secret: GL_TOKEN },
          'test',
        )
      ).id;
      identityId = (
        await t.services.integrations.create(
          { kind: 'identity', workspace_id: 'acme', format: 'standard', subject_provider: 'sso', secret: identitySecret },
          'test',
        )
      ).id;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('the unedited payloads are accepted (the cases below differ only in the field named)', async () => {
      const gh = await sendGithub(t.app, { body: github(() => undefined), secret: GH_SECRET });
      assert.equal(gh.statusCode, 200, gh.body);
      const gl = await sendGitlab(t.app, { body: gitlab(() => undefined), token: GL_TOKEN });
      assert.equal(gl.statusCode, 200, gl.body);
    });

    for (const [label, number] of NUMBERS) {
      it(`GitHub number ${label}: 400, nothing stored`, async () => {
        const body = github((p) => {
          p.number = number;
          p.pull_request.number = number;
        });
        await refused(
          () => sendGithub(t.app, { body, secret: GH_SECRET }),
          400,
          /: number must be an integer from 1 to 2147483647$/,
        );
      });
      it(`GitLab iid ${label}: 400, nothing stored`, async () => {
        const body = gitlab((p) => {
          p.object_attributes.iid = number;
        });
        await refused(() => sendGitlab(t.app, { body, token: GL_TOKEN }), 400, /number must be an integer from 1 to 2147483647$/);
      });
    }

    it('a repository over 500 characters: 400, nothing stored', async () => {
      const long = `codertocat/${'r'.repeat(500)}`;
      await refused(
        () => sendGithub(t.app, { body: github((p) => (p.repository.full_name = long)), secret: GH_SECRET }),
        400,
        /^Webhook payload does not match the GitHub pull_request schema: repository must be at most 500 characters$/,
      );
      const glBody = gitlab((p) => (p.project.path_with_namespace = `gitlabhq/${'r'.repeat(500)}`));
      await refused(
        () => sendGitlab(t.app, { body: glBody, token: GL_TOKEN, query: `?integration=${gitlabId}` }),
        400,
        /^Webhook payload does not match the GitLab Merge Request Hook schema: repository must be at most 500 characters$/,
      );
      // Routed by its group `gitlabhq` (the over-long full path matches no integration).
      await refused(() => sendGitlab(t.app, { body: glBody, token: GL_TOKEN }), 400, /repository must be at most 500/);
    });

    it('a head sha over 64 characters (or not hex): 400, nothing stored', async () => {
      for (const sha of ['a'.repeat(65), 'not-a-sha']) {
        await refused(
          () => sendGithub(t.app, { body: github((p) => (p.pull_request.head.sha = sha)), secret: GH_SECRET }),
          400,
          /head sha must be at most 64 hexadecimal digits$/,
        );
        await refused(
          () => sendGitlab(t.app, { body: gitlab((p) => (p.object_attributes.last_commit.id = sha)), token: GL_TOKEN }),
          400,
          /head sha must be at most 64 hexadecimal digits$/,
        );
      }
    });

    it('NUL characters in any stored string: 400, nothing stored', async () => {
      const cases: [string, string, RegExp][] = [
        ['repository', github((p) => (p.repository.full_name = `Codertocat/a${NUL}b`)), /repository must not contain NUL/],
        ['title', github((p) => (p.pull_request.title = `t${NUL}`)), /title must not contain NUL/],
        ['login', github((p) => (p.pull_request.user.login = `c${NUL}`)), /author login must not contain NUL/],
        ['user id', github((p) => (p.pull_request.user.id = `1${NUL}`)), /author id must not contain NUL/],
      ];
      for (const [, body, detail] of cases) await refused(() => sendGithub(t.app, { body, secret: GH_SECRET }), 400, detail);
      await refused(
        () => sendGitlab(t.app, { body: gitlab((p) => (p.object_attributes.title = `MS${NUL}`)), token: GL_TOKEN }),
        400,
        /title must not contain NUL/,
      );
    });

    it('an author id of 1e300 or 1.5: 400 (the providers send integers)', async () => {
      for (const id of [1e300, 1.5]) {
        await refused(
          () => sendGithub(t.app, { body: github((p) => (p.pull_request.user.id = id)), secret: GH_SECRET }),
          400,
          /^Webhook payload is not valid JSON of the expected shape$/,
        );
        await refused(
          () => sendGitlab(t.app, { body: gitlab((p) => (p.object_attributes.author_id = id)), token: GL_TOKEN }),
          400,
          /^Webhook payload is not valid JSON of the expected shape$/,
        );
      }
    });

    it('a delivery id over 300 characters: 400, nothing stored', async () => {
      const body = github(() => undefined);
      await refused(
        () => sendGithub(t.app, { body, secret: GH_SECRET, delivery: 'd'.repeat(301) }),
        400,
        /^Webhook X-GitHub-Delivery header must be at most 300 characters$/,
      );
      await refused(
        () => sendGitlab(t.app, { body: gitlab(() => undefined), token: GL_TOKEN, idempotencyKey: 'k'.repeat(301) }),
        400,
        /header must be at most 300 characters$/,
      );
    });

    it('routing keys with NUL or over 500 characters (read before verification) are 4xx, not 500', async () => {
      const ownerNul = github((p) => (p.repository.owner.login = `Codertocat${NUL}`));
      await refused(() => sendGithub(t.app, { body: ownerNul, secret: GH_SECRET }), 401, /could not be verified/);
      const ownerLong = github((p) => (p.repository.owner.login = 'o'.repeat(600)));
      await refused(() => sendGithub(t.app, { body: ownerLong, secret: GH_SECRET }), 401, /could not be verified/);
      const pathNul = gitlab((p) => (p.project.path_with_namespace = `gitlabhq${NUL}/x`));
      await refused(() => sendGitlab(t.app, { body: pathNul, token: GL_TOKEN }), 401, /could not be verified/);
      // `?integration=` is validated as query input first (docs/validation.md): a NUL there is the 422 `string_nul`.
      for (const query of ['?integration=%00', '?integration=int_%00abc']) {
        await refused(() => sendGithub(t.app, { body: github(() => undefined), secret: GH_SECRET, query }), 422, /string_nul/);
        await refused(() => sendGitlab(t.app, { body: gitlab(() => undefined), token: GL_TOKEN, query }), 422, /string_nul/);
        const event = canonicalEvent('evt_q', 'user.created', new Date().toISOString(), { user_id: 'u_q' });
        await refused(
          () =>
            postIdentity(
              t,
              event,
              standardHeaders(identitySecret, 'msg_q', event),
              decodeURIComponent(query.slice('?integration='.length)),
            ),
          422,
          /string_nul/,
        );
      }
    });

    it('identity events: NUL in any field, or an oversized or non-integer account id: 400, nothing stored', async () => {
      const now = new Date().toISOString();
      const bodies = [
        canonicalEvent(`evt${NUL}1`, 'user.created', now, { user_id: 'u_1' }),
        canonicalEvent('evt_2', 'user.created', now, { user_id: `u${NUL}2` }),
        canonicalEvent('evt_3', 'user.created', now, { user_id: 'u_3', email: `a${NUL}@example.com` }),
        canonicalEvent('evt_4', 'user.created', now, { user_id: 'u_4', name: `N${NUL}` }),
        canonicalEvent('evt_5', 'user.created', now, { user_id: 'u_5', username: `n${NUL}` }),
        canonicalEvent('evt_6', 'user.created', now, {
          user_id: 'u_6',
          linked_accounts: [{ provider: 'github', account_id: '1', login: `l${NUL}` }],
        }),
        canonicalEvent('evt_7', 'user.created', now, {
          user_id: 'u_7',
          linked_accounts: [{ provider: 'github', account_id: 1e300 }],
        }),
        canonicalEvent('evt_8', 'user.created', now, { user_id: 'u_8', email: `${'e'.repeat(501)}@x` }),
        canonicalEvent('evt_9', 'user.created', now, { user_id: 'u'.repeat(301) }),
      ];
      for (const [i, body] of bodies.entries()) {
        await refused(
          () => postIdentity(t, body, standardHeaders(identitySecret, `msg_${i}`, body), identityId),
          400,
          /^Webhook payload is not valid JSON of the expected shape$/,
        );
      }
    });
  });
}
