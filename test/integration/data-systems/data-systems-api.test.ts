/**
 * `/api/v1/data-systems` (PRODUCT.md §2.9): create, list, read, change, delete; every refusal
 * (422 in the Pydantic shape, 409 on a taken key, 403/404 outside the caller's workspaces) leaves
 * the table as it was. On SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects } from '../../helpers/databases.js';
import { addSystem, insertEndpoint } from '../../helpers/data-systems.js';
import { type Fixture, openFixture } from '../../helpers/worker.js';

for (const dialect of dialects()) {
  describe(`data systems API (${dialect.name})`, () => {
    let f: Fixture;
    let admin: string;
    const db = () => f.t.services.database.db;
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom('data_systems')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const post = (payload: unknown, auth = admin) =>
      f.t.app.inject({
        method: 'POST',
        url: '/api/v1/data-systems',
        headers: { authorization: auth },
        payload: payload as object,
      });
    const valid = {
      workspace_id: 'acme',
      key: 'crm',
      name: 'CRM',
      categories: ['user.contact'],
      request_types: ['access', 'deletion'],
    };

    before(async () => {
      f = await openFixture(dialect.create);
      admin = await f.t.bearer(['admin'], ['acme']);
    });
    after(() => f.close());

    it('creates a system (201, Location, the resource), audited; the same key again is a 409 and adds nothing', async () => {
      const res = await post({ ...valid, due_days: 10 });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.match(body.id, /^sys_/);
      assert.equal(res.headers.location, `/api/v1/data-systems/${body.id}`);
      assert.deepEqual(
        { ...body, id: undefined, created_at: undefined, updated_at: undefined },
        {
          ...valid,
          id: undefined,
          kind: 'manual',
          dataset: null,
          endpoint_id: null,
          due_days: 10,
          purposes: null,
          recipients: null,
          retention: null,
          source: null,
          third_party: false,
          created_at: undefined,
          updated_at: undefined,
        },
      );
      const audit = await db().selectFrom('audit_events').select(['action', 'actor']).where('target_id', '=', body.id).execute();
      assert.deepEqual(
        audit.map((a) => a.action),
        ['data_system.created'],
      );
      const before = await count();
      const again = await post({ ...valid, name: 'Another CRM' });
      assert.equal(again.statusCode, 409);
      assert.match(again.json().detail, /already has a data system with key crm/);
      assert.equal(await count(), before);
    });

    it('refuses unknown categories and request types, a bad key and a missing name at once (422), adding nothing', async () => {
      const before = await count();
      const res = await post({
        workspace_id: 'acme',
        key: 'Bad_Key',
        categories: ['user', 'user.ssn'],
        request_types: ['erase'],
      });
      assert.equal(res.statusCode, 422);
      const detail = res.json().detail as { type: string; loc: unknown[] }[];
      assert.deepEqual(
        detail.map((d) => [d.type, d.loc]),
        [
          ['string_pattern_mismatch', ['body', 'key']],
          ['missing', ['body', 'name']],
          ['literal_error', ['body', 'categories', 1]],
          ['literal_error', ['body', 'request_types', 0]],
        ],
      );
      const empty = await post({ ...valid, key: 'empty', categories: [] });
      assert.equal(empty.statusCode, 422);
      assert.equal(empty.json().detail[0].type, 'too_short');
      assert.equal(await count(), before);
    });

    it('takes an endpoint of its own workspace; one of another workspace, or none, is a 422 on endpoint_id', async () => {
      const own = await insertEndpoint(db(), 'acme');
      const foreign = await insertEndpoint(db(), 'globex');
      const before = await count();
      for (const endpoint of [foreign, 'ep_01JZZZZZZZZZZZZZZZZZZZZZZZ']) {
        const res = await post({ ...valid, key: 'hooked', endpoint_id: endpoint });
        assert.equal(res.statusCode, 422, res.body);
        assert.deepEqual(res.json().detail[0].loc, ['body', 'endpoint_id']);
        assert.equal(res.json().detail[0].type, 'value_error');
      }
      assert.equal(await count(), before);
      const ok = await post({ ...valid, key: 'hooked', endpoint_id: own });
      assert.equal(ok.statusCode, 201, ok.body);
      assert.equal(ok.json().endpoint_id, own);
    });

    it('outside the token’s workspaces: 403 on create, 404 on read, change and delete; without admin: 403', async () => {
      const sys = await addSystem(f.t, admin, { key: 'private-one' });
      const other = await f.t.bearer(['admin'], ['globex']);
      assert.equal((await post({ ...valid, key: 'x1' }, other)).statusCode, 403);
      for (const method of ['GET', 'DELETE'] as const)
        assert.equal(
          (await f.t.app.inject({ method, url: `/api/v1/data-systems/${sys.id}`, headers: { authorization: other } })).statusCode,
          404,
        );
      const patch = await f.t.app.inject({
        method: 'PATCH',
        url: `/api/v1/data-systems/${sys.id}`,
        headers: { authorization: other },
        payload: { name: 'x' },
      });
      assert.equal(patch.statusCode, 404);
      const reader = await f.t.bearer(['privacy:read', 'tasks:write'], ['acme']);
      assert.equal((await post({ ...valid, key: 'x2' }, reader)).statusCode, 403);
      const list = await f.t.app.inject({ method: 'GET', url: '/api/v1/data-systems', headers: { authorization: other } });
      assert.deepEqual(list.json().items, []);
    });

    it('changes a system (null clears endpoint and due days; bad values are 422 and change nothing); delete hides it and keeps its key', async () => {
      const endpoint = await insertEndpoint(db(), 'acme');
      const sys = await addSystem(f.t, admin, { key: 'analytics', endpoint_id: endpoint, due_days: 5 });
      const url = `/api/v1/data-systems/${sys.id}`;
      const patch = (payload: object) => f.t.app.inject({ method: 'PATCH', url, headers: { authorization: admin }, payload });
      const bad = await patch({ name: 'Renamed', due_days: 'soon', endpoint_id: 7 });
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(
        (bad.json().detail as { type: string; loc: unknown[] }[]).map((d) => [d.type, d.loc]),
        [
          ['string_type', ['body', 'endpoint_id']],
          ['int_type', ['body', 'due_days']],
        ],
      );
      const unchanged = await f.t.app.inject({ method: 'GET', url, headers: { authorization: admin } });
      assert.equal(unchanged.json().name, 'A system');
      const ok = await patch({ name: 'Renamed', endpoint_id: null, due_days: null, categories: ['user.content'] });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(
        [ok.json().name, ok.json().endpoint_id, ok.json().due_days, ok.json().categories],
        ['Renamed', null, null, ['user.content']],
      );
      const removed = await f.t.app.inject({ method: 'DELETE', url, headers: { authorization: admin } });
      assert.equal(removed.statusCode, 204);
      assert.equal((await f.t.app.inject({ method: 'GET', url, headers: { authorization: admin } })).statusCode, 404);
      assert.equal((await f.t.app.inject({ method: 'DELETE', url, headers: { authorization: admin } })).statusCode, 404);
      const list = await f.t.app.inject({
        method: 'GET',
        url: '/api/v1/data-systems?workspace_id=acme',
        headers: { authorization: admin },
      });
      assert.ok(!list.json().items.some((s: { key: string }) => s.key === 'analytics'));
      assert.equal((await post({ ...valid, key: 'analytics' })).statusCode, 409);
      const row = await db().selectFrom('data_systems').select('deleted_at').where('id', '=', sys.id).executeTakeFirstOrThrow();
      assert.ok(row.deleted_at);
    });
  });
}
