/**
 * Operator actions over HTTP (PRODUCT.md §2.3): approve, reject, cancel, extend; 409 for a wrong
 * state, 404 for an unknown id, 403 without privacy:write, 422 without a reason; each audited
 * with actor and reason; the `overdue` filter before and after an extension. Separation of
 * duties: the principal that filed a request cannot approve it (403, nothing changes; issue 11
 * item 10), so approvals here come from a second token. Corrections: operator-corrections.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { createBody, manualClock } from '../../helpers/requests.js';

const RECEIVED = '2026-01-31T10:00:00.000Z';
const ACTIONS = ['approve', 'reject', 'cancel', 'extend', 'corrections'] as const;
const UNKNOWN_ID = 'pr_01JZZZZZZZZZZZZZZZZZZZZZZZ';

for (const dialect of dialects()) {
  describe(`operator actions (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let auth: string;
    let actor: string;
    /** A second principal: the one that approves what `auth` filed. */
    let approver: string;
    let approverActor: string;
    let reader: string;
    const time = manualClock(RECEIVED);
    let n = 0;

    /** Files a request in `workspace` at the current clock time. @returns its resource. */
    async function file(workspace = 'acme', overrides: Record<string, unknown> = {}) {
      n += 1;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: auth, 'idempotency-key': `operator-key-${n}` },
        payload: createBody({ workspace_id: workspace, client_request_id: `operator-${n}`, ...overrides }),
      });
      assert.equal(res.statusCode, 202, res.body);
      return res.json();
    }
    const act = (id: string, action: string, payload?: Record<string, unknown>, authorization = auth) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${id}/${action}`,
        headers: { authorization },
        ...(payload === undefined ? {} : { payload }),
      });
    const get = async (id: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/v1/privacy/requests/${id}`, headers: { authorization: auth } })).json();
    const audit = async (id: string, action: string) => {
      const rows = await t.services.database.db
        .selectFrom('audit_events')
        .selectAll()
        .where('target_id', '=', id)
        .where('action', '=', action)
        .execute();
      return rows.map((r) => ({
        actor: r.actor,
        occurred_at: r.occurred_at,
        workspace_id: r.workspace_id,
        details: JSON.parse(r.details),
      }));
    };

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: time.clock });
      const created = await t.services.tokens.create({
        name: 'operator',
        scopes: ['privacy:write', 'privacy:read'],
        workspaces: ['acme', 'approvals', 'calif', 'both'],
        actor: 'test',
      });
      auth = `Bearer ${created.token}`;
      actor = `token:${created.id}`;
      const second = await t.services.tokens.create({
        name: 'approver',
        scopes: ['privacy:write', 'privacy:read'],
        workspaces: ['acme', 'approvals'],
        actor: 'test',
      });
      approver = `Bearer ${second.token}`;
      approverActor = `token:${second.id}`;
      reader = await t.bearer(['privacy:read'], ['acme']);
      await t.services.policies.putLayer('approvals', null, { require_approval: true }, 'test');
      await t.services.policies.putLayer('calif', null, { regulations: ['ccpa'] }, 'test');
      await t.services.policies.putLayer('both', null, { regulations: ['gdpr', 'ccpa'] }, 'test');
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('approve by another principal: pending_approval → queued, audited; approving again (queued) → 409', async () => {
      const filed = await file('approvals');
      assert.equal(filed.status, 'pending_approval');
      const res = await act(filed.id, 'approve', undefined, approver);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'queued');
      assert.equal(res.json().id, filed.id);
      assert.equal((await get(filed.id)).status, 'queued');
      assert.deepEqual(await audit(filed.id, 'privacy_request.approve'), [
        {
          actor: approverActor,
          occurred_at: RECEIVED,
          workspace_id: 'approvals',
          details: { from: 'pending_approval', to: 'queued' },
        },
      ]);
      for (const who of [approver, auth]) {
        const again = await act(filed.id, 'approve', undefined, who);
        assert.equal(again.statusCode, 409);
        assert.deepEqual(again.json(), { detail: 'Cannot approve a request in status queued' });
      }
      const queued = await file('acme');
      assert.equal(
        (await act(queued.id, 'approve', undefined, approver)).statusCode,
        409,
        'a request that never needed approval',
      );
    });

    it('approve by the principal that filed it: 403 with a clear detail, nothing changes, nothing audited', async () => {
      const filed = await file('approvals');
      const before = await t.services.database.db
        .selectFrom('privacy_requests')
        .selectAll()
        .where('id', '=', filed.id)
        .executeTakeFirstOrThrow();
      assert.equal(before.filed_by, actor);
      const chain = async () =>
        (await t.services.database.db.selectFrom('audit_head').select('seq').executeTakeFirstOrThrow()).seq;
      const seq = await chain();
      const res = await act(filed.id, 'approve');
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), {
        detail: 'The principal that filed this request cannot approve it; another principal must approve it',
      });
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      const after = await t.services.database.db
        .selectFrom('privacy_requests')
        .selectAll()
        .where('id', '=', filed.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(after, before);
      assert.equal(await chain(), seq, 'no audit entry');
      assert.deepEqual(await audit(filed.id, 'privacy_request.approve'), []);
      // The filer may still reject or cancel its own request; another principal may approve it.
      const approved = await act(filed.id, 'approve', undefined, approver);
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal(approved.json().status, 'queued');
    });

    for (const [action, status] of [
      ['reject', 'rejected'],
      ['cancel', 'canceled'],
    ] as const) {
      it(`${action} with a reason → ${status}, audited with actor and reason; again → 409`, async () => {
        for (const workspace of ['acme', 'approvals']) {
          const filed = await file(workspace);
          const reason = `${action}: duplicate of ticket 4821 (${workspace})`;
          const res = await act(filed.id, action, { reason });
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual([res.json().status, res.json().status_reason], [status, reason]);
          assert.deepEqual(await audit(filed.id, `privacy_request.${action}`), [
            { actor, occurred_at: RECEIVED, workspace_id: workspace, details: { from: filed.status, to: status, reason } },
          ]);
          const again = await act(filed.id, action, { reason: 'once more' });
          assert.equal(again.statusCode, 409);
          assert.deepEqual(again.json(), { detail: `Cannot ${action} a request in status ${status}` });
          for (const other of ['approve', 'reject', 'cancel', 'extend'] as const) {
            assert.equal(
              (await act(filed.id, other, other === 'approve' ? undefined : { reason: 'x' })).statusCode,
              409,
              `${other} after ${action}`,
            );
          }
          assert.equal((await get(filed.id)).status, status);
        }
      });
    }

    for (const action of ['reject', 'cancel', 'extend'] as const) {
      it(`${action} without a reason → 422 missing at ["body","reason"]; an empty reason → 422; nothing changes`, async () => {
        const filed = await file();
        for (const payload of [{}, { why: 'x' }]) {
          const res = await act(filed.id, action, payload);
          assert.equal(res.statusCode, 422, res.body);
          const [item] = res.json().detail;
          assert.deepEqual([item.type, item.loc, item.msg], ['missing', ['body', 'reason'], 'Field required']);
        }
        const empty = await act(filed.id, action, { reason: '' });
        assert.equal(empty.statusCode, 422);
        assert.deepEqual(empty.json().detail[0].loc, ['body', 'reason']);
        const after = await get(filed.id);
        assert.deepEqual([after.status, after.extended_due_at], ['queued', null]);
        assert.deepEqual(await audit(filed.id, `privacy_request.${action}`), []);
      });
    }

    const extensions = [
      ['acme', 'gdpr', '2026-02-28T10:00:00.000Z', '2026-04-28T10:00:00.000Z'],
      ['calif', 'ccpa', '2026-03-17T10:00:00.000Z', '2026-05-01T10:00:00.000Z'],
      ['both', 'ccpa+gdpr', '2026-02-28T10:00:00.000Z', '2026-04-28T10:00:00.000Z'],
    ] as const;
    for (const [workspace, regulation, dueAt, extendedDueAt] of extensions) {
      it(`extend once (${regulation}): received ${RECEIVED}, due ${dueAt}, extended to ${extendedDueAt}; again → 409`, async () => {
        const filed = await file(workspace);
        assert.deepEqual([filed.regulation, filed.due_at, filed.extended_due_at], [regulation, dueAt, null]);
        time.set('2026-02-10T08:00:00.000Z');
        const res = await act(filed.id, 'extend', { reason: 'complex request: many repositories' });
        time.set(RECEIVED);
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual([res.json().status, res.json().due_at, res.json().extended_due_at], ['queued', dueAt, extendedDueAt]);
        assert.deepEqual(await audit(filed.id, 'privacy_request.extend'), [
          {
            actor,
            occurred_at: '2026-02-10T08:00:00.000Z',
            workspace_id: workspace,
            details: { from: 'queued', to: 'queued', reason: 'complex request: many repositories' },
          },
        ]);
        const again = await act(filed.id, 'extend', { reason: 'still complex' });
        assert.equal(again.statusCode, 409);
        assert.deepEqual(again.json(), { detail: 'Cannot extend a request in status queued' });
        assert.equal((await get(filed.id)).extended_due_at, extendedDueAt);
        assert.equal((await audit(filed.id, 'privacy_request.extend')).length, 1);
      });
    }

    it('extend a pending_approval request keeps it pending; it can still be approved', async () => {
      const filed = await file('approvals');
      const res = await act(filed.id, 'extend', { reason: 'waiting for the controller' });
      assert.deepEqual(
        [res.statusCode, res.json().status, res.json().extended_due_at],
        [200, 'pending_approval', '2026-04-28T10:00:00.000Z'],
      );
      assert.equal((await act(filed.id, 'approve', undefined, approver)).json().status, 'queued');
    });

    it('corrections on a request that is not a correction → 409; on a queued correction → 409', async () => {
      const access = await file('acme', { request_type: 'access' });
      const res = await act(access.id, 'corrections', { changes: { email: 'new@example.test' } });
      assert.equal(res.statusCode, 409);
      assert.match(res.json().detail, /status queued/);
      const correction = await file('acme', { request_type: 'correction' });
      assert.equal((await act(correction.id, 'corrections', { changes: { email: 'new@example.test' } })).statusCode, 409);
    });

    it('an unknown id → 404 for every action; a request of a workspace the token does not cover → 404', async () => {
      const elsewhere = await t.bearer(['privacy:write'], ['other']);
      const filed = await file();
      for (const action of ACTIONS) {
        const payload =
          action === 'approve' ? undefined : action === 'corrections' ? { changes: { email: 'a@b.test' } } : { reason: 'r' };
        const res = await act(UNKNOWN_ID, action, payload);
        assert.equal(res.statusCode, 404, action);
        assert.deepEqual(res.json(), { detail: 'Privacy request not found' });
        assert.equal((await act(filed.id, action, payload, elsewhere)).statusCode, 404, `${action} from another workspace`);
      }
      assert.equal((await get(filed.id)).status, 'queued');
    });

    it('a privacy:read token → 403 for every action, and nothing changes', async () => {
      const filed = await file('approvals');
      for (const action of ACTIONS) {
        const payload =
          action === 'approve' ? undefined : action === 'corrections' ? { changes: { email: 'a@b.test' } } : { reason: 'r' };
        const res = await act(filed.id, action, payload, reader);
        assert.equal(res.statusCode, 403, action);
        assert.deepEqual(res.json(), { detail: 'This token lacks the privacy:write scope' });
        assert.equal((await act(filed.id, action, payload, 'Bearer pcs_not-a-token')).statusCode, 401);
      }
      const row = await get(filed.id);
      assert.deepEqual([row.status, row.extended_due_at], ['pending_approval', null]);
    });

    it('overdue: a request past its due date is listed; one extended in time is not, until past the extension', async () => {
      const workspace = 'both';
      const late = await file(workspace);
      const early = await file(workspace);
      const finalLate = await file(workspace);
      await act(finalLate.id, 'reject', { reason: 'not a valid request' });
      const overdue = async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/v1/privacy/requests?workspace_id=${workspace}&overdue=true`,
          headers: { authorization: auth },
        });
        assert.equal(res.statusCode, 200, res.body);
        return res.json().items.map((r: { id: string }) => r.id);
      };
      try {
        time.set('2026-02-28T10:00:00.000Z');
        assert.ok(!(await overdue()).includes(late.id), 'not overdue at the due instant');
        // The due instant itself is still in time for an extension.
        const res = await act(early.id, 'extend', { reason: 'complex request' });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().extended_due_at, '2026-04-28T10:00:00.000Z');
        time.set('2026-02-28T10:00:00.001Z');
        assert.ok((await overdue()).includes(late.id), 'overdue just after');
        assert.ok(!(await overdue()).includes(early.id), 'not overdue once extended in time');
        assert.ok(!(await overdue()).includes(finalLate.id), 'a rejected request is never overdue');
        const onTime = await t.app.inject({
          method: 'GET',
          url: `/api/v1/privacy/requests?workspace_id=${workspace}&overdue=false`,
          headers: { authorization: auth },
        });
        assert.ok(onTime.json().items.some((r: { id: string }) => r.id === early.id));
        time.set('2026-04-28T10:00:00.001Z');
        assert.ok((await overdue()).includes(early.id), 'overdue past the extended date');
      } finally {
        time.set(RECEIVED);
      }
    });

    it('extend after the due date has passed → 409 with a plain detail; nothing changes; it stays overdue (PRODUCT §2.13)', async () => {
      const workspace = 'calif';
      const late = await file(workspace);
      assert.equal(late.due_at, '2026-03-17T10:00:00.000Z');
      try {
        time.set('2026-03-23T10:00:00.000Z'); // 6 days past the CCPA deadline
        const before = await get(late.id);
        const res = await act(late.id, 'extend', { reason: 'complex request' });
        assert.equal(res.statusCode, 409, res.body);
        assert.deepEqual(res.json(), {
          detail:
            'The deadline has passed (the request was due at 2026-03-17T10:00:00.000Z): an extension must be given, and the person told, before the deadline; the request stays overdue until it ends',
        });
        assert.deepEqual(await get(late.id), before);
        assert.equal(before.extended_due_at, null);
        assert.deepEqual(await audit(late.id, 'privacy_request.extend'), []);
        const listed = await t.app.inject({
          method: 'GET',
          url: `/api/v1/privacy/requests?workspace_id=${workspace}&overdue=true`,
          headers: { authorization: auth },
        });
        assert.ok(
          listed.json().items.some((r: { id: string }) => r.id === late.id),
          'still overdue',
        );
      } finally {
        time.set(RECEIVED);
      }
    });
  });
}
