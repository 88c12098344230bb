/**
 * The OpenAPI document (PRODUCT.md §2.12; issue 11 item 17): every operation has an operationId,
 * a summary, a description and every status it can answer. CI also lints it with Redocly's
 * recommended ruleset (`npm run lint:openapi`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

type Operation = { operationId?: string; summary?: string; description?: string; responses?: Record<string, unknown> };

for (const dialect of dialects()) {
  describe(`OpenAPI document (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let paths: Record<string, Record<string, Operation>>;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      paths = (await t.app.inject('/openapi.json')).json().paths;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    const operations = () =>
      Object.entries(paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

    it('gives every operation a unique operationId, a summary and a description', () => {
      const ids = new Set<string>();
      for (const { path, method, op } of operations()) {
        assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${method} ${path}`);
        assert.ok(!ids.has(op.operationId!), `duplicate ${op.operationId}`);
        ids.add(op.operationId!);
        assert.ok(op.summary && op.description, `${method} ${path}: summary and description`);
      }
      assert.ok(ids.size >= 27, `${ids.size} operations`);
    });

    it('documents the statuses the routes answer', () => {
      const statuses = (path: string, method: string) => Object.keys(paths[path]?.[method]?.responses ?? {});
      assert.deepEqual(statuses('/api/v1/integrations/{id}', 'delete').includes('204'), true);
      assert.equal(statuses('/api/v1/integrations/{id}', 'delete').includes('200'), false, 'DELETE answers 204, not 200');
      assert.ok(statuses('/api/v1/policies/effective', 'get').includes('304'));
      for (const { path, method } of operations().filter((o) => o.path.startsWith('/api/v1')))
        for (const status of ['401', '403', '429', '503'])
          assert.ok(statuses(path, method).includes(status), `${method} ${path} ${status}`);
      for (const status of ['409', '413', '422'])
        assert.ok(statuses('/api/v1/privacy/requests', 'post').includes(status), status);
      const pkg = paths['/api/v1/privacy/requests/{id}/package']!.get!.responses!['200'] as {
        content: Record<string, { schema: { properties?: object } }>;
      };
      assert.ok(pkg.content['application/json']!.schema.properties, 'the package body has a schema');
      assert.ok(pkg.content['text/html'], 'the package route documents its readable letter (PRODUCT §2.11)');
      assert.ok(statuses('/api/v1/workspaces/{workspace_id}/controller', 'get').includes('404'));
      assert.ok(statuses('/api/v1/workspaces/{workspace_id}/controller', 'put').includes('422'));
    });

    it('keeps the answers the new response schemas cover byte for byte', async () => {
      assert.equal((await t.app.inject('/healthz')).body, '{"status":"ok"}');
      assert.equal((await t.app.inject('/readyz')).body, '{"status":"ready"}');
    });
  });
}
