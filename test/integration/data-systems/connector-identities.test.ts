/**
 * The identities the service supplies to a database system for a subject (PRODUCT §2.14, §2.17):
 * the request's own identity under its dataset name (`email`, `phone_number`, `<provider>_id`), and from the subject the service knows (folded from identity
 * events) its e-mail, username, the IdP id and every linked account's id and login. And the
 * per-workspace masking key. On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectorMaskingKey, subjectIdentities } from '../../../src/workflows/data-systems/connector-task-input.js';
import { dialects } from '../../helpers/databases.js';
import { addSources, sendIdentityEvent } from '../../helpers/subject-data.js';
import { type Fixture, openFixture } from '../../helpers/worker.js';

for (const dialect of dialects()) {
  describe(`connector identities (${dialect.name})`, () => {
    let f: Fixture;
    before(async () => {
      f = await openFixture(dialect.create);
      const sources = await addSources(f.t, 'acme', 'okta');
      await sendIdentityEvent(f.t, sources, 'user.created', '2026-05-01T10:00:00.000Z', {
        user_id: 'u-ada',
        email: 'ada@example.com',
        username: 'ada',
        linked_accounts: [{ provider: 'github', account_id: '583231', login: 'ada-gh' }],
      });
    });
    after(() => f.close());

    it('a linked account leads to the whole known identity; an unknown one gives only itself', async () => {
      const db = f.t.services.database.db;
      const known = await subjectIdentities(db, { workspace_id: 'acme', subject_provider: 'github', subject_id: '583231' });
      assert.deepEqual(known, {
        github_id: ['583231'],
        email: ['ada@example.com'],
        username: ['ada', 'ada-gh'],
        okta_id: ['u-ada'],
      });
      const viaIdp = await subjectIdentities(db, { workspace_id: 'acme', subject_provider: 'okta', subject_id: 'u-ada' });
      assert.deepEqual(viaIdp.email, ['ada@example.com']);
      assert.deepEqual(viaIdp.github_id, ['583231']);
      const elsewhere = await subjectIdentities(db, { workspace_id: 'other', subject_provider: 'github', subject_id: '583231' });
      assert.deepEqual(elsewhere, { github_id: ['583231'] });
    });

    it("the request's own identity is always searched, under its dataset name (PRODUCT §2.17)", async () => {
      const db = f.t.services.database.db;
      // An address nobody here knows: `email` (trimmed; as given and lower-cased), never `email_id`.
      assert.deepEqual(
        await subjectIdentities(db, { workspace_id: 'acme', subject_provider: 'email', subject_id: '  Dana@Shop.Example ' }),
        { email: ['Dana@Shop.Example', 'dana@shop.example'] },
      );
      // A known address: the request's own values, then what the service knows of the subject.
      assert.deepEqual(
        await subjectIdentities(db, { workspace_id: 'acme', subject_provider: 'email', subject_id: 'ADA@example.com' }),
        {
          email: ['ADA@example.com', 'ada@example.com'],
          username: ['ada', 'ada-gh'],
          okta_id: ['u-ada'],
          github_id: ['583231'],
        },
      );
      assert.deepEqual(
        await subjectIdentities(db, { workspace_id: 'acme', subject_provider: 'phone', subject_id: '+44 (20) 7946-0958' }),
        { phone_number: ['+442079460958'] },
      );
      assert.deepEqual(await subjectIdentities(db, { workspace_id: 'acme', subject_provider: 'Clerk', subject_id: 'user_1' }), {
        clerk_id: ['user_1'],
      });
    });

    it('the hmac masking key is per workspace and stable', () => {
      const key = f.t.services.keys.pseudonymKey;
      assert.equal(connectorMaskingKey(key, 'acme'), connectorMaskingKey(key, 'acme'));
      assert.notEqual(connectorMaskingKey(key, 'acme'), connectorMaskingKey(key, 'beta'));
      assert.match(connectorMaskingKey(key, 'acme'), /^[0-9a-f]{64}$/);
    });
  });
}
