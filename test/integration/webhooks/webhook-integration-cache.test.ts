/**
 * Delivery targets are cached (integration + decrypted secret): removing or re-creating an
 * integration must take effect on the very next delivery in the same process, by namespace and
 * by `?integration=` id.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { githubPullRequest } from '../../helpers/webhook-payloads.js';
import { sendGithub, storedCounts, UNVERIFIED } from '../../helpers/webhook-requests.js';

for (const dialect of dialects()) {
  describe(`webhook delivery targets after integration changes (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const body = JSON.stringify(githubPullRequest('opened'));
    const create = async (secret: string) =>
      (await t.services.integrations.create({ kind: 'github', workspace_id: 'acme', namespace: 'Codertocat', secret }, 'test'))
        .id;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('a removed integration verifies nothing more; a re-created one verifies only with its new secret', async () => {
      const firstId = await create('first-secret-5d1c');
      for (const query of ['', `?integration=${firstId}`]) {
        const accepted = await sendGithub(t.app, { body, secret: 'first-secret-5d1c', query });
        assert.equal(accepted.statusCode, 200, accepted.body);
        assert.equal(accepted.json().status, 'accepted');
      }
      const before = await storedCounts(t.services);

      assert.equal(await t.services.integrations.remove(firstId, 'test'), true);
      for (const query of ['', `?integration=${firstId}`]) {
        const refused = await sendGithub(t.app, { body, secret: 'first-secret-5d1c', query });
        assert.equal(refused.statusCode, 401, `after remove${query}`);
        assert.deepEqual(refused.json(), UNVERIFIED);
      }
      assert.deepEqual(await storedCounts(t.services), before, 'nothing stored after the remove');

      await create('second-secret-9a7e');
      const old = await sendGithub(t.app, { body, secret: 'first-secret-5d1c' });
      assert.equal(old.statusCode, 401, 'the old secret no longer verifies');
      const fresh = await sendGithub(t.app, { body, secret: 'second-secret-9a7e' });
      assert.equal(fresh.statusCode, 200, fresh.body);
      assert.equal(fresh.json().status, 'accepted');
    });
  });
}
