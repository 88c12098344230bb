/**
 * No audit entry holds a subject's email, name, login, username or raw subject id (PRODUCT.md
 * §2.7: keyed pseudonyms only, so the trail survives erasure intact). After a full flow: an
 * identity webhook creating the subject with linked accounts, a GitHub webhook by its account,
 * access, export, correction and deletion requests filed for it, an erasure filed by the
 * identity webhook on deprovisioning, the worker processing them, operator approvals, a
 * rejection, an extension, a cancellation and a correction with a new email. Every
 * `audit_events` row and every page of the API's answer is scanned, on both databases.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { dialects } from '../../helpers/databases.js';
import { addSources, type Sources, sendIdentityEvent, sendPullRequest, unique } from '../../helpers/subject-data.js';
import { type Fixture, fileRequest, openFixture, requestRow, testWorker } from '../../helpers/worker.js';

for (const dialect of dialects()) {
  describe(`audit entries hold no subject data (${dialect.name})`, () => {
    let f: Fixture;
    let s: Sources;
    let approver: string;
    let admin: string;
    const r = unique();
    const person = {
      userId: `u-scan-${r}`,
      email: `zq-audit-${r}@example.test`,
      newEmail: `zq-audit-new-${r}@example.test`,
      name: `Zq Audit ${r}`,
      username: `zq-user-${r}`,
      login: `zq-login-${r}`,
      ghId: String(randomInt(1e8, 1e9)),
    };
    const needles = Object.values(person);
    const workspace = `scan-${r}`;
    const act = async (id: string, action: string, payload?: Record<string, unknown>, auth = f.auth) => {
      const res = await f.t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${id}/${action}`,
        headers: { authorization: auth },
        ...(payload === undefined ? {} : { payload }),
      });
      assert.equal(res.statusCode, 200, `${action}: ${res.body}`);
    };
    const drain = async () => {
      const worker = testWorker(f, REQUEST_HANDLERS);
      for (let i = 0; i < 20 && (await worker.runOnce()); i++);
    };
    const file = async (request_type: string, subject_provider: string, subject_id: string, scope = ['user']) =>
      (await fileRequest(f, { request_type, subject_provider, subject_id, scope, workspace_id: workspace })).id;

    before(async () => {
      f = await openFixture(dialect.create, { workspaces: [workspace] });
      const created = await f.t.services.tokens.create({
        name: 'approver',
        scopes: ['privacy:write', 'privacy:read'],
        workspaces: [workspace],
        actor: 'cli',
      });
      approver = `Bearer ${created.token}`;
      admin = await f.t.bearer(['admin'], ['*']);
      s = await addSources(f.t, workspace);
      await f.t.services.policies.putLayer(
        workspace,
        null,
        { author_identity: 'full', require_approval: true, auto_erase_on_deprovision: true },
        'cli',
      );
    });
    after(async () => f.close());

    it('runs the full flow (each step taking effect)', async () => {
      await sendIdentityEvent(f.t, s, 'user.created', '2026-05-01T00:00:00.000Z', {
        user_id: person.userId,
        email: person.email,
        name: person.name,
        username: person.username,
        linked_accounts: [{ provider: 'github', account_id: person.ghId, login: person.login }],
      });
      const pr = await sendPullRequest(f.t, s, {
        repo: 'core',
        number: 7,
        title: 'fix',
        author: { id: Number(person.ghId), login: person.login },
      });
      assert.equal(pr.status, 'accepted');

      const access = await file('access', 'okta', person.userId);
      const exported = await file('export', 'github', person.ghId);
      const correction = await file('correction', 'okta', person.userId, ['user.contact.email']);
      const rejected = await file('access', 'github', person.ghId);
      const canceled = await file('export', 'okta', person.userId);
      for (const id of [access, exported, correction]) await act(id, 'approve', undefined, approver);
      await act(rejected, 'reject', { reason: 'identity not verified' });
      await act(canceled, 'cancel', { reason: 'filed twice' });
      await drain();
      assert.equal((await requestRow(f, access)).status, 'completed');
      assert.equal((await requestRow(f, exported)).status, 'completed');
      assert.equal((await requestRow(f, correction)).status, 'action_required');
      await act(correction, 'corrections', { changes: { email: person.newEmail } });
      assert.equal((await requestRow(f, correction)).status, 'completed');

      // Deprovisioned at the identity provider: the webhook files an erasure (auto_erase_on_deprovision).
      await sendIdentityEvent(f.t, s, 'user.deleted', '2026-05-02T00:00:00.000Z', { user_id: person.userId });
      const auto = await f.t.services.database.db
        .selectFrom('privacy_requests')
        .select('id')
        .where('workspace_id', '=', workspace)
        .where('filed_by', 'like', 'integration:%')
        .executeTakeFirstOrThrow();
      const deletion = await file('deletion', 'github', person.ghId);
      await act(deletion, 'extend', { reason: 'many systems' });
      for (const id of [auto.id, deletion]) await act(id, 'approve', undefined, approver);
      await drain();
      for (const id of [auto.id, deletion]) assert.equal((await requestRow(f, id)).status, 'completed');
      // The raw ids are the requests' own (the scan below would see them in a row holding them).
      const subjects = await sql<{ subject_id: string }>`select subject_id from privacy_requests`.execute(
        f.t.services.database.db,
      );
      assert.deepEqual(new Set(subjects.rows.map((row) => row.subject_id)), new Set([person.userId, person.ghId]));
    });

    it('no audit_events row holds the subject’s email, name, login, username or raw id', async () => {
      const rows = (await sql<Record<string, unknown>>`select * from audit_events order by seq`.execute(f.t.services.database.db))
        .rows;
      const actions = new Set(rows.map((row) => row.action));
      for (const action of ['approve', 'reject', 'cancel', 'extend', 'corrections', 'completed', 'created'])
        assert.ok(actions.has(`privacy_request.${action}`), `the flow recorded privacy_request.${action}`);
      assert.ok(
        rows.some((row) => String(row.actor).startsWith('integration:')),
        'the webhook filed an erasure',
      );
      const found = rows.flatMap((row) =>
        Object.entries(row).flatMap(([column, value]) =>
          needles.filter((needle) => String(value).includes(needle)).map((needle) => `seq ${row.seq} ${column}: ${needle}`),
        ),
      );
      assert.deepEqual(found, []);
    });

    it('nor does any page of the API’s audit trail, which still verifies', async () => {
      let cursor = '';
      let entries = 0;
      for (let page = 0; page < 50; page++) {
        const res = await f.t.app.inject({
          method: 'GET',
          url: `/api/v1/audit-events?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
          headers: { authorization: admin },
        });
        assert.equal(res.statusCode, 200, res.body);
        for (const needle of needles) assert.ok(!res.body.includes(needle), `page ${page} holds ${needle}`);
        entries += res.json().items.length;
        cursor = res.json().next_cursor ?? '';
        if (!cursor) break;
      }
      const verified = await f.t.app.inject({
        method: 'GET',
        url: '/api/v1/audit-events/verify',
        headers: { authorization: admin },
      });
      assert.deepEqual(verified.json(), { intact: true, entries, first_broken_seq: null });
    });
  });
}
