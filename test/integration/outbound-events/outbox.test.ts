/**
 * The transactional outbox (issue 14 part 1, PRODUCT §2.8): `enqueueEvent` writes one message per
 * enabled, subscribed endpoint of the workspace in the unit's own transaction; a rollback leaves
 * none; other workspaces' and disabled endpoints get none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase, type Database } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { runUnitOfWork } from '../../../src/db/unit-of-work.js';
import { newId } from '../../../src/lib/ids.js';
import { enqueueEvent } from '../../../src/modules/outbound-events/outbox.repository.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

for (const dialect of dialects()) {
  describe(`outbox (${dialect.name})`, () => {
    let test: TestDatabase;
    let database: Database;
    const endpoint = async (workspace: string, eventTypes: string[] | null, disabled = false) => {
      const id = newId('ep');
      await database.db
        .insertInto('webhook_endpoints')
        .values({
          id,
          workspace_id: workspace,
          url: 'https://receiver.example/hook',
          description: null,
          event_types: eventTypes === null ? null : JSON.stringify(eventTypes),
          secret_ciphertext: 'not-used-here',
          previous_secret_ciphertext: null,
          previous_secret_expires_at: null,
          failing_since: null,
          disabled_at: disabled ? new Date().toISOString() : null,
          created_at: new Date().toISOString(),
        })
        .execute();
      return id;
    };
    const messagesOf = (workspace: string) =>
      database.db
        .selectFrom('outbound_messages')
        .selectAll()
        .where('workspace_id', '=', workspace)
        .orderBy('endpoint_id')
        .execute();

    before(async () => {
      test = await dialect.create();
      database = createDatabase(test.url);
      await migrateToLatest(database.db);
    });
    after(async () => {
      await database.close();
      await test.drop();
    });

    it('writes one pending message per subscribed, enabled endpoint of the workspace at commit', async () => {
      const all = await endpoint('ws_a', null);
      const created = await endpoint('ws_a', ['privacy_request.created']);
      await endpoint('ws_a', ['privacy_request.completed']);
      await endpoint('ws_a', null, true);
      await endpoint('ws_b', null);
      await runUnitOfWork(database.db, async (unit) => {
        enqueueEvent(unit, { workspaceId: 'ws_a', type: 'privacy_request.created', data: { id: 'pr_1' } });
      });
      const rows = await messagesOf('ws_a');
      assert.deepEqual(rows.map((r) => r.endpoint_id).sort(), [all, created].sort());
      for (const row of rows) {
        assert.match(row.id, /^msg_[0-9A-Z]{26}$/);
        assert.equal(row.status, 'pending');
        assert.equal(row.attempts, '[]');
        assert.equal(row.event_type, 'privacy_request.created');
        const payload = JSON.parse(row.payload);
        assert.equal(payload.type, 'privacy_request.created');
        assert.deepEqual(payload.data, { id: 'pr_1' });
        assert.ok(!Number.isNaN(Date.parse(payload.timestamp)));
      }
      assert.equal(new Set(rows.map((r) => r.id)).size, 2);
      assert.equal((await messagesOf('ws_b')).length, 0);
    });

    it('writes nothing when the unit is rolled back', async () => {
      await endpoint('ws_c', null);
      await assert.rejects(
        runUnitOfWork(database.db, async (unit) => {
          enqueueEvent(unit, { workspaceId: 'ws_c', type: 'privacy_request.created', data: { id: 'pr_2' } });
          throw new Error('rolled back');
        }),
        /rolled back/,
      );
      assert.equal((await messagesOf('ws_c')).length, 0);
    });

    it('goes through the batched Database.transact too', async () => {
      await endpoint('ws_d', ['privacy_request.overdue']);
      await Promise.all(
        [1, 2, 3].map((n) =>
          database.transact(async (unit) => {
            enqueueEvent(unit, { workspaceId: 'ws_d', type: 'privacy_request.overdue', data: { id: `pr_${n}` } });
          }),
        ),
      );
      const ids = (await messagesOf('ws_d')).map((r) => JSON.parse(r.payload).data.id).sort();
      assert.deepEqual(ids, ['pr_1', 'pr_2', 'pr_3']);
    });
  });
}
