/**
 * An authentic identity delivery of an event the service does not handle is answered 200
 * `ignored` (PRODUCT.md §2.6), whatever shape that event's `data` has: a 400 makes the provider
 * retry a delivery that can never succeed.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const WORKOS_SECRET = 'workos-webhook-secret-1';

/** WorkOS signs `t.body` with HMAC-SHA-256, t in epoch milliseconds (WorkOS Docs, "Webhooks"). */
function workosSignature(body: string, at: Date): string {
  const t = String(at.getTime());
  return `t=${t}, v1=${createHmac('sha256', WORKOS_SECRET).update(`${t}.${body}`).digest('hex')}`;
}

for (const dialect of dialects()) {
  describe(`identity webhook, events not handled (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let integrationId: string;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      const created = await t.services.integrations.create(
        { kind: 'identity', workspace_id: 'acme', format: 'workos', subject_provider: 'workos', secret: WORKOS_SECRET },
        'test',
      );
      integrationId = created.id;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    const deliver = (event: object) => {
      const body = JSON.stringify(event);
      return t.app.inject({
        method: 'POST',
        url: `/webhook/identity?integration=${integrationId}`,
        headers: { 'content-type': 'application/json', 'workos-signature': workosSignature(body, t.services.clock()) },
        payload: body,
      });
    };

    it('ignores a WorkOS event whose data is a directory group', async () => {
      const res = await deliver({
        id: 'event_01',
        event: 'dsync.group.created',
        data: { id: 'directory_group_01', object: 'directory_group', name: 'Engineering' },
        created_at: new Date().toISOString(),
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'ignored');
    });

    it('ignores a WorkOS dsync.group.user_added event (data has user and group, no id of its own)', async () => {
      const event = {
        id: 'event_02',
        event: 'dsync.group.user_added',
        data: {
          directory_id: 'directory_01',
          user: { id: 'directory_user_01', state: 'active' },
          group: { id: 'directory_group_01', name: 'Engineering' },
        },
        created_at: new Date().toISOString(),
      };
      const res = await deliver(event);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'ignored');
    });
  });
}
