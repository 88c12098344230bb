/** /healthz, /readyz, /metrics, /openapi.json, /docs and the 404 handler (PRODUCT.md §2.7). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

for (const dialect of dialects()) {
  describe(`operations (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('reports the process up and the database reachable', async () => {
      assert.deepEqual((await t.app.inject('/healthz')).json(), { status: 'ok' });
      const ready = await t.app.inject('/readyz');
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json(), { status: 'ready' });
    });

    it('answers 503 with Retry-After from /readyz once the database is gone', async () => {
      const other = await dialect.create();
      const broken = await startTestApp(other);
      await broken.services.database.close();
      const res = await broken.app.inject('/readyz');
      assert.equal(res.statusCode, 503);
      assert.equal(res.headers['retry-after'], '5');
      await broken.app.close();
      await other.drop();
    });

    it('exposes Prometheus metrics, including request durations by route', async () => {
      await t.app.inject('/healthz');
      const res = await t.app.inject('/metrics');
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.match(res.body, /http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} \d+/);
      assert.match(res.body, /process_resident_memory_bytes/);
    });

    it('serves an OpenAPI document generated from the route schemas, and the docs page', async () => {
      const doc = (await t.app.inject('/openapi.json')).json();
      assert.equal(doc.openapi.slice(0, 2), '3.');
      const create = doc.paths['/api/v1/privacy/requests'].post;
      const body = create.requestBody.content['application/json'].schema;
      assert.deepEqual(body.properties.client_request_id, { type: 'string', minLength: 8, maxLength: 200 });
      assert.ok(create.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'idempotency-key'));
      assert.ok(doc.paths['/api/v1/policies/effective'].get);
      const docs = await t.app.inject('/docs/');
      assert.equal(docs.statusCode, 200);
      assert.match(docs.body, /swagger/i);
    });

    it('answers unknown routes with 404 in the error shape', async () => {
      const res = await t.app.inject('/nope');
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { detail: 'Not Found' });
    });
  });
}
