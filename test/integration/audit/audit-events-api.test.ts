/**
 * The audit trail API (PRODUCT.md §2.7): `GET /api/v1/audit-events` (who sees what, actors with
 * their names, oldest first with a cursor bound to the filters, a request's timeline with its
 * data tasks' entries, 422 for bad filters and cursors) and `GET /api/v1/audit-events/verify`
 * (the chain recomputed in pages, as `privacyctl audit verify`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { appendAuditEvents } from '../../../src/modules/audit/audit.repository.js';
import { verifyAuditChain } from '../../../src/modules/audit/audit-read.repository.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { createBody } from '../../helpers/requests.js';

interface Item {
  seq: number;
  actor: { type: string; id: string; name: string };
  action: string;
  target_type: string;
  target_id: string;
  workspace_id: string | null;
  reason: string | null;
  details: Record<string, unknown>;
  hash: string;
}

for (const dialect of dialects()) {
  describe(`audit trail API (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let officer: { id: string; auth: string };
    let approver: { id: string; auth: string };
    let reader: string;
    let admin: string;
    let acmeAdmin: string;
    const requests: string[] = [];
    const db = () => t.services.database.db;
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom('audit_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const get = (query: string, auth: string) =>
      t.app.inject({ method: 'GET', url: `/api/v1/audit-events${query}`, headers: { authorization: auth } });
    const items = async (query: string, auth: string): Promise<Item[]> => {
      const res = await get(query, auth);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().items;
    };
    const token = async (name: string, scopes: string[], workspaces: string[]) => {
      const created = await t.services.tokens.create({ name, scopes, workspaces, actor: 'cli' });
      return { id: created.id, auth: `Bearer ${created.token}` };
    };

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      officer = await token('Dana (privacy office)', ['privacy:write', 'privacy:read', 'policy:write'], ['acme', 'beta']);
      approver = await token('Sam', ['privacy:write', 'privacy:read'], ['acme']);
      reader = (await token('reader', ['privacy:read'], ['acme'])).auth;
      admin = (await token('ops', ['admin'], ['*'])).auth;
      acmeAdmin = (await token('acme ops', ['admin'], ['acme'])).auth;
      await t.services.policies.putLayer('acme', null, { require_approval: true }, 'cli');
      for (const [i, workspace] of ['acme', 'acme', 'beta'].entries()) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { authorization: officer.auth, 'idempotency-key': `audit-api-key-${i}` },
          payload: createBody({ workspace_id: workspace, client_request_id: `audit-api-${i}` }),
        });
        assert.equal(res.statusCode, 202, res.body);
        requests.push(res.json().id);
      }
      const approve = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${requests[0]}/approve`,
        headers: { authorization: approver.auth },
      });
      assert.equal(approve.statusCode, 200, approve.body);
      const reject = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${requests[1]}/reject`,
        headers: { authorization: officer.auth },
        payload: { reason: 'identity not verified' },
      });
      assert.equal(reject.statusCode, 200, reject.body);
      // What the worker and a data task (built elsewhere) record: appended as they append.
      await db()
        .transaction()
        .execute((tx) =>
          appendAuditEvents(tx, [
            {
              actor: 'worker',
              requestId: requests[0] as string,
              action: 'privacy_request.completed',
              targetType: 'privacy_request',
              targetId: requests[0] as string,
              workspaceId: 'acme',
              details: { attempt: 1 },
              occurredAt: new Date().toISOString(),
            },
            {
              actor: 'integration:int_01JD0000000000000000000000',
              actorName: 'int_01JD0000000000000000000000',
              requestId: requests[0] as string,
              action: 'data_task.completed',
              targetType: 'data_task',
              targetId: 'task_01JD0000000000000000000000',
              workspaceId: 'acme',
              details: { outcome: 'completed' },
              occurredAt: new Date().toISOString(),
            },
          ]),
        );
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('shows each actor with its type, id and recorded name', async () => {
      const all = await items('?limit=100', admin);
      const created = all.find((e) => e.action === 'privacy_request.created' && e.target_id === requests[0]);
      assert.deepEqual(created?.actor, { type: 'token', id: officer.id, name: 'Dana (privacy office)' });
      const approved = all.find((e) => e.action === 'privacy_request.approve');
      assert.deepEqual(approved?.actor, { type: 'token', id: approver.id, name: 'Sam' });
      assert.deepEqual(all.find((e) => e.action === 'privacy_request.completed')?.actor, {
        type: 'system',
        id: 'worker',
        name: 'worker',
      });
      assert.deepEqual(all.find((e) => e.action === 'data_task.completed')?.actor, {
        type: 'webhook',
        id: 'int_01JD0000000000000000000000',
        name: 'int_01JD0000000000000000000000',
      });
      assert.deepEqual(all.find((e) => e.action === 'policy.layer_written')?.actor, { type: 'system', id: 'cli', name: 'cli' });
      const rejected = all.find((e) => e.action === 'privacy_request.reject');
      assert.equal(rejected?.reason, 'identity not verified');
      assert.equal(created?.reason, null);
      assert.deepEqual(created?.details, { request_type: 'access', status: 'pending_approval' });
      assert.match(created?.hash ?? '', /^[0-9a-f]{64}$/);
    });

    it('lists oldest first and pages with a cursor until next_cursor is null', async () => {
      const seqs: number[] = [];
      let cursor = '';
      for (let page = 0; page < 20; page++) {
        const res = await get(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`, admin);
        assert.equal(res.statusCode, 200, res.body);
        seqs.push(...res.json().items.map((e: Item) => e.seq));
        cursor = res.json().next_cursor ?? '';
        if (!cursor) break;
      }
      assert.equal(seqs.length, await count());
      assert.deepEqual(
        seqs,
        seqs.toSorted((a, b) => a - b),
      );
      assert.equal(new Set(seqs).size, seqs.length);
    });

    it('privacy:read sees its workspaces’ entries about requests, data tasks and policies only', async () => {
      const seen = await items('?limit=100', reader);
      assert.ok(seen.length > 0);
      for (const e of seen) {
        assert.equal(e.workspace_id, 'acme', JSON.stringify(e));
        assert.ok(['privacy_request', 'data_task', 'policy_layer'].includes(e.target_type), e.target_type);
      }
      assert.ok(seen.some((e) => e.target_type === 'data_task'));
      assert.ok(seen.some((e) => e.target_type === 'policy_layer'));
      assert.ok(!seen.some((e) => e.target_id === requests[2]), 'beta’s request is not acme’s');
      // The workspace-limited admin sees every type of its workspace, never token changes (no workspace).
      const acme = await items('?limit=100', acmeAdmin);
      assert.ok(acme.every((e) => e.workspace_id === 'acme'));
      const everything = await items('?limit=100', admin);
      assert.ok(everything.some((e) => e.target_type === 'api_token' && e.workspace_id === null));
    });

    it('answers 403 for a workspace the caller cannot read, and for verify without admin', async () => {
      assert.equal((await get('?workspace_id=beta', reader)).statusCode, 403);
      assert.equal((await get('/verify', reader)).statusCode, 403);
      // Issue 23 item 7: an admin of one workspace does not verify the service-wide chain.
      const acmeAdmin = (await token('acme-admin', ['admin'], ['acme'])).auth;
      const refused = await get('/verify', acmeAdmin);
      assert.equal(refused.statusCode, 403, refused.body);
      assert.match(refused.json().detail, /every workspace/);
      assert.ok(!('entries' in refused.json()), 'no service-wide count');
      const beta = await items('?workspace_id=beta', officer.auth);
      assert.deepEqual(
        beta.map((e) => e.target_id),
        [requests[2]],
      );
    });

    it('gives a request’s timeline with its data tasks’ entries, and filters by target and action', async () => {
      const timeline = await items(`?target_type=privacy_request&target_id=${requests[0]}`, reader);
      assert.deepEqual(
        timeline.map((e) => e.action),
        ['privacy_request.created', 'privacy_request.approve', 'privacy_request.completed', 'data_task.completed'],
      );
      const other = await items(`?target_type=privacy_request&target_id=${requests[1]}`, reader);
      assert.deepEqual(
        other.map((e) => e.action),
        ['privacy_request.created', 'privacy_request.reject'],
      );
      const task = await items('?target_type=data_task&target_id=task_01JD0000000000000000000000', reader);
      assert.deepEqual(
        task.map((e) => e.action),
        ['data_task.completed'],
      );
      const rejects = await items('?action=privacy_request.reject', admin);
      assert.deepEqual(
        rejects.map((e) => e.target_id),
        [requests[1]],
      );
    });

    it('refuses bad filters and cursors with 422 in the Pydantic shape, writing nothing', async () => {
      const before = await count();
      const bad = await get('?target_type=Privacy-Request&limit=0', admin);
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(
        bad.json().detail.map((d: { type: string; loc: unknown[] }) => [d.type, d.loc]),
        [
          ['string_pattern_mismatch', ['query', 'target_type']],
          ['greater_than_equal', ['query', 'limit']],
        ],
      );
      const first = await get('?limit=1&workspace_id=acme', admin);
      const cursor = first.json().next_cursor as string;
      assert.equal((await get(`?limit=1&workspace_id=acme&cursor=${cursor}`, admin)).statusCode, 200);
      for (const query of [
        `?limit=1&workspace_id=beta&cursor=${cursor}`,
        `?limit=1&cursor=${cursor}`,
        '?cursor=bm90LWEtY3Vyc29y',
      ]) {
        const res = await get(query, admin);
        assert.equal(res.statusCode, 422, query);
        assert.deepEqual(res.json().detail[0].loc, ['query', 'cursor']);
        assert.equal(res.json().detail[0].type, 'value_error');
      }
      assert.equal(await count(), before);
    });

    it('verifies the chain in pages, and names the first broken entry', async () => {
      const intact = await get('/verify', admin);
      assert.equal(intact.statusCode, 200, intact.body);
      assert.deepEqual(intact.json(), { intact: true, entries: await count(), first_broken_seq: null });
      assert.deepEqual(await verifyAuditChain(db(), 2), { entries: await count(), problem: null });
      // Names are hashed: rewriting who acted breaks the chain at that entry.
      const target = (await items('?action=privacy_request.approve', admin))[0] as Item;
      await sql`update audit_events set actor_name = 'Someone else' where seq = ${target.seq}`.execute(db());
      const broken = await get('/verify', admin);
      assert.deepEqual(broken.json(), { intact: false, entries: await count(), first_broken_seq: target.seq });
      for (const pageSize of [1, 2, 1000])
        assert.deepEqual((await verifyAuditChain(db(), pageSize)).problem, { seq: target.seq, problem: 'hash_mismatch' });
      await sql`update audit_events set actor_name = 'Sam' where seq = ${target.seq}`.execute(db());
      assert.equal((await get('/verify', admin)).json().intact, true);
    });
  });
}
