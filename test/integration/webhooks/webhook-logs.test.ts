/**
 * Webhook logging never carries a secret, a signature or token, or personal data from a payload
 * (PRODUCT.md §2.6: "logged without the payload"), at debug level, for rejected, refused and
 * accepted deliveries alike.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountPseudonym } from '../../../src/lib/keyed-hash.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { captureLogs } from '../../helpers/log-capture.js';
import { githubPullRequest, githubSignature, gitlabMergeRequest } from '../../helpers/webhook-payloads.js';
import { pseudonymKey, sendGithub, sendGitlab } from '../../helpers/webhook-requests.js';

for (const dialect of dialects()) {
  describe(`webhook logs (${dialect.name})`, () => {
    const GH_SECRET = 'gh-log-secret-a81f3c9e';
    const GH_WRONG = 'gh-log-wrong-secret-77d0';
    const GL_TOKEN = 'gl-log-token-5c2b8e1f';
    const GL_WRONG = 'gl-log-wrong-token-0b9d';
    const IDEMPOTENCY_KEY = 'gl-log-idem-key-3e7a';
    let database: TestDatabase;
    let t: TestApp;
    let githubId: string;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      githubId = (
        await t.services.integrations.create(
          { kind: 'github', workspace_id: 'acme', namespace: 'codertocat', secret: GH_SECRET },
          'test',
        )
      ).id;
      await t.services.integrations.create(
        { kind: 'gitlab', workspace_id: 'acme', namespace: 'gitlabhq', secret: GL_TOKEN },
        'test',
      );
      // Full identity, so the accepted deliveries really carry the author through the code.
      await t.services.policies.putLayer('acme', null, { author_identity: 'full' }, 'test');
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('logs rejected, refused and accepted deliveries without secrets, signatures or payload data', async () => {
      const pr = githubPullRequest('opened');
      pr.pull_request.user.email = 'coder.tocat@example.com';
      pr.pull_request.user.name = 'Coder Tocat';
      const ghText = JSON.stringify(pr);
      const ghGood = githubSignature(GH_SECRET, ghText);
      const ghForged = githubSignature(GH_WRONG, ghText);
      const ghBroken = '{"pull_request":{"user":{"login":"Codertocat","email":"coder.tocat@example.com"}},';
      const glText = JSON.stringify(gitlabMergeRequest());

      const capture = captureLogs(t.app, 'debug');
      try {
        const answers = [
          await sendGithub(t.app, { body: ghText, secret: null, signature: ghForged }),
          await sendGithub(t.app, { body: ghText, secret: null, signature: ghGood }),
          await sendGithub(t.app, { body: ghBroken, secret: GH_SECRET, query: `?integration=${githubId}` }),
          await sendGitlab(t.app, { body: glText, token: GL_WRONG }),
          await sendGitlab(t.app, { body: glText, token: GL_TOKEN, idempotencyKey: IDEMPOTENCY_KEY }),
        ];
        assert.deepEqual(
          answers.map((a) => a.statusCode),
          [401, 200, 400, 401, 200],
        );
        assert.equal(answers[1]?.json().status, 'accepted');
        assert.equal(answers[4]?.json().status, 'accepted');
      } finally {
        capture.restore();
      }

      // The capture works: something was logged, including both rejections, as JSON lines.
      const entries = capture.lines.map((line) => JSON.parse(line) as { msg?: string; source?: string; reason?: string });
      assert.ok(entries.length >= 10, `expected request logs, got ${entries.length} lines`);
      const rejections = entries.filter((e) => e.msg === 'webhook rejected');
      assert.deepEqual(
        rejections.map((e) => [e.source, e.reason]),
        [
          ['github', 'bad_signature'],
          ['gitlab', 'bad_signature'],
        ],
      );

      const key = await pseudonymKey(t.services);
      const text = capture.text();
      const lower = text.toLowerCase();
      const forbidden = {
        'GitHub secret': GH_SECRET,
        'wrong GitHub secret': GH_WRONG,
        'valid signature': ghGood.slice('sha256='.length),
        'forged signature': ghForged.slice('sha256='.length),
        'GitLab token': GL_TOKEN,
        'wrong GitLab token': GL_WRONG,
        'Idempotency-Key': IDEMPOTENCY_KEY,
        'GitHub login': 'codertocat',
        'GitHub email': 'coder.tocat@example.com',
        'GitHub name': 'coder tocat',
        'PR title': 'update the readme',
        'GitLab user email': 'admin@example.com',
        'GitLab user name': 'administrator',
        'GitLab username': '"root"',
        'commit author email': 'gitlabdev@dv6700',
        'commit author name': 'gitlab dev user',
        'assignee name': 'user1',
        'MR title': 'ms-viewport',
        'GitHub author pseudonym': accountPseudonym(key, 'github', '21031067'),
        'GitLab author pseudonym': accountPseudonym(key, 'gitlab', '51'),
      };
      for (const [what, value] of Object.entries(forbidden)) {
        assert.ok(!lower.includes(value.toLowerCase()), `the log contains the ${what}`);
      }
    });
  });
}
