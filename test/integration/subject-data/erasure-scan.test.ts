/**
 * After a full deletion (scope `user`, GDPR Art. 17) no table the service owns holds the
 * subject's emails, name, username or code-host login (issue 4): every text value of every table
 * is scanned, on both databases; on SQLite also the raw bytes of the database file and its WAL
 * after a checkpoint, so neither free pages nor the WAL keep a copy.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { saveResult } from '../../../src/modules/privacy-requests/lifecycle/request-state.repository.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { findInFiles, findInTables, tableNames } from '../../helpers/storage-scan.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import {
  addSources,
  fileRequest,
  runHandler,
  sendIdentityEvent,
  sendPullRequest,
  type Sources,
  unique,
} from '../../helpers/subject-data.js';

for (const dialect of dialects()) {
  describe(`erasure leaves no copy (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let s: Sources;
    const r = unique();
    const person = {
      userId: `u-${r}`,
      oldEmail: `zq-erasure-old-${r}@example.test`,
      email: `zq-erasure-${r}@example.test`,
      name: `Zq Erasure ${r}`,
      username: `zq-username-${r}`,
      login: `zq-login-${r}`,
      ghId: randomInt(1e6, 1e9),
      title: `zq-title-${r}`,
    };
    const needles = [person.oldEmail, person.email, person.name, person.username, person.login, person.title];
    const sqlitePath = () => database.url.slice('sqlite:'.length);

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      s = await addSources(t, `ws-${r}`);
      await t.services.policies.putLayer(s.workspace, null, { author_identity: 'full' }, 'test');
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('holds the subject everywhere before the deletion (the scan sees what it looks for)', async () => {
      const linked = [{ provider: 'github', account_id: String(person.ghId), login: person.login }];
      await sendIdentityEvent(t, s, 'user.created', '2026-10-01T00:00:00.000Z', {
        user_id: person.userId,
        email: person.oldEmail,
        name: person.name,
        username: person.username,
        linked_accounts: linked,
      });
      await sendIdentityEvent(t, s, 'user.updated', '2026-10-02T00:00:00.000Z', { user_id: person.userId, email: person.email });
      const pr = await sendPullRequest(t, s, {
        repo: 'Core',
        number: 12,
        title: person.title,
        author: { id: person.ghId, login: person.login },
      });
      assert.equal(pr.status, 'accepted');
      const auth = await t.bearer(['privacy:write', 'privacy:read'], [s.workspace]);
      for (const [type, provider, id] of [
        ['access', 'okta', person.userId],
        ['export', 'github', String(person.ghId)],
      ] as const) {
        const requestId = await fileRequest(t, auth, {
          request_type: type,
          scope: ['user'],
          subject_provider: provider,
          subject_id: id,
          workspace_id: s.workspace,
        });
        const outcome = await runHandler(t, requestId);
        assert.equal(outcome.status, 'completed');
        if (outcome.status === 'completed')
          await saveResult(t.services.database.db, requestId, outcome.package, undefined, new Date().toISOString());
      }
      const inTables = await findInTables(t, needles);
      for (const needle of needles)
        assert.ok(
          inTables.some((f) => f.endsWith(`: ${needle}`)),
          `not found before deletion: ${needle}`,
        );
      assert.ok(inTables.some((f) => f.startsWith('request_results.package')));
      if (dialect.name === 'sqlite') {
        await t.services.database.checkpoint();
        assert.equal(findInFiles(sqlitePath(), needles).length, needles.length);
      }

      const deletion = await fileRequest(t, auth, {
        request_type: 'deletion',
        scope: ['user'],
        subject_provider: 'okta',
        subject_id: person.userId,
        workspace_id: s.workspace,
      });
      const outcome = await runHandler(t, deletion, { record: true });
      assert.equal(outcome.status, 'completed');
    });

    it('after a full deletion, no table holds the emails, name, username, login or title', async () => {
      assert.deepEqual(await findInTables(t, needles), []);
      assert.ok((await tableNames(t)).length >= 16);
    });

    it(
      'on SQLite, after a checkpoint neither the database file nor the WAL holds them',
      { skip: dialect.name !== 'sqlite' },
      async () => {
        await t.services.database.checkpoint();
        assert.deepEqual(findInFiles(sqlitePath(), needles), []);
      },
    );
  });
}
