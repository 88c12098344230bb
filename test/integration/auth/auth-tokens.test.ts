/**
 * Authentication and authorization with API tokens (PRODUCT.md §2.1–2.2), through real HTTP
 * (`app.inject`): 401 shapes and `WWW-Authenticate`, scopes (`admin` implies all), workspaces
 * (403 outside them, 404 for another workspace's request ids), and that a rejected create writes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const REQUESTS = '/api/v1/privacy/requests';
const POLICY = '/api/v1/policies/effective';

let seq = 0;
function createBody(workspace_id: string): Record<string, unknown> {
  seq += 1;
  return {
    request_type: 'access',
    scope: ['user'],
    subject_id: `subject-${seq}`,
    subject_provider: 'github',
    workspace_id,
    client_request_id: `client-request-${seq}`,
    intake_ref: `ticket-${seq}`,
  };
}

function assert401(response: LightMyRequestResponse, detail: string): void {
  assert.equal(response.statusCode, 401, response.body);
  assert.deepEqual(response.json(), { detail });
  assert.equal(response.headers['www-authenticate'], 'Bearer');
}

function assert403(response: LightMyRequestResponse): void {
  assert.equal(response.statusCode, 403, response.body);
  const body = response.json() as { detail: unknown };
  assert.deepEqual(Object.keys(body), ['detail']);
  assert.equal(typeof body.detail, 'string');
}

for (const d of dialects()) {
  describe(d.name, () => {
    let database: TestDatabase;
    let t: TestApp;
    before(async () => {
      database = await d.create();
      t = await startTestApp(database);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    const create = (authorization: string | undefined, body: unknown, key = `key-${++seq}-abcdefgh`) =>
      t.app.inject({
        method: 'POST',
        url: REQUESTS,
        headers: { 'idempotency-key': key, ...(authorization === undefined ? {} : { authorization }) },
        payload: body as Record<string, unknown>,
      });
    const get = (url: string, authorization?: string) =>
      t.app.inject({ method: 'GET', url, headers: authorization === undefined ? {} : { authorization } });
    const policyUrl = (workspace: string) => `${POLICY}?workspace_id=${workspace}&repository=octo/app`;

    describe('401', () => {
      it('no Authorization header: Not authenticated, on every /api/v1 route', async () => {
        assert401(await get(policyUrl('acme')), 'Not authenticated');
        assert401(await get(`${REQUESTS}?workspace_id=acme`), 'Not authenticated');
        assert401(await create(undefined, createBody('acme')), 'Not authenticated');
      });

      it('a non-Bearer scheme: Not authenticated, even when it carries a valid token', async () => {
        const token = (await t.bearer(['admin'], ['*'])).slice('Bearer '.length);
        assert401(await get(policyUrl('acme'), `Basic ${Buffer.from('user:pass').toString('base64')}`), 'Not authenticated');
        assert401(await get(policyUrl('acme'), `Token ${token}`), 'Not authenticated');
        assert401(await get(policyUrl('acme'), token), 'Not authenticated');
        assert401(await get(policyUrl('acme'), 'Bearer'), 'Not authenticated');
      });

      it('an unknown pcs_ token: Invalid authentication credentials', async () => {
        assert401(
          await get(policyUrl('acme'), 'Bearer pcs_thisTokenWasNeverIssuedAAAAAAAAAAAAAAAAAAAAAA'),
          'Invalid authentication credentials',
        );
        assert401(await get(policyUrl('acme'), 'Bearer not-a-pcs-token'), 'Invalid authentication credentials');
      });

      it('a valid token with a character changed is rejected (the hash is compared, not a prefix)', async () => {
        const valid = await t.bearer(['policy:read']);
        assert.equal((await get(policyUrl('acme'), valid)).statusCode, 200);
        const last = valid.at(-1) === 'A' ? 'B' : 'A';
        assert401(await get(policyUrl('acme'), valid.slice(0, -1) + last), 'Invalid authentication credentials');
      });

      it('a revoked token: 401 Invalid authentication credentials', async () => {
        const { id, token } = await t.services.tokens.create({
          name: 'to-revoke',
          scopes: ['policy:read'],
          workspaces: ['acme'],
          actor: 'test',
        });
        assert.equal((await get(policyUrl('acme'), `Bearer ${token}`)).statusCode, 200);
        assert.equal(await t.services.tokens.revoke(id, 'test'), true);
        assert401(await get(policyUrl('acme'), `Bearer ${token}`), 'Invalid authentication credentials');
      });
    });

    describe('scopes', () => {
      it('the Bearer scheme is case-insensitive (RFC 6750 / RFC 9110 §11.1)', async () => {
        const token = (await t.bearer(['policy:read'])).slice('Bearer '.length);
        assert.equal((await get(policyUrl('acme'), `bearer ${token}`)).statusCode, 200);
      });

      it('a token lacking the route scope gets 403', async () => {
        const policyOnly = await t.bearer(['policy:read']);
        assert403(await create(policyOnly, createBody('acme')));
        assert403(await get(`${REQUESTS}?workspace_id=acme`, policyOnly));
        const privacyOnly = await t.bearer(['privacy:read', 'privacy:write']);
        assert403(await get(policyUrl('acme'), privacyOnly));
      });

      it('the scope is checked before the body: a wrong-scope token with an invalid body gets 403, not 422', async () => {
        assert403(await create(await t.bearer(['privacy:read']), { nonsense: true }));
      });

      it('admin implies every scope', async () => {
        const admin = await t.bearer(['admin']);
        assert.equal((await get(policyUrl('acme'), admin)).statusCode, 200);
        const created = await create(admin, createBody('acme'));
        assert.equal(created.statusCode, 202, created.body);
        const listed = await get(`${REQUESTS}?workspace_id=acme`, admin);
        assert.equal(listed.statusCode, 200);
        assert.ok((listed.json() as { items: { id: string }[] }).items.some((r) => r.id === created.json().id));
      });
    });

    describe('workspaces', () => {
      it('a token for "acme" used with workspace_id "other": 403 on create, list and effective policy', async () => {
        const acme = await t.bearer(['privacy:write', 'privacy:read', 'policy:read'], ['acme']);
        assert403(await create(acme, createBody('other')));
        assert403(await get(`${REQUESTS}?workspace_id=other`, acme));
        assert403(await get(policyUrl('other'), acme));
        // Positive control: the same token works in its own workspace.
        assert.equal((await create(acme, createBody('acme'))).statusCode, 202);
        assert.equal((await get(`${REQUESTS}?workspace_id=acme`, acme)).statusCode, 200);
        assert.equal((await get(policyUrl('acme'), acme)).statusCode, 200);
      });

      it('a token with several workspaces covers exactly those', async () => {
        const two = await t.bearer(['policy:read'], ['acme', 'beta']);
        assert.equal((await get(policyUrl('acme'), two)).statusCode, 200);
        assert.equal((await get(policyUrl('beta'), two)).statusCode, 200);
        assert403(await get(policyUrl('gamma'), two));
      });

      it('a "*" token reaches every workspace', async () => {
        const star = await t.bearer(['privacy:write', 'privacy:read', 'policy:read'], ['*']);
        for (const ws of ['acme', 'other', 'zeta-42']) {
          const created = await create(star, createBody(ws));
          assert.equal(created.statusCode, 202, created.body);
          assert.equal(created.json().workspace_id, ws);
          assert.equal((await get(`${REQUESTS}?workspace_id=${ws}`, star)).statusCode, 200);
          assert.equal((await get(policyUrl(ws), star)).statusCode, 200);
        }
      });

      it("GET of another workspace's request id is 404, the same answer as an id that does not exist", async () => {
        const star = await t.bearer(['privacy:write', 'privacy:read'], ['*']);
        const acme = await t.bearer(['privacy:read'], ['acme']);
        const inOther = await create(star, createBody('other'));
        const inAcme = await create(star, createBody('acme'));
        assert.equal(inOther.statusCode, 202);
        assert.equal(inAcme.statusCode, 202);
        assert.equal((await get(`${REQUESTS}/${inAcme.json().id}`, acme)).statusCode, 200);
        assert.equal((await get(`${REQUESTS}/${inOther.json().id}`, star)).statusCode, 200);
        const hidden = await get(`${REQUESTS}/${inOther.json().id}`, acme);
        const missing = await get(`${REQUESTS}/pr_01JZZZZZZZZZZZZZZZZZZZZZZZ`, acme);
        assert.equal(hidden.statusCode, 404);
        assert.equal(missing.statusCode, 404);
        assert.deepEqual(hidden.json(), missing.json());
        assert.equal(typeof hidden.json().detail, 'string');
      });
    });

    it('a rejected create (401, 403, 422) writes nothing', async () => {
      const { db } = t.services.database;
      await db.deleteFrom('privacy_requests').execute();
      await db.deleteFrom('idempotency_records').execute();
      const revoked = await t.services.tokens.create({
        name: 'revoked',
        scopes: ['privacy:write'],
        workspaces: ['acme'],
        actor: 'test',
      });
      await t.services.tokens.revoke(revoked.id, 'test');
      const writer = await t.bearer(['privacy:write'], ['acme']);
      const readOnly = await t.bearer(['privacy:read', 'policy:read'], ['*']);
      const auditBefore = await db.selectFrom('audit_events').select('id').execute();

      const attempts: [number, LightMyRequestResponse][] = [
        [401, await create(undefined, createBody('acme'))],
        [401, await create('Basic dXNlcjpwYXNz', createBody('acme'))],
        [401, await create('Bearer pcs_unknownUnknownUnknownUnknownUnknown', createBody('acme'))],
        [401, await create(`Bearer ${revoked.token}`, createBody('acme'))],
        [403, await create(readOnly, createBody('acme'))],
        [403, await create(writer, createBody('other'))],
        [422, await create(writer, { ...createBody('acme'), request_type: 'erase-everything' })],
        [422, await create(writer, createBody('acme'), 'short')],
        [422, await create(writer, { ...createBody('other'), scope: [] })],
      ];
      for (const [status, response] of attempts) assert.equal(response.statusCode, status, response.body);

      assert.deepEqual(await db.selectFrom('privacy_requests').selectAll().execute(), []);
      assert.deepEqual(await db.selectFrom('idempotency_records').selectAll().execute(), []);
      assert.equal((await db.selectFrom('audit_events').select('id').execute()).length, auditBefore.length);
      // Control: the same writer with a valid body does write, so the checks above can fail.
      assert.equal((await create(writer, createBody('acme'))).statusCode, 202);
      assert.equal((await db.selectFrom('privacy_requests').selectAll().execute()).length, 1);
    });
  });
}
