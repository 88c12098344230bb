/**
 * Webhook endpoint limits (issue 23 items 3 and 4, PRODUCT §2.8) through `app.inject` on a real
 * database, once per dialect: past `MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE` a registration is a 409
 * naming the limit (other workspaces unaffected); retry and recover on a disabled endpoint are
 * 409s that change nothing, and a disabled endpoint's pending message is never claimed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../../src/lib/ids.js';
import { claimDueMessages } from '../../../src/modules/outbound-events/message-delivery.repository.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const BASE = '/api/v1/webhook-endpoints';

for (const dialect of dialects()) {
  describe(`webhook endpoint limits (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { env: { MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE: '3' } });
      admin = await t.bearer(['admin'], ['acme', 'other']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { authorization: admin }, ...(payload ? { payload } : {}) });
    const db = () => t.services.database.db;

    it('refuses a fourth endpoint of a workspace with a 409 naming MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE', async () => {
      for (let i = 0; i < 3; i += 1) {
        const res = await call('POST', BASE, { workspace_id: 'acme', url: `https://hooks.example.com/${i}` });
        assert.equal(res.statusCode, 201, res.body);
      }
      // A disabled endpoint still counts.
      const [first] = await db().selectFrom('webhook_endpoints').select('id').where('workspace_id', '=', 'acme').execute();
      assert.equal((await call('PATCH', `${BASE}/${first!.id}`, { disabled: true })).statusCode, 200);
      const refused = await call('POST', BASE, { workspace_id: 'acme', url: 'https://hooks.example.com/4' });
      assert.equal(refused.statusCode, 409, refused.body);
      assert.match(refused.json().detail, /3 webhook endpoints.*MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE/);
      const rows = await db().selectFrom('webhook_endpoints').select('id').where('workspace_id', '=', 'acme').execute();
      assert.equal(rows.length, 3, 'nothing written');
      const other = await call('POST', BASE, { workspace_id: 'other', url: 'https://hooks.example.com/o' });
      assert.equal(other.statusCode, 201, 'the limit is per workspace');
    });

    it('refuses retry and recover on a disabled endpoint (409) and never claims its pending messages', async () => {
      const [endpoint] = await db().selectFrom('webhook_endpoints').select('id').where('workspace_id', '=', 'other').execute();
      const id = endpoint!.id;
      const now = new Date().toISOString();
      const message = (status: 'failed' | 'pending') => ({
        id: newId('msg'),
        endpoint_id: id,
        workspace_id: 'other',
        event_type: 'privacy_request.created',
        payload: '{}',
        status,
        attempts: '[]',
        attempt_count: 0,
        next_attempt_at: status === 'pending' ? now : null,
        lease_until: null,
        created_at: now,
      });
      const failed = message('failed');
      await db().insertInto('outbound_messages').values(failed).execute();
      assert.equal((await call('PATCH', `${BASE}/${id}`, { disabled: true })).statusCode, 200);
      // A message left pending (say, written by hand or by a race) is still never claimed.
      const pending = message('pending');
      await db().insertInto('outbound_messages').values(pending).execute();

      const retry = await call('POST', `${BASE}/${id}/messages/${failed.id}/retry`);
      assert.equal(retry.statusCode, 409, retry.body);
      assert.match(retry.json().detail, /disabled/);
      const recover = await call('POST', `${BASE}/${id}/recover`, { since: new Date(Date.now() - 60_000).toISOString() });
      assert.equal(recover.statusCode, 409, recover.body);
      const statuses = await db()
        .selectFrom('outbound_messages')
        .select(['id', 'status'])
        .where('endpoint_id', '=', id)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        Object.fromEntries(statuses.map((s) => [s.id, s.status])),
        { [failed.id]: 'failed', [pending.id]: 'pending' },
        'nothing requeued',
      );
      const later = new Date(Date.now() + 60_000).toISOString();
      const claimed = await claimDueMessages(db(), later, new Date(Date.now() + 120_000).toISOString(), 50, 2);
      assert.ok(!claimed.some((m) => m.endpoint_id === id), 'a disabled endpoint is never claimed');
      const audit = await db().selectFrom('audit_events').select('action').where('target_id', '=', id).execute();
      assert.ok(!audit.some((a) => /retried|recovered/.test(a.action)), 'refusals are not audited as actions');

      // Enabled again: retry works.
      assert.equal((await call('PATCH', `${BASE}/${id}`, { disabled: false })).statusCode, 200);
      assert.equal((await call('POST', `${BASE}/${id}/messages/${failed.id}/retry`)).statusCode, 202);
    });
  });
}
