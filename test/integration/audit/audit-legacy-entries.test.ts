/**
 * Migration 2026-11-24T0101-audit-queue on a chain written before it: entries without an actor
 * name keep their hash (the chain still verifies, through the CLI's and the API's one check),
 * the API shows their actor id as the name, their `request_id` is filled for the request's
 * timeline, and entries appended afterwards (with names) continue the same chain.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase, type Database } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { linkEntries } from '../../../src/modules/audit/audit-chain.fns.js';
import { verifyAuditChain } from '../../../src/modules/audit/audit-read.repository.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { migrateBefore } from '../../helpers/migrate-before.js';

const THIS_MIGRATION = '2026-11-24T0101-audit-queue';

for (const dialect of dialects()) {
  describe(`audit entries written before actor names (${dialect.name})`, () => {
    let target: TestDatabase;
    let t: TestApp;

    before(async () => {
      target = await dialect.create();
      const old: Database = createDatabase(target.url);
      await migrateBefore(old.db, THIS_MIGRATION);
      // Two entries as the previous release wrote them: no actor_name, no request_id, the old hash.
      const { linked, head } = linkEntries({ seq: 0, hash: '0'.repeat(64) }, [
        {
          occurred_at: '2026-11-20T10:00:00.000Z',
          actor: 'token:tok_01JC0000000000000000000000',
          action: 'privacy_request.created',
          target_type: 'privacy_request',
          target_id: 'pr_01JC0000000000000000000000',
          workspace_id: 'acme',
          details: JSON.stringify({ request_type: 'access', status: 'queued' }),
        },
        {
          occurred_at: '2026-11-20T11:00:00.000Z',
          actor: 'oidc:00u1abcd',
          action: 'privacy_request.cancel',
          target_type: 'privacy_request',
          target_id: 'pr_01JC0000000000000000000000',
          workspace_id: 'acme',
          details: JSON.stringify({ from: 'queued', to: 'canceled', reason: 'duplicate' }),
        },
      ]);
      await old.db
        .insertInto('audit_events')
        .values(linked.map((row, i) => ({ id: `aud_legacy_${i}`, ...row }) as never))
        .execute();
      await old.db.updateTable('audit_head').set(head).where('id', '=', 1).execute();
      await migrateToLatest(old.db);
      await old.close();
      t = await startTestApp(target);
    });
    after(async () => {
      await t.close();
      await target.drop();
    });

    it('still verifies, shows actor ids as names, and finds the entries in the request’s timeline', async () => {
      assert.deepEqual(await verifyAuditChain(t.services.database.db), { entries: 2, problem: null });
      const admin = await t.bearer(['admin'], ['*']);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/audit-events?target_type=privacy_request&target_id=pr_01JC0000000000000000000000',
        headers: { authorization: admin },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        res.json().items.map((e: { actor: unknown; reason: unknown }) => [e.actor, e.reason]),
        [
          [{ type: 'token', id: 'tok_01JC0000000000000000000000', name: 'tok_01JC0000000000000000000000' }, null],
          [{ type: 'oidc', id: '00u1abcd', name: '00u1abcd' }, 'duplicate'],
        ],
      );
    });

    it('continues the chain with named entries: old and new verify together', async () => {
      // t.bearer created a token (audited with its actor as its name): one new-format entry.
      await t.services.policies.putLayer('acme', null, { retention_days: 30 }, { id: 'token:tok_x', name: 'Dana' });
      const rows = await t.services.database.db.selectFrom('audit_events').select(['seq', 'actor_name']).orderBy('seq').execute();
      assert.deepEqual(
        rows.map((r) => r.actor_name),
        [null, null, 'test', 'Dana'],
      );
      const verified = await t.app.inject({
        method: 'GET',
        url: '/api/v1/audit-events/verify',
        headers: { authorization: await t.bearer(['admin'], ['*']) },
      });
      assert.deepEqual(verified.json(), { intact: true, entries: 5, first_broken_seq: null });
    });
  });
}
