/**
 * Access and export packages expire (issue 11 item 5; docs/decisions.md "Packages expire"):
 * `PACKAGE_RETENTION_DAYS` after completion, or earlier when a change event they copied passes
 * its repository's retention; an expired package answers 410, the request stays readable.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { createRetentionSweeper } from '../../../src/jobs/retention-sweeper.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { manualClock } from '../../helpers/requests.js';
import {
  addSources,
  fileRequest,
  runHandler,
  type Sources,
  sendIdentityEvent,
  sendPullRequest,
  unique,
} from '../../helpers/subject-data.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const START = '2026-03-02T10:00:00.000Z';
const at = (days: number) => new Date(new Date(START).getTime() + days * DAY_MS);

for (const dialect of dialects()) {
  describe(`package expiry (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let auth: string;
    const time = manualClock(START);
    const sweep = () =>
      createRetentionSweeper({
        database: t.services.database,
        policies: t.services.policies,
        clock: time.clock,
        log: pino({ level: 'silent' }),
        packageRetentionDays: 30,
      }).sweep(time.clock());
    const getPackage = (id: string) =>
      t.app.inject({ url: `/api/v1/privacy/requests/${id}/package`, headers: { authorization: auth } });

    /** A subject of `s` with one identity event (and, with a repository, one pull request there); a completed access request about it. */
    async function completedAccess(s: Sources, repo?: string): Promise<string> {
      const userId = `user_${unique()}`;
      const githubId = Math.floor(Math.random() * 1e9);
      await sendIdentityEvent(t, s, 'user.created', time.clock().toISOString(), {
        user_id: userId,
        email: `${userId}@example.com`,
        linked_accounts: [{ provider: 'github', account_id: String(githubId), login: `dev-${githubId}` }],
      });
      if (repo)
        await sendPullRequest(t, s, {
          repo,
          number: 7,
          title: 'Fix the parser',
          author: { id: githubId, login: `dev-${githubId}` },
        });
      time.set(new Date(time.clock().getTime() + DAY_MS).toISOString());
      const id = await fileRequest(t, auth, {
        request_type: 'access',
        scope: ['user'],
        subject_provider: s.idp,
        subject_id: userId,
        workspace_id: s.workspace,
      });
      await runHandler(t, id, { record: true, now: time.clock() });
      return id;
    }

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: time.clock });
      auth = await t.bearer(['privacy:write', 'privacy:read', 'policy:write'], ['*']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('deletes a package 30 days after completion; 410 after, the request still readable', async () => {
      time.set(START);
      const s = await addSources(t, `ws-${unique()}`);
      const id = await completedAccess(s);
      assert.equal((await getPackage(id)).statusCode, 200);
      assert.equal((await sweep()).packages, 0, 'nothing due yet');

      time.set(at(30).toISOString()); // 29 days after completion (at day 1)
      assert.equal((await sweep()).packages, 0);
      assert.equal((await getPackage(id)).statusCode, 200);

      time.set(at(31).toISOString()); // exactly 30 days after completion
      const res0 = await getPackage(id);
      assert.equal(res0.statusCode, 410, 'past its expiry, 410 even before a sweep deletes it');
      assert.equal((await sweep()).packages, 1);
      const res = await getPackage(id);
      assert.equal(res.statusCode, 410);
      assert.match(res.json().detail, /^This package expired at 2026-04-02T10:00:00\.000Z/);
      const row = await t.services.database.db
        .selectFrom('request_results')
        .selectAll()
        .where('request_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(row.package, null, 'the personal data is gone from the table');
      assert.equal(
        (await t.app.inject({ url: `/api/v1/privacy/requests/${id}`, headers: { authorization: auth } })).statusCode,
        200,
      );
    });

    it('deletes it earlier when a change event it copied passes its repository retention', async () => {
      time.set(START);
      const s = await addSources(t, `ws-${unique()}`);
      const repo = `svc-${unique()}`;
      const layer = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/policies/workspaces/${s.workspace}/repositories/${encodeURIComponent(`${s.owner}/${repo}`)}`,
        headers: { authorization: auth },
        payload: { retention_days: 5 },
      });
      assert.equal(layer.statusCode, 200, layer.body);
      const id = await completedAccess(s, repo); // the pull request arrives at day 0, the package at day 1
      const pkg = await getPackage(id);
      assert.equal(pkg.statusCode, 200);
      assert.equal(pkg.json().data['user.content'].change_events.length, 1, 'the package copied the event');

      time.set(at(4).toISOString());
      assert.equal((await sweep()).packages, 0);
      time.set(new Date(at(5).getTime() + 60 * 60 * 1000).toISOString());
      const counts = await sweep();
      assert.equal(counts.changeEvents, 1, 'the event itself expires now');
      assert.equal(counts.packages, 1, 'and so does the package that copied it');
      assert.equal((await getPackage(id)).statusCode, 410);
    });

    it('keeps the erased-package answer for a package a deletion removed', async () => {
      time.set(START);
      const s = await addSources(t, `ws-${unique()}`);
      const id = await completedAccess(s);
      await sweep(); // computes its expiry
      await t.services.database.db.updateTable('request_results').set({ package: null }).where('request_id', '=', id).execute();
      const res = await getPackage(id);
      assert.equal(res.statusCode, 410);
      assert.match(res.json().detail, /erased/);
    });
  });
}
