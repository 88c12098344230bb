/**
 * The controller must be named (PRODUCT §2.13, §2.10): an access or export request of a workspace
 * without a controller profile waits in `action_required` with `status_reason:
 * "controller_unnamed"`, before any work (no package, no data task), and runs on, audited, when
 * the profile is saved over HTTP; deletions do not wait. Another workspace's waiting request is
 * left alone. (Before issue 22 such a request completed with a package naming nobody.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { dialects } from '../../helpers/databases.js';
import { auditOf, type Fixture, fileRequest, openFixture, requestRow, testWorker } from '../../helpers/worker.js';

const PROFILE = { name: 'Acme GmbH', contact_email: 'privacy@acme.example' };

for (const dialect of dialects()) {
  describe(`controller unnamed (${dialect.name})`, () => {
    let f: Fixture;
    let admin: string;

    before(async () => {
      f = await openFixture(() => dialect.create(), { workspaces: ['nameless', 'other'], controller: false });
      admin = await f.t.bearer(['admin'], ['nameless', 'other']);
      // The requests' subject is unknown here on purpose (this file is about the controller): no
      // review of unmatched identities (PRODUCT §2.13), so a request that runs on completes.
      for (const workspace of ['nameless', 'other'])
        await f.t.services.policies.putLayer(workspace, null, { confirm_no_data: false }, 'test');
      const system = await f.t.app.inject({
        method: 'POST',
        url: '/api/v1/data-systems',
        headers: { authorization: admin },
        payload: { workspace_id: 'nameless', key: 'crm', name: 'CRM', categories: ['user'], request_types: ['access'] },
      });
      assert.equal(system.statusCode, 201, system.body);
    });
    after(() => f.close());

    const drain = async () => {
      const worker = testWorker(f, REQUEST_HANDLERS);
      while (await worker.runOnce());
    };
    const tasksOf = (id: string) =>
      f.t.services.database.db.selectFrom('data_tasks').select(['system_key', 'status']).where('request_id', '=', id).execute();
    const put = (workspace: string) =>
      f.t.app.inject({
        method: 'PUT',
        url: `/api/v1/workspaces/${workspace}/controller`,
        headers: { authorization: admin },
        payload: PROFILE,
      });

    it('access and export wait before any work; a deletion does not; saving the profile runs them on', async () => {
      const access = await fileRequest(f, { workspace_id: 'nameless', request_type: 'access' });
      const exported = await fileRequest(f, { workspace_id: 'nameless', request_type: 'export' });
      const elsewhere = await fileRequest(f, { workspace_id: 'other', request_type: 'access' });
      await drain();
      for (const id of [access.id, exported.id, elsewhere.id]) {
        const row = await requestRow(f, id);
        assert.deepEqual([row.status, row.status_reason, row.completed_at], ['action_required', 'controller_unnamed', null], id);
      }
      assert.deepEqual(await tasksOf(access.id), [], 'no data task before the controller is named');
      const pkg = await f.t.app.inject({
        url: `/api/v1/privacy/requests/${access.id}/package`,
        headers: { authorization: f.auth },
      });
      assert.equal(pkg.statusCode, 409, 'no package without a controller');
      const resource = await f.t.app.inject({ url: `/api/v1/privacy/requests/${access.id}`, headers: { authorization: f.auth } });
      assert.deepEqual([resource.json().status, resource.json().status_reason], ['action_required', 'controller_unnamed']);
      const waiting = (await auditOf(f, access.id)).find((e) => e.action === 'privacy_request.action_required');
      assert.deepEqual(waiting?.details, { attempt: 1, reason: 'controller_unnamed' });

      const saved = await put('nameless');
      assert.equal(saved.statusCode, 200, saved.body);
      for (const id of [access.id, exported.id]) {
        const row = await requestRow(f, id);
        assert.deepEqual([row.status, row.status_reason, row.attempts], ['queued', null, 0], id);
        const entry = (await auditOf(f, id)).find((e) => e.action === 'privacy_request.controller_named');
        assert.ok(entry, 'audited');
        assert.equal(entry.actor.startsWith('token:'), true);
        assert.deepEqual(entry.details, { from: 'action_required', to: 'queued' });
      }
      assert.equal((await requestRow(f, elsewhere.id)).status, 'action_required', 'another workspace still waits');

      await drain();
      assert.equal((await requestRow(f, exported.id)).status, 'completed');
      // The access request now has its data task: it waits for the CRM, as any request with a system does.
      assert.deepEqual(await tasksOf(access.id), [{ system_key: 'crm', status: 'pending' }]);
      assert.equal((await requestRow(f, access.id)).status, 'processing');
      const letter = await f.t.app.inject({
        url: `/api/v1/privacy/requests/${exported.id}/package`,
        headers: { authorization: f.auth },
      });
      assert.equal(letter.statusCode, 200, letter.body);
      assert.equal(letter.json().controller.name, 'Acme GmbH');
    });

    it('a deletion in a workspace without a controller is not held', async () => {
      const deletion = await fileRequest(f, { workspace_id: 'other', request_type: 'deletion' });
      await drain();
      assert.equal((await requestRow(f, deletion.id)).status, 'completed');
    });

    it('saving the profile again changes nothing for requests that no longer wait', async () => {
      const elsewhere = await fileRequest(f, { workspace_id: 'other', request_type: 'export' });
      await drain();
      const cancel = await f.t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${elsewhere.id}/cancel`,
        headers: { authorization: f.auth },
        payload: { reason: 'withdrawn' },
      });
      assert.equal(cancel.statusCode, 200, cancel.body);
      assert.equal((await put('other')).statusCode, 200);
      assert.equal((await requestRow(f, elsewhere.id)).status, 'canceled');
    });
  });
}
