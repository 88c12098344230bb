/**
 * Identities and unmatched subjects (PRODUCT §2.13, issue 22 item 2): a request by e-mail address
 * finds the subject whose identity events gave it that address (any case, trimmed); a request
 * for an identity nothing here or in any data system matched does not complete with "we hold
 * nothing" but waits in `action_required` / `identity_unmatched`, until an operator re-points it
 * (`…/identity`: it runs again) or confirms the no-data answer (`…/confirm-no-data`), both
 * audited with the reason and without the identity; `confirm_no_data: false` skips the review.
 * (Before issue 22, a typo such as `gihub` completed at once with an empty package.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { dialects } from '../../helpers/databases.js';
import { addSystem, postResult, tasksOf } from '../../helpers/data-systems.js';
import { addSources, sendIdentityEvent, type Sources } from '../../helpers/subject-data.js';
import { auditOf, type Fixture, fileRequest, openFixture, requestRow, testWorker } from '../../helpers/worker.js';

const USER = 'u-ada-4711';
const EMAIL = 'Ada.Lovelace@Example.test';

for (const dialect of dialects()) {
  describe(`unmatched identities (${dialect.name})`, () => {
    let f: Fixture;
    let s: Sources;
    let admin: string;
    let tasks: string;

    before(async () => {
      f = await openFixture(() => dialect.create(), { workspaces: ['acme', 'lenient', 'systems'] });
      admin = await f.t.bearer(['admin'], ['acme', 'lenient', 'systems']);
      tasks = await f.t.bearer(['tasks:write', 'privacy:read'], ['systems']);
      s = await addSources(f.t, 'acme');
      await sendIdentityEvent(f.t, s, 'user.created', '2026-05-01T00:00:00.000Z', { user_id: USER, email: EMAIL, name: 'Ada' });
      await f.t.services.policies.putLayer('lenient', null, { confirm_no_data: false }, 'test');
      await addSystem(f.t, admin, { workspace_id: 'systems', key: 'zendesk', name: 'Zendesk', request_types: ['access'] });
    });
    after(() => f.close());

    const drain = async () => {
      const worker = testWorker(f, REQUEST_HANDLERS);
      while (await worker.runOnce());
    };
    const call = (id: string, action: string, payload: Record<string, unknown>) =>
      f.t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${id}/${action}`,
        headers: { authorization: f.auth },
        payload,
      });
    const pkg = (id: string) =>
      f.t.app.inject({ url: `/api/v1/privacy/requests/${id}/package`, headers: { authorization: f.auth } });
    const statusOf = async (id: string) => {
      const row = await requestRow(f, id);
      return [row.status, row.status_reason];
    };

    it('a request by e-mail address (other case, spaces) finds the subject and its data', async () => {
      const filed = await fileRequest(f, { subject_provider: 'email', subject_id: `  ${EMAIL.toUpperCase()} ` });
      await drain();
      assert.deepEqual(await statusOf(filed.id), ['completed', null]);
      const body = (await pkg(filed.id)).json();
      assert.deepEqual(body.data['user.account'].identity, { provider: 'okta', id: USER });
      assert.equal(body.data['user.contact.email'].email, EMAIL);
    });

    it('a typo waits as identity_unmatched (no "we hold nothing"); re-pointed, it runs again and answers', async () => {
      const typo = await fileRequest(f, { subject_provider: 'gihub', subject_id: USER });
      await drain();
      assert.deepEqual(await statusOf(typo.id), ['action_required', 'identity_unmatched']);
      assert.equal((await requestRow(f, typo.id)).completed_at, null);
      assert.equal((await pkg(typo.id)).statusCode, 409, 'no package while it waits');

      const repointed = await call(typo.id, 'identity', {
        subject_provider: 'okta',
        subject_id: USER,
        reason: 'provider misspelt at intake',
      });
      assert.equal(repointed.statusCode, 200, repointed.body);
      assert.deepEqual(
        [repointed.json().status, repointed.json().subject_provider, repointed.json().subject_id],
        ['queued', 'okta', USER],
      );
      const entry = (await auditOf(f, typo.id)).find((e) => e.action === 'privacy_request.identity_repointed');
      assert.deepEqual(entry?.details, {
        from: 'action_required',
        to: 'queued',
        reason: 'provider misspelt at intake',
        tasks_reopened: 0,
      });
      assert.ok(!JSON.stringify(entry).includes(USER), 'the audit entry names no identity');
      await drain();
      assert.deepEqual(await statusOf(typo.id), ['completed', null]);
      assert.deepEqual((await pkg(typo.id)).json().data['user.account'].identity, { provider: 'okta', id: USER });
    });

    it('an unknown deletion waits; confirmed, it completes with the no-data confirmation, audited', async () => {
      const unknown = await fileRequest(f, { request_type: 'deletion', subject_provider: 'github', subject_id: '99999999' });
      await drain();
      assert.deepEqual(await statusOf(unknown.id), ['action_required', 'identity_unmatched']);
      // PRODUCT §2.21: the sentence the person will get, readable (privacy:read) before anyone confirms.
      const reader = await f.t.bearer(['privacy:read'], ['acme']);
      const preview = await f.t.app.inject({
        url: `/api/v1/privacy/requests/${unknown.id}/confirm-no-data`,
        headers: { authorization: reader },
      });
      assert.equal(preview.statusCode, 200, preview.body);
      const { statement } = preview.json() as { statement: string };
      assert.match(statement, /we do not process any personal data about you/);
      assert.deepEqual(await statusOf(unknown.id), ['action_required', 'identity_unmatched'], 'reading changes nothing');
      const outsider = await f.t.bearer(['privacy:read'], ['lenient']);
      const hidden = await f.t.app.inject({
        url: `/api/v1/privacy/requests/${unknown.id}/confirm-no-data`,
        headers: { authorization: outsider },
      });
      assert.equal(hidden.statusCode, 404, 'outside its workspaces a request does not exist');
      const again = await call(unknown.id, 'confirm-no-data', { reason: '' });
      assert.equal(again.statusCode, 422, 'a reason is required');
      const res = await call(unknown.id, 'confirm-no-data', { reason: 'searched CRM and mail by hand: nothing' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'completed');
      assert.notEqual(res.json().completed_at, null);
      const report = await f.t.app.inject({
        url: `/api/v1/privacy/requests/${unknown.id}/report`,
        headers: { authorization: f.auth },
      });
      assert.equal(report.statusCode, 200, report.body);
      assert.equal(report.json().no_data_confirmation.statement, statement, 'the person gets the sentence shown before');
      const entry = (await auditOf(f, unknown.id)).find((e) => e.action === 'privacy_request.no_data_confirmed');
      assert.deepEqual(entry?.details, {
        from: 'action_required',
        to: 'completed',
        reason: 'searched CRM and mail by hand: nothing',
      });
      // Final now: neither review applies any more.
      assert.equal((await call(unknown.id, 'confirm-no-data', { reason: 'again' })).statusCode, 409);
      const late = await f.t.app.inject({
        url: `/api/v1/privacy/requests/${unknown.id}/confirm-no-data`,
        headers: { authorization: f.auth },
      });
      assert.equal(late.statusCode, 409, late.body);
      assert.equal((await call(unknown.id, 'identity', { subject_provider: 'x', subject_id: 'y', reason: 'r' })).statusCode, 409);
    });

    it('an access request that is not waiting for review refuses both (409), with a plain detail', async () => {
      const filed = await fileRequest(f, { subject_provider: 'okta', subject_id: USER });
      const res = await call(filed.id, 'identity', { subject_provider: 'okta', subject_id: USER, reason: 'r' });
      assert.equal(res.statusCode, 409);
      assert.match(res.json().detail, /does not wait for an identity review \(status queued\)/);
      assert.equal((await call(filed.id, 'confirm-no-data', { reason: 'r' })).statusCode, 409);
      const missing = await call(filed.id, 'identity', { subject_provider: 'okta', reason: 'r' });
      assert.equal(missing.statusCode, 422);
      assert.deepEqual(missing.json().detail[0].loc, ['body', 'subject_id']);
      await drain();
    });

    it('with confirm_no_data: false an unknown identity completes without review', async () => {
      const filed = await fileRequest(f, { workspace_id: 'lenient', subject_provider: 'gihub', subject_id: '583231' });
      await drain();
      assert.deepEqual(await statusOf(filed.id), ['completed', null]);
    });

    it('a system that found something decides: records > 0 completes; all-zero counts wait for review', async () => {
      const found = await fileRequest(f, {
        workspace_id: 'systems',
        subject_provider: 'email',
        subject_id: 'walk-in@example.test',
      });
      const none = await fileRequest(f, {
        workspace_id: 'systems',
        subject_provider: 'email',
        subject_id: 'nobody@example.test',
      });
      await drain();
      const db = f.t.services.database.db;
      const [foundTask] = await tasksOf(db, found.id);
      const [noneTask] = await tasksOf(db, none.id);
      const r1 = await postResult(f.t, tasks, foundTask!.id, {
        outcome: 'completed',
        records: { user: 3 },
        note: '3 tickets found',
      });
      assert.equal(r1.statusCode, 200, r1.body);
      const r2 = await postResult(f.t, tasks, noneTask!.id, { outcome: 'completed', records: { user: 0 } });
      assert.equal(r2.statusCode, 200, r2.body);
      assert.deepEqual(await statusOf(found.id), ['completed', null]);
      assert.deepEqual(await statusOf(none.id), ['action_required', 'identity_unmatched']);
      // Re-pointed, its task (which answered for the wrong identity) is opened again, under a new id, and the system asked again.
      const res = await call(none.id, 'identity', {
        subject_provider: 'email',
        subject_id: EMAIL,
        reason: 'typo in the address',
      });
      assert.equal(res.statusCode, 200, res.body);
      const [reopened] = await tasksOf(db, none.id);
      assert.deepEqual([reopened?.system_key, reopened?.status, reopened?.result], ['zendesk', 'pending', null]);
      assert.notEqual(reopened?.id, noneTask!.id);
      const old = await postResult(f.t, tasks, noneTask!.id, { outcome: 'completed', records: { user: 0 } });
      assert.equal(old.statusCode, 404, 'the old task is gone: its answer was for the other identity');
      await drain();
      assert.deepEqual(await statusOf(none.id), ['processing', 'waiting for data tasks: zendesk']);
      const [fresh] = await tasksOf(db, none.id);
      assert.deepEqual([fresh?.id, fresh?.status], [reopened?.id, 'pending'], 'the same re-opened task, not a second one');
      const r3 = await postResult(f.t, tasks, fresh!.id, { outcome: 'completed', records: { user: 2 } });
      assert.equal(r3.statusCode, 200, r3.body);
      assert.deepEqual(await statusOf(none.id), ['completed', null]);
    });
  });
}
