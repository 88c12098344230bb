/** GET one request and the list with filters and cursor pagination; durability across a restart. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { createBody, manualClock } from '../../helpers/requests.js';

for (const dialect of dialects()) {
  describe(`read privacy requests (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let auth: string;
    const ids: string[] = [];
    const time = manualClock('2026-03-01T08:00:00.000Z');
    const list = (query: string) =>
      t.app.inject({ method: 'GET', url: `/api/v1/privacy/requests?${query}`, headers: { authorization: auth } });

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: time.clock });
      auth = await t.bearer(['privacy:write', 'privacy:read'], ['acme']);
      const types = ['access', 'export', 'deletion', 'access', 'correction'];
      for (const [i, request_type] of types.entries()) {
        time.set(`2026-03-0${i + 1}T08:00:00.000Z`);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { authorization: auth, 'idempotency-key': `seed-key-${i}` },
          payload: createBody({ request_type, client_request_id: `seed-request-${i}` }),
        });
        assert.equal(res.statusCode, 202);
        ids.push(res.json().id);
      }
      time.set('2026-03-20T08:00:00.000Z');
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('reads one request by id, and 404 for an unknown id', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${ids[0]}`,
        headers: { authorization: auth },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().id, ids[0]);
      const missing = await t.app.inject({
        method: 'GET',
        url: '/api/v1/privacy/requests/pr_01JZZZZZZZZZZZZZZZZZZZZZZZ',
        headers: { authorization: auth },
      });
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { detail: 'Privacy request not found' });
    });

    it('pages newest first with a cursor until next_cursor is null', async () => {
      const seen: string[] = [];
      let cursor = '';
      for (let page = 0; page < 5; page++) {
        const res = await list(`workspace_id=acme&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        seen.push(...body.items.map((r: { id: string }) => r.id));
        if (body.next_cursor === null) break;
        cursor = body.next_cursor;
      }
      assert.deepEqual(seen, [...ids].reverse());
    });

    it('filters by request_type and status', async () => {
      const access = (await list('workspace_id=acme&request_type=access')).json();
      assert.deepEqual(
        access.items.map((r: { id: string }) => r.id),
        [ids[3], ids[0]],
      );
      const queued = (await list('workspace_id=acme&status=queued')).json();
      assert.equal(queued.items.length, 5);
      const completed = (await list('workspace_id=acme&status=completed')).json();
      assert.equal(completed.items.length, 0);
    });

    it('filters overdue: not final and past the due date', async () => {
      time.set('2026-04-01T08:00:00.001Z');
      const overdue = (await list('workspace_id=acme&overdue=true')).json();
      // Due dates: Apr 1 … Apr 5 at 08:00; only the one filed on Mar 1 is past.
      assert.deepEqual(
        overdue.items.map((r: { id: string }) => r.id),
        [ids[0]],
      );
      const onTime = (await list('workspace_id=acme&overdue=false')).json();
      assert.equal(onTime.items.length, 4);
      time.set('2026-03-20T08:00:00.000Z');
    });

    it('refuses a cursor it did not issue with a 422 at ["query", "cursor"]', async () => {
      const res = await list('workspace_id=acme&cursor=bm90LWEtY3Vyc29y');
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail, [
        {
          type: 'value_error',
          loc: ['query', 'cursor'],
          msg: 'Value error, the cursor is not valid for this query; start again without one',
          input: 'bm90LWEtY3Vyc29y',
          ctx: { error: {} },
        },
      ]);
    });

    it('keeps every request across a restart', async () => {
      await t.close();
      t = await startTestApp(database, { clock: time.clock });
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${ids[2]}`,
        headers: { authorization: auth },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().request_type, 'deletion');
    });
  });
}
