/**
 * The edges of HTTP that used to bypass the API's error shape (issue 11 items 7, 8, 12, 18):
 * malformed and long URLs, a path that climbs out of /docs' static folder, 431 answers,
 * `METRICS_TOKEN`, and error sentences. Every error is `{"detail"}` with the security headers.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { captureLogs } from '../helpers/log-capture.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';
import { createBody } from '../helpers/requests.js';

const API_CSP = "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'";
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request whose path is sent exactly as given (no `..` resolution, as curl --path-as-is). */
function rawGet(port: number, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

for (const dialect of dialects()) {
  describe(`HTTP edges (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let port: number;
    let auth: string;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { env: { METRICS_TOKEN } });
      auth = await t.bearer(['admin'], ['*']);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as AddressInfo).port;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('answers a malformed percent-encoding with 400 {"detail"} and the security headers', async () => {
      const res = await t.app.inject({ url: '/api/v1/privacy/requests/%ff', headers: { authorization: auth } });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { detail: 'The request URL is malformed (invalid percent-encoding)' });
      assert.equal(res.headers['content-security-policy'], API_CSP);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    });

    it('gives a 101–200-character workspace a policy layer; over 200 is the schema 422, an absurd segment 414', async () => {
      const workspace = 'w'.repeat(150);
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/policies/workspaces/${workspace}`,
        headers: { authorization: auth },
        payload: { retention_days: 30 },
      });
      assert.equal(put.statusCode, 200, put.body);
      const get = await t.app.inject({ url: `/api/v1/policies/workspaces/${workspace}`, headers: { authorization: auth } });
      assert.equal(get.statusCode, 200, get.body);
      const tooLong = await t.app.inject({
        url: `/api/v1/policies/workspaces/${'w'.repeat(201)}`,
        headers: { authorization: auth },
      });
      assert.equal(tooLong.statusCode, 422, tooLong.body);
      assert.equal(tooLong.json().detail[0].type, 'string_too_long');
      const absurd = await t.app.inject({
        url: `/api/v1/policies/workspaces/${'w'.repeat(7000)}`,
        headers: { authorization: auth },
      });
      assert.equal(absurd.statusCode, 414);
      assert.deepEqual(absurd.json(), { detail: 'A path segment of the request URL is too long' });
      assert.equal(absurd.headers['content-security-policy'], API_CSP);
    });

    it('answers a path that climbs out of /docs/static with a 4xx and logs no error', async () => {
      const logs = captureLogs(t.app, 'warn');
      try {
        const res = await rawGet(port, '/docs/static/../../package.json');
        assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}`);
        assert.ok(typeof JSON.parse(res.body).detail === 'string', res.body);
        assert.doesNotMatch(res.body, /privacy-request-service/, 'package.json must not be served');
        assert.ok(res.headers['content-security-policy'], 'security headers');
      } finally {
        logs.restore();
      }
      assert.doesNotMatch(logs.text(), /"level":50|stack/, 'no error or stack trace logged');
    });

    it('sends the security headers on a 431 (headers too large)', async () => {
      const res = await rawGet(port, '/healthz', { 'x-big': 'a'.repeat(32 * 1024) });
      assert.equal(res.status, 431);
      assert.deepEqual(JSON.parse(res.body), { detail: 'Request header fields are too large' });
      assert.equal(res.headers['content-security-policy'], API_CSP);
      assert.equal(res.headers['x-frame-options'], 'DENY');
    });

    it('serves /metrics only to the METRICS_TOKEN bearer', async () => {
      const none = await t.app.inject('/metrics');
      assert.equal(none.statusCode, 401);
      assert.equal(none.headers['www-authenticate'], 'Bearer');
      const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer not-the-metrics-token' } });
      assert.equal(wrong.statusCode, 401);
      assert.doesNotMatch(wrong.body, /privacy_requests/);
      const apiToken = await t.app.inject({ url: '/metrics', headers: { authorization: auth } });
      assert.equal(apiToken.statusCode, 401, 'an API token is not the metrics token');
      const right = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      assert.equal(right.statusCode, 200);
      assert.match(right.body, /process_cpu_user_seconds_total/);
    });

    it('says "An export request has no report"', async () => {
      const filed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: auth, 'idempotency-key': 'edge-export-0001' },
        payload: createBody({ request_type: 'export', client_request_id: 'edge-export-0001' }),
      });
      assert.equal(filed.statusCode, 202, filed.body);
      const report = await t.app.inject({ url: `${filed.headers.location}/report`, headers: { authorization: auth } });
      assert.equal(report.statusCode, 409);
      assert.deepEqual(report.json(), { detail: 'An export request has no report' });
    });
  });
}
