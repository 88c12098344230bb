/**
 * Forged, bit-flipped and replayed webhooks, checked against every table (the existing webhook
 * tests check one subject or the change events; these flip any bit, chosen by fast-check).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';
import { canonicalEvent, newStandardSecret, postIdentity, standardHeaders } from '../helpers/identity-webhooks.js';
import { manualClock } from '../helpers/requests.js';
import { githubPullRequest, githubSignature } from '../helpers/webhook-payloads.js';
import { sendGithub, sendGitlab } from '../helpers/webhook-requests.js';
import { tableCounts } from './table-counts.js';

const RUNS = { numRuns: 25 };
const flipBit = (bytes: Buffer, bit: number) => {
  const copy = Buffer.from(bytes);
  copy[bit >> 3] = (copy[bit >> 3] ?? 0) ^ (1 << (bit & 7));
  return copy;
};

for (const dialect of dialects()) {
  describe(`forged and replayed webhooks (${dialect.name})`, () => {
    const GH = 'gh-secret-hostile-1f2e3d';
    const GL = 'gl-token-hostile-9a8b7c6d';
    const ID = newStandardSecret();
    const time = manualClock('2026-11-21T10:00:00.000Z');
    let database: TestDatabase;
    let t: TestApp;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: time.clock, env: { RATE_LIMIT_PER_SOURCE: '0' } });
      await t.services.integrations.create({ kind: 'github', workspace_id: 'acme', namespace: 'Codertocat', secret: GH }, 'test');
      await t.services.integrations.create({ kind: 'gitlab', workspace_id: 'acme', namespace: 'gitlab-org', secret: GL }, 'test');
      await t.services.integrations.create(
        { kind: 'identity', workspace_id: 'acme', format: 'standard', subject_provider: 'okta', secret: ID },
        'test',
      );
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    async function unchanged(send: () => Promise<{ statusCode: number; body: string }>, what: string) {
      const before = await tableCounts(t.services);
      const res = await send();
      assert.equal(res.statusCode, 401, `${what}: ${res.body}`);
      assert.deepEqual(await tableCounts(t.services), before, what);
    }

    it('GitHub: any flipped bit of the body or of the signature is a 401 that stores nothing', async () => {
      const body = Buffer.from(JSON.stringify(githubPullRequest('opened')));
      const signature = githubSignature(GH, body);
      await fc.assert(
        fc.asyncProperty(fc.nat(body.length * 8 - 1), fc.nat(signature.length * 8 - 1), async (bodyBit, sigBit) => {
          await unchanged(
            () => sendGithub(t.app, { body: flipBit(body, bodyBit), secret: null, signature }),
            `body bit ${bodyBit}`,
          );
          const forged = flipBit(Buffer.from(signature, 'latin1'), sigBit).toString('latin1');
          await unchanged(() => sendGithub(t.app, { body, secret: null, signature: forged }), `signature bit ${sigBit}`);
        }),
        RUNS,
      );
    });

    it('GitLab: any flipped bit, a prefix or an extension of the token is a 401 that stores nothing', async () => {
      const body = JSON.stringify({
        object_kind: 'merge_request',
        project: { path_with_namespace: 'gitlab-org/x' },
        object_attributes: { action: 'open', iid: 1 },
      });
      await fc.assert(
        fc.asyncProperty(fc.nat(GL.length * 8 - 1), fc.nat(GL.length - 1), async (bit, cut) => {
          const flipped = flipBit(Buffer.from(GL, 'latin1'), bit).toString('latin1');
          if (/^[\t\x20-\x7e\x80-\xff]*$/.test(flipped))
            await unchanged(() => sendGitlab(t.app, { body, token: flipped }), `token bit ${bit}`);
          await unchanged(() => sendGitlab(t.app, { body, token: GL.slice(0, cut) || 'x' }), `token prefix ${cut}`);
          await unchanged(() => sendGitlab(t.app, { body, token: `${GL}${GL.slice(0, cut + 1)}` }), 'token extended');
        }),
        RUNS,
      );
    });

    it('Standard Webhooks: any flipped bit of the body, signature, id or timestamp is a 401 that stores nothing', async () => {
      time.set('2026-11-21T10:00:00.000Z');
      const body = canonicalEvent('evt_flip', 'user.created', '2026-11-21T09:59:00Z', { user_id: 'u_flip' });
      const headers = standardHeaders(ID, 'msg_flip', body, { at: time.clock() });
      const field = fc.constantFrom('body', 'webhook-signature', 'webhook-id', 'webhook-timestamp');
      await fc.assert(
        fc.asyncProperty(field, fc.nat(10_000), async (which, n) => {
          const original = which === 'body' ? body : (headers[which] ?? '');
          const flipped = flipBit(Buffer.from(original, 'latin1'), n % (original.length * 8)).toString('latin1');
          if (which !== 'body' && !/^[\x20-\x7e]*$/.test(flipped)) return;
          const payload = which === 'body' ? flipped : body;
          const sent = which === 'body' ? headers : { ...headers, [which]: flipped };
          await unchanged(() => postIdentity(t, payload, sent), `${which} bit ${n}`);
        }),
        RUNS,
      );
    });
  });
}
