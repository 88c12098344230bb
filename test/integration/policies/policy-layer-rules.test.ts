/**
 * Policy layers (issue 11, items 2 and 15): the set fields refuse `[]` (regulations) and
 * duplicates (422 as Pydantic renders them), unknown fields are `extra_forbidden`; a layer stored
 * before those rules (or any odd stored JSON) never turns a create or an identity webhook's
 * auto-erasure into a 5xx; and over arbitrary valid layers, create never answers 5xx.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { upsertLayer } from '../../../src/modules/policies/policy.repository.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { canonicalEvent, newStandardSecret, postIdentity, standardHeaders } from '../../helpers/identity-webhooks.js';
import { createBody } from '../../helpers/requests.js';

const LIST_TOO_SHORT = {
  type: 'too_short',
  loc: ['body', 'regulations'],
  msg: 'List should have at least 1 item after validation, not 0',
  input: [],
  ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
};

for (const dialect of dialects()) {
  describe(`policy layer rules (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let auth: string;
    let n = 0;
    const put = (path: string, payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/policies/workspaces/${path}`,
        headers: { authorization: auth, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    const create = (workspace: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: auth, 'idempotency-key': `policy-rules-${++n}` },
        payload: createBody({ workspace_id: workspace, client_request_id: `policy-rules-${n}` }),
      });
    const versions = async (workspace: string) =>
      (
        await t.services.database.db
          .selectFrom('policy_layer_versions')
          .select('version')
          .where('workspace_id', '=', workspace)
          .execute()
      ).length;
    /** A layer written as it could be before these rules: straight into the table. */
    const storeRaw = (workspace: string, repository: string, settings: string) =>
      upsertLayer(t.services.database.db, {
        workspace_id: workspace,
        repository,
        settings,
        version: 1,
        updated_at: '2026-01-01T00:00:00.000Z',
        updated_by: 'before-the-fix',
      });

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      auth = await t.bearer(['privacy:write', 'privacy:read', 'policy:read', 'policy:write'], ['*']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('refuses regulations [] and duplicates in either set field, storing nothing', async () => {
      const cases: [unknown, unknown[]][] = [
        [{ regulations: [] }, [LIST_TOO_SHORT]],
        [
          { regulations: ['ccpa', 'ccpa'] },
          [{ type: 'list_unique', loc: ['body', 'regulations'], msg: 'List should have unique items', input: ['ccpa', 'ccpa'] }],
        ],
        [
          { excluded_paths: ['vendor/', 'docs/', 'vendor/'], retention_days: 30 },
          [
            {
              type: 'list_unique',
              loc: ['body', 'excluded_paths'],
              msg: 'List should have unique items',
              input: ['vendor/', 'docs/', 'vendor/'],
            },
          ],
        ],
      ];
      for (const path of ['beta', 'beta/repositories/octo%2Fapp']) {
        for (const [body, detail] of cases) {
          const res = await put(path, body);
          assert.equal(res.statusCode, 422, `${path} ${JSON.stringify(body)}: ${res.body}`);
          assert.deepEqual(res.json(), { detail });
        }
      }
      assert.equal(await versions('beta'), 0);
      assert.equal((await create('beta')).statusCode, 202);
    });

    it('accepts an empty excluded_paths (the default) and distinct items', async () => {
      const res = await put('gamma', { excluded_paths: [], regulations: ['ccpa', 'gdpr'] });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().settings, { excluded_paths: [], regulations: ['ccpa', 'gdpr'] });
    });

    it('refuses unknown fields (extra_forbidden): a typo does not replace the layer', async () => {
      assert.equal((await put('delta', { retention_days: 30 })).statusCode, 200);
      const res = await put('delta', { retension_days: 7 });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(res.json(), {
        detail: [{ type: 'extra_forbidden', loc: ['body', 'retension_days'], msg: 'Extra inputs are not permitted', input: 7 }],
      });
      const layer = await t.app.inject({ url: '/api/v1/policies/workspaces/delta', headers: { authorization: auth } });
      assert.deepEqual(layer.json().settings, { retention_days: 30 });
      assert.equal(layer.json().version, 1);
    });

    it('a stored regulations [] (written before the fix) is absent: create gets the default GDPR deadline', async () => {
      await storeRaw('legacy', '', JSON.stringify({ regulations: [], require_approval: true }));
      const res = await create('legacy');
      assert.equal(res.statusCode, 202, res.body);
      assert.equal(res.json().regulation, 'gdpr');
      assert.equal(res.json().status, 'pending_approval', 'the valid fields of that layer still apply');
      const effective = await t.app.inject({
        url: '/api/v1/policies/effective?workspace_id=legacy&repository=octo/app',
        headers: { authorization: auth },
      });
      assert.equal(effective.statusCode, 200, effective.body);
      assert.deepEqual(effective.json().policy.regulations, ['gdpr']);
      assert.equal(effective.json().sources.regulations, 'default');
      assert.equal(effective.json().sources.require_approval, 'workspace');
      const layer = await t.app.inject({ url: '/api/v1/policies/workspaces/legacy', headers: { authorization: auth } });
      assert.equal(layer.statusCode, 200, layer.body);
      assert.deepEqual(layer.json().settings, { require_approval: true });
    });

    it('odd stored JSON in either layer never makes create, effective or a layer read a 5xx', async () => {
      const odd = [
        '{"regulations":"gdpr","retention_days":"30"}',
        '{"regulations":["hipaa"],"excluded_paths":[null,5],"author_identity":7}',
        '[1,2]',
        'null',
        'not json',
        '{"retension_days":7,"regulations":[]}',
      ];
      for (const [i, text] of odd.entries()) {
        const workspace = `odd-${i}`;
        await storeRaw(workspace, '', text);
        await storeRaw(workspace, 'octo/app', text);
        const res = await create(workspace);
        assert.equal(res.statusCode, 202, `${text}: ${res.body}`);
        assert.equal(res.json().regulation, 'gdpr', text);
        for (const url of [
          `/api/v1/policies/effective?workspace_id=${workspace}&repository=octo/app`,
          `/api/v1/policies/workspaces/${workspace}`,
          `/api/v1/policies/workspaces/${workspace}/repositories/octo%2Fapp`,
        ]) {
          const read = await t.app.inject({ url, headers: { authorization: auth } });
          assert.equal(read.statusCode, 200, `${text} ${url}: ${read.body}`);
        }
      }
    });

    it("the identity webhook's auto-erasure files its deletion under a stored regulations []", async () => {
      const secret = newStandardSecret();
      const integration = await t.services.integrations.create(
        { kind: 'identity', workspace_id: 'erasing', format: 'standard', subject_provider: 'okta', secret },
        'test',
      );
      await storeRaw('erasing', '', JSON.stringify({ auto_erase_on_deprovision: true, regulations: [] }));
      const send = (body: string, id: string) => postIdentity(t, body, standardHeaders(secret, id, body), integration.id);
      const created = canonicalEvent('evt_l1', 'user.created', '2026-02-01T00:00:00Z', {
        user_id: 'u_l',
        email: 'l@example.com',
      });
      assert.equal((await send(created, 'msg_l1')).statusCode, 200);
      const deleted = canonicalEvent('evt_l2', 'user.deleted', '2026-02-02T00:00:00Z', { user_id: 'u_l' });
      const res = await send(deleted, 'msg_l2');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'accepted');
      const rows = await t.services.database.db
        .selectFrom('privacy_requests')
        .select(['request_type', 'regulation'])
        .where('workspace_id', '=', 'erasing')
        .execute();
      assert.deepEqual(rows, [{ request_type: 'deletion', regulation: 'gdpr' }]);
    });

    it('property: over arbitrary valid workspace and repository layers, create never answers 5xx', async () => {
      const paths = fc.uniqueArray(fc.constantFrom('vendor/**', 'docs/', '*.md', 'secrets/**', 'a'), { maxLength: 4 });
      const layer = fc.record(
        {
          processing_allowed: fc.boolean(),
          retention_days: fc.integer({ min: 1, max: 3650 }),
          author_identity: fc.constantFrom('full', 'pseudonymous', 'none'),
          excluded_paths: paths,
          regulations: fc.uniqueArray(fc.constantFrom('gdpr', 'ccpa'), { minLength: 1, maxLength: 2 }),
          require_approval: fc.boolean(),
          auto_erase_on_deprovision: fc.boolean(),
        },
        { requiredKeys: [] },
      );
      let run = 0;
      await fc.assert(
        fc.asyncProperty(layer, layer, async (workspaceLayer, repositoryLayer) => {
          const workspace = `prop-${++run}`;
          const w = await put(workspace, workspaceLayer);
          assert.equal(w.statusCode, 200, w.body);
          const r = await put(`${workspace}/repositories/octo%2Fapp`, repositoryLayer);
          assert.equal(r.statusCode, 200, r.body);
          const res = await create(workspace);
          assert.equal(res.statusCode, 202, res.body);
          const expected = [...new Set(workspaceLayer.regulations ?? ['gdpr'])].sort().join('+');
          assert.equal(res.json().regulation, expected);
          assert.equal(res.json().status, workspaceLayer.require_approval ? 'pending_approval' : 'queued');
          const effective = await t.app.inject({
            url: `/api/v1/policies/effective?workspace_id=${workspace}&repository=octo/app`,
            headers: { authorization: auth },
          });
          assert.equal(effective.statusCode, 200, effective.body);
          assert.ok(effective.json().policy.regulations.length > 0);
        }),
        { numRuns: 25 },
      );
    });
  });
}
