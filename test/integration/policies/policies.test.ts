/** Effective policy and its layers: stricter-wins merge, versions, ETag/304, audit (PRODUCT.md §2.4). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { EffectivePolicyResponse } from '../../../src/http/schemas/policy.schemas.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

for (const dialect of dialects()) {
  describe(`policies (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let auth: string;
    const effective = (repository: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/policies/effective?workspace_id=acme&repository=${encodeURIComponent(repository)}`,
        headers: { authorization: auth, ...headers },
      });
    const put = (path: string, payload: object) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/policies/workspaces/${path}`, headers: { authorization: auth }, payload });

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      auth = await t.bearer(['policy:read', 'policy:write'], ['acme']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('answers the defaults when no layer is set, with ETag and version', async () => {
      const res = await effective('acme/api');
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(body.policy, {
        processing_allowed: true,
        retention_days: 90,
        author_identity: 'pseudonymous',
        excluded_paths: [],
        regulations: ['gdpr'],
        require_approval: false,
        auto_erase_on_deprovision: false,
        confirm_no_data: true,
        holidays: [],
        repeat_window_days: 0,
        review_packages: false,
      });
      assert.ok(Object.values(body.sources).every((s) => s === 'default'));
      assert.equal(body.version, 'd5.w0.r0');
      assert.equal(res.headers.etag, '"d5.w0.r0"');
      assert.equal(body.repository, 'acme/api');
    });

    it('merges so that a repository can tighten but never loosen', async () => {
      assert.equal(
        (await put('acme', { processing_allowed: false, retention_days: 30, excluded_paths: ['vendor/**'] })).statusCode,
        200,
      );
      const repo = await put('acme/repositories/acme%2Fapi', {
        processing_allowed: true,
        retention_days: 365,
        author_identity: 'none',
        excluded_paths: ['secrets/**'],
        regulations: ['ccpa'],
      });
      assert.equal(repo.statusCode, 200, repo.body);
      assert.equal(repo.json().repository, 'acme/api');
      const body = (await effective('Acme/API')).json();
      assert.deepEqual(body.policy, {
        processing_allowed: false,
        retention_days: 30,
        author_identity: 'none',
        excluded_paths: ['vendor/**', 'secrets/**'],
        regulations: ['gdpr', 'ccpa'],
        require_approval: false,
        auto_erase_on_deprovision: false,
        confirm_no_data: true,
        holidays: [],
        repeat_window_days: 0,
        review_packages: false,
      });
      assert.deepEqual(body.sources, {
        processing_allowed: 'workspace',
        retention_days: 'workspace',
        author_identity: 'repository',
        excluded_paths: 'repository',
        regulations: 'repository',
        require_approval: 'default',
        auto_erase_on_deprovision: 'default',
        confirm_no_data: 'default',
        holidays: 'default',
        repeat_window_days: 'default',
        review_packages: 'default',
      });
      assert.equal(body.version, 'd5.w1.r1');
    });

    it('answers 304 to a matching If-None-Match, and 200 once a layer changes', async () => {
      const first = await effective('acme/api');
      const etag = first.headers.etag as string;
      const cached = await effective('acme/api', { 'if-none-match': etag });
      assert.equal(cached.statusCode, 304);
      assert.equal(cached.body, '');
      await put('acme', { processing_allowed: false, retention_days: 14 });
      const changed = await effective('acme/api', { 'if-none-match': etag });
      assert.equal(changed.statusCode, 200);
      assert.notEqual(changed.headers.etag, etag);
      assert.equal(changed.json().policy.retention_days, 14);
    });

    it('reads and deletes layers; versions never repeat after a delete', async () => {
      const layer = await t.app.inject({
        method: 'GET',
        url: '/api/v1/policies/workspaces/acme/repositories/acme%2Fapi',
        headers: { authorization: auth },
      });
      assert.equal(layer.statusCode, 200);
      assert.equal(layer.json().settings.author_identity, 'none');
      const del = await t.app.inject({
        method: 'DELETE',
        url: '/api/v1/policies/workspaces/acme/repositories/acme%2Fapi',
        headers: { authorization: auth },
      });
      assert.equal(del.statusCode, 204);
      const again = await t.app.inject({
        method: 'DELETE',
        url: '/api/v1/policies/workspaces/acme/repositories/acme%2Fapi',
        headers: { authorization: auth },
      });
      assert.equal(again.statusCode, 404);
      assert.equal((await effective('acme/api')).json().version, 'd5.w2.r0');
      const rewritten = await put('acme/repositories/acme%2Fapi', { retention_days: 7 });
      assert.equal(rewritten.json().version, 3, 'version 1 written, 2 deleted, 3 written');
      const missing = await t.app.inject({
        method: 'GET',
        url: '/api/v1/policies/workspaces/acme/repositories/acme%2Fnone',
        headers: { authorization: auth },
      });
      assert.equal(missing.statusCode, 404);
    });

    it('records every write as a version and an audit event with its actor', async () => {
      const versions = await t.services.database.db
        .selectFrom('policy_layer_versions')
        .selectAll()
        .where('repository', '=', 'acme/api')
        .orderBy('version')
        .execute();
      assert.deepEqual(
        versions.map((v) => [v.version, v.settings === null]),
        [
          [1, false],
          [2, true],
          [3, false],
        ],
      );
      const audit = await t.services.database.db
        .selectFrom('audit_events')
        .selectAll()
        .where('target_type', '=', 'policy_layer')
        .execute();
      assert.equal(audit.length, 5);
      assert.ok(audit.every((a) => a.actor.startsWith('token:tok_')));
    });

    it('gives each of 10 concurrent writes its own version', async () => {
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => put('concurrent', { retention_days: i + 1 })));
      assert.ok(
        results.every((r) => r.statusCode === 403),
        'the token does not cover workspace "concurrent"',
      );
      const admin = await t.bearer(['policy:write'], ['*']);
      const writes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.app.inject({
            method: 'PUT',
            url: '/api/v1/policies/workspaces/concurrent',
            headers: { authorization: admin },
            payload: { retention_days: i + 1 },
          }),
        ),
      );
      assert.deepEqual(
        writes.map((w) => w.statusCode),
        Array(10).fill(200),
      );
      assert.deepEqual(
        writes.map((w) => w.json().version).sort((a, b) => a - b),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      );
    });

    it("writes the body byte for byte as the route's response schema would, also after a layer changes", async () => {
      // The reference: Fastify's own serializer (fast-json-stringify) for the same response schema.
      const reference = Fastify();
      reference.post('/', { schema: { response: { 200: EffectivePolicyResponse } } }, async (request) => request.body);
      const serialized = async (body: string) =>
        (await reference.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: body }))
          .body;
      const check = async (repository: string) => {
        const res = await effective(repository);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(res.headers['content-length'], String(Buffer.byteLength(res.body)));
        assert.equal(res.body, await serialized(res.body));
        assert.equal(res.json().repository, repository);
        return res.json();
      };
      const odd = 'acme/"quoted"\\back\u0001ctl/Ünï\u2028code';
      const apiBefore = await check('acme/api');
      const before = await check(odd);
      await put('acme', { retention_days: 21, excluded_paths: ['a"b/**'] });
      const after = await check(odd);
      assert.notEqual(after.version, before.version);
      assert.equal(after.policy.retention_days, 21);
      assert.deepEqual(after.policy.excluded_paths, ['a"b/**']);
      assert.equal(after.sources.excluded_paths, 'workspace');
      const apiAfter = await check('acme/api');
      assert.notEqual(apiAfter.version, apiBefore.version);
      assert.ok(apiAfter.policy.excluded_paths.includes('a"b/**'));
      await reference.close();
    });

    it('cachedEffective answers only a cached merge, and a layer write drops it', async () => {
      const { policies } = t.services;
      assert.equal(policies.cachedEffective('acme', 'cache/probe'), undefined, 'nothing merged yet');
      const read = await policies.effective('acme', 'Cache/Probe');
      const cached = policies.cachedEffective('acme', 'cache/PROBE');
      assert.ok(cached);
      assert.equal(cached.repository, 'cache/PROBE');
      assert.equal(cached.version, read.version);
      assert.deepEqual(cached.policy, read.policy);
      await put('acme', { retention_days: 10 });
      assert.equal(policies.cachedEffective('acme', 'cache/probe'), undefined, 'the write cleared it');
      const after = await effective('cache/probe');
      assert.equal(after.json().policy.retention_days, 10);
      assert.equal(policies.cachedEffective('acme', 'cache/probe')?.version, after.json().version);
    });
  });
}
