/** `POST /webhook/prhost`: GitHub signatures, routing, events, dedup and limits (PRODUCT.md §2.6). */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sign } from '@octokit/webhooks-methods';
import { accountPseudonym } from '../../../src/lib/keyed-hash.js';
import { verifyGithubSignature } from '../../../src/webhooks/github/verify.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { githubExample, githubPullRequest, githubSignature } from '../../helpers/webhook-payloads.js';
import { pseudonymKey, sendGithub, storedCounts, UNVERIFIED } from '../../helpers/webhook-requests.js';

const CHG_ID = /^chg_[0-9A-HJKMNP-TV-Z]{26}$/;

describe('GitHub signature check (src/webhooks/github/verify.ts)', () => {
  // GitHub Docs, "Validating webhook deliveries": the published test values.
  const secret = "It's a Secret to Everybody";
  const vector = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

  it("accepts GitHub's published test vector, as @octokit/webhooks-methods and node:crypto compute it", async () => {
    assert.equal(await sign(secret, 'Hello, World!'), vector);
    assert.equal(githubSignature(secret, 'Hello, World!'), vector);
    assert.equal(await verifyGithubSignature(secret, 'Hello, World!', vector), true);
  });

  it('refuses a wrong secret, another body, a missing or malformed signature, without throwing', async () => {
    assert.equal(await verifyGithubSignature('another secret', 'Hello, World!', vector), false);
    assert.equal(await verifyGithubSignature(secret, 'Hello, World?', vector), false);
    assert.equal(await verifyGithubSignature(secret, 'Hello, World!', undefined), false);
    assert.equal(await verifyGithubSignature(secret, 'Hello, World!', vector.slice('sha256='.length)), false);
    assert.equal(await verifyGithubSignature(secret, 'Hello, World!', vector.slice(0, -2)), false);
    assert.equal(await verifyGithubSignature(secret, 'Hello, World!', `sha256=${'z'.repeat(64)}`), false);
    assert.equal(await verifyGithubSignature(secret, 'Hello, World!', vector.toUpperCase()), false);
    assert.equal(await verifyGithubSignature('', 'Hello, World!', githubSignature('', 'Hello, World!')), false);
    assert.equal(await verifyGithubSignature(secret, '', githubSignature(secret, '')), false);
  });
});

for (const dialect of dialects()) {
  describe(`GitHub webhook (${dialect.name})`, () => {
    const SECRET = 'gh-secret-codertocat-7c51f0';
    const ORG_SECRET = 'gh-secret-octocoders-2b9e44';
    let database: TestDatabase;
    let t: TestApp;
    let integrationId: string;
    let gitlabIntegrationId: string;
    const opened = () => JSON.stringify(githubPullRequest('opened'));

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      integrationId = (
        await t.services.integrations.create(
          { kind: 'github', workspace_id: 'acme', namespace: 'Codertocat', secret: SECRET },
          'test',
        )
      ).id;
      await t.services.integrations.create(
        { kind: 'github', workspace_id: 'acme', namespace: 'octocoders', secret: ORG_SECRET },
        'test',
      );
      // Same namespace and secret, other kind: must never verify a GitHub delivery.
      gitlabIntegrationId = (
        await t.services.integrations.create(
          { kind: 'gitlab', workspace_id: 'acme', namespace: 'codertocat', secret: SECRET },
          'test',
        )
      ).id;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('records pull_request opened: accepted with the decision, one row with the expected columns', async () => {
      const res = await sendGithub(t.app, { body: opened(), secret: SECRET });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.status, 'accepted');
      assert.match(body.event_id, CHG_ID);
      assert.deepEqual(body.decision, {
        processing_allowed: true,
        reasons: ['author_pseudonymized'],
        excluded_paths: [],
        policy_version: 'd5.w0.r0',
      });
      const row = await t.services.database.db
        .selectFrom('change_events')
        .selectAll()
        .where('id', '=', body.event_id)
        .executeTakeFirstOrThrow();
      const key = await pseudonymKey(t.services);
      assert.deepEqual(
        { ...row, received_at: undefined, decision: JSON.parse(row.decision) },
        {
          id: body.event_id,
          workspace_id: 'acme',
          integration_id: integrationId,
          provider: 'github',
          repository: 'codertocat/hello-world',
          repository_display: 'Codertocat/Hello-World',
          number: 2,
          action: 'opened',
          head_sha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821',
          title: 'Update the README with new information.',
          author_account_id: null,
          author_login: null,
          author_pseudonym: accountPseudonym(key, 'github', '21031067'),
          decision: body.decision,
          policy_version: 'd5.w0.r0',
          received_at: undefined,
        },
      );
    });

    it('records pull_request synchronize', async () => {
      const res = await sendGithub(t.app, { body: JSON.stringify(githubPullRequest('synchronize')), secret: SECRET });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'accepted');
      const row = await t.services.database.db
        .selectFrom('change_events')
        .select(['action', 'repository'])
        .where('id', '=', res.json().event_id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { action: 'synchronize', repository: 'codertocat/hello-world' });
    });

    it('ignores other pull_request actions (closed) and other events (issues), storing nothing', async () => {
      const before = await storedCounts(t.services);
      const closed = await sendGithub(t.app, { body: JSON.stringify(githubPullRequest('closed')), secret: SECRET });
      assert.equal(closed.statusCode, 200, closed.body);
      assert.equal(closed.json().status, 'ignored');
      assert.equal(typeof closed.json().reason, 'string');
      assert.equal(closed.json().event_id, undefined);
      const issues = await sendGithub(t.app, {
        body: JSON.stringify(githubExample('issues', (e) => e.action === 'opened')),
        secret: SECRET,
        event: 'issues',
      });
      assert.equal(issues.statusCode, 200, issues.body);
      assert.equal(issues.json().status, 'ignored');
      assert.equal(typeof issues.json().reason, 'string');
      assert.deepEqual(await storedCounts(t.services), before);
    });

    it('answers ping, routed by organization.login when there is no repository', async () => {
      const ping = JSON.stringify(githubExample('ping', (e) => e.organization !== undefined && e.repository === undefined));
      const before = await storedCounts(t.services);
      const res = await sendGithub(t.app, { body: ping, secret: ORG_SECRET, event: 'ping' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { status: 'accepted', reason: 'ping' });
      const forged = await sendGithub(t.app, { body: ping, secret: SECRET, event: 'ping' });
      assert.equal(forged.statusCode, 401, 'a ping is verified like any delivery');
      assert.deepEqual(await storedCounts(t.services), before);
    });

    it('accepts a form-encoded payload= body signed over the form bytes', async () => {
      const json = JSON.stringify(githubPullRequest('opened'));
      const form = new URLSearchParams({ payload: json }).toString();
      assert.ok(form.includes('+'), 'spaces are form-encoded as +');
      const res = await sendGithub(t.app, { body: form, secret: SECRET, contentType: 'application/x-www-form-urlencoded' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'accepted');
      const row = await t.services.database.db
        .selectFrom('change_events')
        .select(['number', 'title'])
        .where('id', '=', res.json().event_id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { number: 2, title: 'Update the README with new information.' });
      const signedOverJson = await sendGithub(t.app, {
        body: form,
        signature: githubSignature(SECRET, json),
        secret: null,
        contentType: 'application/x-www-form-urlencoded',
      });
      assert.equal(signedOverJson.statusCode, 401, 'the signature covers the form bytes, not the JSON inside');
    });

    it('refuses a missing, wrong, malformed signature or a flipped body byte: 401, nothing stored', async () => {
      const text = opened();
      const good = githubSignature(SECRET, text);
      const flipped = text.replace('"number":2,', '"number":3,');
      assert.equal(flipped.length, text.length);
      assert.notEqual(flipped, text);
      const before = await storedCounts(t.services);
      const attempts = [
        { body: text, secret: null },
        { body: text, secret: 'not-the-secret' },
        { body: text, secret: null, signature: good.slice('sha256='.length) },
        { body: text, secret: null, signature: `sha1=${createHmac('sha1', SECRET).update(text).digest('hex')}` },
        { body: text, secret: null, signature: `sha256=${'g'.repeat(64)}` },
        { body: text, secret: null, signature: good.toUpperCase() },
        { body: text, secret: null, signature: '' },
        { body: flipped, secret: null, signature: good },
      ];
      for (const [i, attempt] of attempts.entries()) {
        const res = await sendGithub(t.app, attempt);
        assert.equal(res.statusCode, 401, `attempt ${i}: ${res.body}`);
        assert.deepEqual(res.json(), UNVERIFIED);
      }
      assert.deepEqual(await storedCounts(t.services), before);
    });

    it('refuses a delivery no GitHub integration can verify: unknown owner, unknown or non-GitHub ?integration=', async () => {
      const other = githubPullRequest('opened');
      other.repository.owner.login = 'someone-else';
      other.repository.full_name = 'someone-else/Hello-World';
      const before = await storedCounts(t.services);
      const unknownOwner = await sendGithub(t.app, { body: JSON.stringify(other), secret: SECRET });
      assert.equal(unknownOwner.statusCode, 401, unknownOwner.body);
      assert.deepEqual(unknownOwner.json(), UNVERIFIED);
      const unknownId = await sendGithub(t.app, {
        body: opened(),
        secret: SECRET,
        query: '?integration=int_01ZZZZZZZZZZZZZZZZZZZZZZZZ',
      });
      assert.equal(unknownId.statusCode, 401, unknownId.body);
      const gitlabId = await sendGithub(t.app, { body: opened(), secret: SECRET, query: `?integration=${gitlabIntegrationId}` });
      assert.equal(gitlabId.statusCode, 401, gitlabId.body);
      assert.deepEqual(await storedCounts(t.services), before);
    });

    it('answers 400 to an authentic body that is not JSON (routed by ?integration=), 401 without a route', async () => {
      const broken = '{"action":"opened","number":2,';
      const before = await storedCounts(t.services);
      const res = await sendGithub(t.app, { body: broken, secret: SECRET, query: `?integration=${integrationId}` });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(typeof res.json().detail, 'string');
      const unrouted = await sendGithub(t.app, { body: broken, secret: SECRET });
      assert.equal(unrouted.statusCode, 401, unrouted.body);
      assert.deepEqual(await storedCounts(t.services), before);
    });

    it('answers a redelivery with the first answer, status duplicate, storing nothing more', async () => {
      const delivery = 'a6a0fa1e-0a9e-11ef-8a5e-github-redelivery';
      const text = opened();
      const first = await sendGithub(t.app, { body: text, secret: SECRET, delivery });
      assert.equal(first.json().status, 'accepted');
      const before = await storedCounts(t.services);
      const again = await sendGithub(t.app, { body: text, secret: SECRET, delivery });
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual(again.json(), { ...first.json(), status: 'duplicate' });
      assert.deepEqual(await storedCounts(t.services), before);
    });

    it('records one change event for the same X-GitHub-Delivery sent 20 times at once', async () => {
      const delivery = 'c0ffee00-20x-concurrent-github';
      const text = opened();
      const before = await storedCounts(t.services);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => sendGithub(t.app, { body: text, secret: SECRET, delivery })),
      );
      assert.ok(
        answers.every((a) => a.statusCode === 200),
        answers.map((a) => a.statusCode).join(','),
      );
      const bodies = answers.map((a) => a.json());
      assert.equal(bodies.filter((b) => b.status === 'accepted').length, 1);
      assert.equal(bodies.filter((b) => b.status === 'duplicate').length, 19);
      assert.equal(new Set(bodies.map((b) => b.event_id)).size, 1, 'every answer names the same event');
      assert.deepEqual(await storedCounts(t.services), { events: before.events + 1, deliveries: before.deliveries + 1 });
    });

    it('answers 413 to a body over 1 MiB, storing nothing', async () => {
      const big = JSON.stringify({ ...githubPullRequest('opened'), padding: 'x'.repeat(1024 * 1024) });
      const before = await storedCounts(t.services);
      const res = await sendGithub(t.app, { body: big, secret: SECRET });
      assert.equal(res.statusCode, 413, res.body.slice(0, 200));
      assert.equal(typeof res.json().detail, 'string');
      assert.deepEqual(await storedCounts(t.services), before);
    });

    it('verifies the signature over the raw bytes, a leading UTF-8 BOM included', async () => {
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(opened())]);
      const res = await sendGithub(t.app, { body: bytes, secret: SECRET, query: `?integration=${integrationId}` });
      assert.notEqual(res.statusCode, 401, 'the delivery is authentic: 200 or 400, never 401');
    });

    it('answers 401, not 400, to an unsigned body that is not UTF-8', async () => {
      const res = await sendGithub(t.app, { body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), secret: null });
      assert.equal(res.statusCode, 401, res.body);
      assert.deepEqual(res.json(), UNVERIFIED);
    });

    it('answers 401 to a body that is not UTF-8, even signed over its bytes', async () => {
      const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
      const res = await sendGithub(t.app, { body: bytes, secret: SECRET, query: `?integration=${integrationId}` });
      assert.equal(res.statusCode, 401, res.body);
      assert.deepEqual(res.json(), UNVERIFIED);
    });
  });
}
