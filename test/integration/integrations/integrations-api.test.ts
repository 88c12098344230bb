/**
 * Integrations (PRODUCT.md §2.5) through `app.inject` on a real database, once per dialect:
 * scope `admin`, workspaces, per-kind required fields (FastAPI-shaped 422s), one integration per
 * namespace (409), secrets never returned and never stored in plaintext, audit events.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const BASE = '/api/v1/integrations';
const GITHUB_SECRET = 'gh-hook-secret-7f3a9c1e';
const GITLAB_SECRET = 'gl-hook-token-52b8d0e4';
const STANDARD_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const WORKOS_SECRET = 'workos: any text, not base64!';
const BAD_STANDARD_SECRET = 'not base64 at all!! 9d2c';
const ALL_SECRETS = [GITHUB_SECRET, GITLAB_SECRET, STANDARD_SECRET, WORKOS_SECRET, BAD_STANDARD_SECRET];
const RESOURCE_KEYS = ['created_at', 'format', 'id', 'kind', 'namespace', 'subject_provider', 'webhook_path', 'workspace_id'];

type Overrides = Record<string, unknown>;
const github = (o: Overrides = {}) => ({
  kind: 'github',
  workspace_id: 'acme',
  namespace: 'Octo-Org',
  secret: GITHUB_SECRET,
  ...o,
});
const gitlab = (o: Overrides = {}) => ({
  kind: 'gitlab',
  workspace_id: 'acme',
  namespace: 'Platform/Backend',
  secret: GITLAB_SECRET,
  ...o,
});
const identity = (o: Overrides = {}) => ({
  kind: 'identity',
  workspace_id: 'acme',
  format: 'standard',
  subject_provider: 'clerk',
  secret: STANDARD_SECRET,
  ...o,
});
const idsOf = (response: LightMyRequestResponse) => (response.json().items as { id: string }[]).map((i) => i.id);

/** No response may carry a secret, under any name. */
function assertNoSecret(response: LightMyRequestResponse): void {
  for (const secret of ALL_SECRETS) assert.ok(!response.body.includes(secret), `response leaks a secret: ${response.body}`);
  assert.ok(!/secret_(hash|ciphertext)|"secret"/.test(response.body), `response names a secret field: ${response.body}`);
}

function assertDetail(response: LightMyRequestResponse, status: number): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(typeof (response.json() as { detail: unknown }).detail, 'string');
}

for (const dialect of dialects()) {
  describe(`integrations API (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    let adminId: string;
    let everywhere: string;
    const ids: Record<string, string> = {};

    const post = (authorization: string, payload: object) =>
      t.app.inject({ method: 'POST', url: BASE, headers: { authorization }, payload });
    const get = (authorization: string, url: string) => t.app.inject({ method: 'GET', url, headers: { authorization } });
    const del = (authorization: string, id: string) =>
      t.app.inject({ method: 'DELETE', url: `${BASE}/${id}`, headers: { authorization } });
    const db = () => t.services.database.db;
    const counts = async () => ({
      integrations: (await db().selectFrom('integrations').select('id').execute()).length,
      audit: (await db().selectFrom('audit_events').select('id').execute()).length,
    });

    /** Posts a body that must be created; returns the resource. */
    async function created(payload: object) {
      const res = await post(admin, payload);
      assert.equal(res.statusCode, 201, res.body);
      assertNoSecret(res);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), RESOURCE_KEYS);
      assert.match(body.id, /^int_/);
      assert.equal(res.headers.location, `${BASE}/${body.id}`);
      return body;
    }

    /** Posts a body that must be refused with one 422 item; returns it. */
    async function invalid(payload: object) {
      const res = await post(admin, payload);
      assert.equal(res.statusCode, 422, res.body);
      const { detail } = res.json();
      assert.equal(detail.length, 1, res.body);
      return detail[0];
    }

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      admin = await t.bearer(['admin'], ['acme']);
      adminId = (await t.services.tokens.authenticate(admin.slice('Bearer '.length)))?.id ?? '';
      assert.match(adminId, /^token:/);
      everywhere = await t.bearer(['admin'], ['*']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('requires the admin scope: 403 with privacy:write only, 401 without a token', async () => {
      const writer = await t.bearer(['privacy:write', 'privacy:read', 'policy:write'], ['acme']);
      const before = await counts();
      assert.equal(before.integrations, 0);
      assertDetail(await post(writer, github()), 403);
      assertDetail(await get(writer, BASE), 403);
      assertDetail(await get(writer, `${BASE}/int_x`), 403);
      assertDetail(await del(writer, 'int_x'), 403);
      assert.equal((await t.app.inject({ method: 'POST', url: BASE, payload: github() })).statusCode, 401);
      assert.deepEqual(await counts(), before);
    });

    it('creates a github integration: 201, Location, no secret, namespace lower-cased', async () => {
      const body = await created(github({ format: 'clerk', subject_provider: 'ignored' }));
      const { id, created_at, ...rest } = body;
      const expected = { kind: 'github', workspace_id: 'acme', namespace: 'octo-org', format: null, subject_provider: null };
      assert.deepEqual(rest, { ...expected, webhook_path: '/webhook/prhost' });
      assert.ok(!Number.isNaN(Date.parse(created_at)));
      ids.github = id;
    });

    it('creates a gitlab integration for a group path', async () => {
      const body = await created(gitlab());
      assert.equal(body.namespace, 'platform/backend');
      assert.equal(body.webhook_path, '/webhook/mrhost');
      ids.gitlab = body.id;
    });

    it('creates identity integrations: standard with a whsec_ secret, workos with any secret', async () => {
      const standard = await created(identity({ namespace: 'ignored' }));
      assert.deepEqual(
        [standard.namespace, standard.format, standard.subject_provider, standard.webhook_path],
        [null, 'standard', 'clerk', `/webhook/identity?integration=${standard.id}`],
      );
      const workos = await created(identity({ format: 'workos', subject_provider: 'workos', secret: WORKOS_SECRET }));
      assert.equal(workos.format, 'workos');
      ids.standard = standard.id;
      ids.workos = workos.id;
    });

    it('refuses a code-host integration without namespace: 422 missing at body.namespace', async () => {
      const before = await counts();
      for (const kind of ['github', 'gitlab']) {
        const item = await invalid({ kind, workspace_id: 'acme', secret: GITHUB_SECRET });
        assert.equal(item.type, 'missing');
        assert.deepEqual(item.loc, ['body', 'namespace']);
        assert.equal(item.msg, 'Field required');
      }
      assert.deepEqual(await counts(), before);
    });

    it('refuses an identity integration without format or subject_provider: 422 missing', async () => {
      const before = await counts();
      const noFormat = await invalid(identity({ format: undefined }));
      assert.deepEqual([noFormat.type, noFormat.loc], ['missing', ['body', 'format']]);
      const noProvider = await invalid(identity({ format: 'clerk', subject_provider: undefined }));
      assert.deepEqual([noProvider.type, noProvider.loc], ['missing', ['body', 'subject_provider']]);
      assert.deepEqual(await counts(), before);
    });

    it('refuses a non-base64 secret for standard and clerk: 422 value_error without the secret', async () => {
      const before = await counts();
      for (const format of ['standard', 'clerk']) {
        const res = await post(admin, identity({ format, secret: BAD_STANDARD_SECRET }));
        assert.equal(res.statusCode, 422, res.body);
        assert.ok(!res.body.includes(BAD_STANDARD_SECRET), `422 echoes the secret: ${res.body}`);
        const [item, ...rest] = res.json().detail;
        assert.equal(rest.length, 0);
        assert.equal(item.type, 'value_error');
        assert.deepEqual(item.loc, ['body', 'secret']);
        assert.match(item.msg, /^Value error, /);
        assert.ok(!JSON.stringify(item.input).includes(BAD_STANDARD_SECRET));
      }
      assert.deepEqual(await counts(), before);
    });

    it('allows one integration per namespace and kind in a workspace, in any case: 409 for a second', async () => {
      const before = await counts();
      for (const namespace of ['octo-org', 'OCTO-ORG']) {
        const res = await post(admin, github({ namespace, secret: 'another-secret-123' }));
        assertDetail(res, 409);
        assert.equal(res.json().detail, 'This workspace already has an integration of kind github for this namespace');
        assertNoSecret(res);
      }
      assertDetail(await post(admin, gitlab({ namespace: 'platform/BACKEND', secret: 'x-token-000000' })), 409);
      assert.deepEqual(await counts(), before, 'a refused create writes neither an integration nor an audit event');
      // Issue 11: another workspace may register the same namespace (deliveries go to the one
      // whose secret verifies), and is told nothing about the first.
      const otherTenant = await post(everywhere, github({ workspace_id: 'other', namespace: 'Octo-org' }));
      assert.equal(otherTenant.statusCode, 201, otherTenant.body);
      assert.ok(!otherTenant.body.includes(ids.github ?? 'x') && !otherTenant.body.includes('"acme"'));
      ids.otherOcto = otherTenant.json().id;
      // The same namespace under another kind is another source.
      ids.gitlabOcto = (await created(gitlab({ namespace: 'octo-org' }))).id;
    });

    it('answers 403 to a token creating outside its workspaces, and writes nothing', async () => {
      const before = await counts();
      assertDetail(await post(admin, github({ workspace_id: 'other', namespace: 'other-org' })), 403);
      assert.deepEqual(await counts(), before);
      ids.other = (await post(everywhere, github({ workspace_id: 'other', namespace: 'Other-Org' }))).json().id;
      assert.match(ids.other ?? '', /^int_/);
    });

    it('lists by workspace filter and by the token workspaces, never a secret', async () => {
      const mine = await get(admin, BASE);
      assert.equal(mine.statusCode, 200, mine.body);
      assertNoSecret(mine);
      const acmeIds = [ids.github, ids.gitlab, ids.standard, ids.workos, ids.gitlabOcto];
      assert.deepEqual(idsOf(mine), acmeIds, 'oldest first, acme only');
      assert.deepEqual(idsOf(await get(admin, `${BASE}?workspace_id=acme`)), acmeIds);
      assertDetail(await get(admin, `${BASE}?workspace_id=other`), 403);
      const all = await get(everywhere, BASE);
      assertNoSecret(all);
      assert.deepEqual(idsOf(all), [ids.github, ids.gitlab, ids.standard, ids.workos, ids.otherOcto, ids.gitlabOcto, ids.other]);
      assert.deepEqual(idsOf(await get(everywhere, `${BASE}?workspace_id=other`)), [ids.otherOcto, ids.other]);
      assert.deepEqual((await get(everywhere, `${BASE}?workspace_id=nobody`)).json(), { items: [] });
    });

    it('reads one integration; 404 outside the token workspaces or when unknown', async () => {
      const one = await get(admin, `${BASE}/${ids.github}`);
      assert.equal(one.statusCode, 200);
      assertNoSecret(one);
      assert.equal(one.json().namespace, 'octo-org');
      assertDetail(await get(admin, `${BASE}/${ids.other}`), 404);
      assertDetail(await get(admin, `${BASE}/int_00000000000000000000000000`), 404);
      assert.equal((await get(everywhere, `${BASE}/${ids.other}`)).statusCode, 200);
    });

    it('stores secrets only encrypted (github, identity) or hashed (gitlab)', async () => {
      const rows = await db().selectFrom('integrations').selectAll().execute();
      const row = (id: string | undefined) => {
        const found = rows.find((r) => r.id === id);
        assert.ok(found, `row ${id}`);
        return found;
      };
      const gh = row(ids.github);
      assert.equal(gh.secret_hash, null);
      assert.match(gh.secret_ciphertext ?? '', /^v1\./);
      const gl = row(ids.gitlab);
      assert.equal(gl.secret_ciphertext, null);
      assert.equal(gl.secret_hash, createHash('sha256').update(GITLAB_SECRET).digest('hex'));
      for (const id of [ids.standard, ids.workos]) assert.match(row(id).secret_ciphertext ?? '', /^v1\./);
      const stored = JSON.stringify(rows);
      for (const secret of ALL_SECRETS) {
        for (const form of [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url')]) {
          assert.ok(!stored.includes(form), `a row holds a secret in plain or base64: ${secret}`);
        }
      }
      // Sealed, not lost: a delivery recovers the HMAC secrets.
      assert.equal((await t.services.integrations.forDelivery('github', { integrationId: ids.github }))?.secret, GITHUB_SECRET);
      assert.equal(
        (await t.services.integrations.forDelivery('identity', { integrationId: ids.standard }))?.secret,
        STANDARD_SECRET,
      );
    });

    it('deletes: 404 outside the token workspaces, 204, then 404', async () => {
      assertDetail(await del(admin, ids.other ?? ''), 404);
      assert.equal((await get(everywhere, `${BASE}/${ids.other}`)).statusCode, 200, 'still there');
      const res = await del(admin, ids.workos ?? '');
      assert.equal(res.statusCode, 204, res.body);
      assert.equal(res.body, '');
      assertDetail(await get(admin, `${BASE}/${ids.workos}`), 404);
      assertDetail(await del(admin, ids.workos ?? ''), 404);
      assert.ok(!idsOf(await get(admin, BASE)).includes(ids.workos ?? ''));
    });

    it('audits integration.created and integration.removed with the actor, and nothing else', async () => {
      const events = await db()
        .selectFrom('audit_events')
        .selectAll()
        .where('target_type', '=', 'integration')
        .orderBy('id')
        .execute();
      const summary = events.map((e) => [e.action, e.target_id, e.workspace_id]);
      assert.deepEqual(summary, [
        ['integration.created', ids.github, 'acme'],
        ['integration.created', ids.gitlab, 'acme'],
        ['integration.created', ids.standard, 'acme'],
        ['integration.created', ids.workos, 'acme'],
        ['integration.created', ids.otherOcto, 'other'],
        ['integration.created', ids.gitlabOcto, 'acme'],
        ['integration.created', ids.other, 'other'],
        ['integration.removed', ids.workos, 'acme'],
      ]);
      const everywhereId = (await t.services.tokens.authenticate(everywhere.slice('Bearer '.length)))?.id;
      assert.deepEqual(
        events.map((e) => e.actor),
        [adminId, adminId, adminId, adminId, everywhereId, adminId, everywhereId, adminId],
      );
      assert.deepEqual(JSON.parse(events[0]?.details ?? '{}'), { kind: 'github' });
      const audit = JSON.stringify(events);
      for (const secret of ALL_SECRETS) assert.ok(!audit.includes(secret));
    });
  });
}
