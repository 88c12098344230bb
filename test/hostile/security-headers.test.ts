/** Security headers on the JSON API and on /docs; Cache-Control on personal data (docs/protection.md). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { DOCS_CSP } from '../../src/http/protection/security-headers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';
import { createBody } from '../helpers/requests.js';

const API_CSP = "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'";

/** helmet 8's other defaults, which every answer carries as well. */
const OTHER_HELMET_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

function assertApiHeaders(res: LightMyRequestResponse, what: string): void {
  assert.equal(res.headers['content-security-policy'], API_CSP, what);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(res.headers['x-frame-options'], 'DENY', what);
  assert.equal(res.headers['referrer-policy'], 'no-referrer', what);
  assert.match(String(res.headers['strict-transport-security']), /^max-age=31536000/, what);
  assert.equal(res.headers['cross-origin-resource-policy'], 'same-origin', what);
  assert.equal(res.headers['x-powered-by'], undefined, what);
  for (const [name, value] of Object.entries(OTHER_HELMET_HEADERS)) assert.equal(res.headers[name], value, `${what}: ${name}`);
}

/** The `src`/`href` of every script, stylesheet and icon of an HTML page. */
function assetUrls(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
}

for (const dialect of dialects()) {
  describe(`security headers (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let auth: string;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      auth = await t.bearer(['privacy:write', 'privacy:read', 'policy:read', 'policy:write']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('sends the JSON-API headers on answers, errors, webhooks, probes and 404s', async () => {
      const answers: [string, LightMyRequestResponse][] = [
        ['list', await t.app.inject({ url: '/api/v1/privacy/requests?workspace_id=acme', headers: { authorization: auth } })],
        [
          'effective policy',
          await t.app.inject({
            url: '/api/v1/policies/effective?workspace_id=acme&repository=a/b',
            headers: { authorization: auth },
          }),
        ],
        ['401', await t.app.inject({ url: '/api/v1/privacy/requests' })],
        ['422', await t.app.inject({ url: '/api/v1/privacy/requests?limit=x', headers: { authorization: auth } })],
        ['webhook 401', await t.app.inject({ method: 'POST', url: '/webhook/prhost', payload: '{}' })],
        ['healthz', await t.app.inject({ url: '/healthz' })],
        ['404', await t.app.inject({ url: '/nowhere' })],
        ['413', await t.app.inject({ method: 'POST', url: '/webhook/mrhost', payload: 'x'.repeat(1024 * 1024 + 1) })],
      ];
      for (const [what, res] of answers) assertApiHeaders(res, `${what} (${res.statusCode})`);
    });

    it('marks privacy requests and their errors no-store; the effective policy stays revalidatable (ETag, 304)', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: auth, 'idempotency-key': 'headers-test-0001' },
        payload: createBody(),
      });
      assert.equal(created.statusCode, 202, created.body);
      const location = String(created.headers.location);
      for (const res of [
        created,
        await t.app.inject({ url: location, headers: { authorization: auth } }),
        await t.app.inject({ url: '/api/v1/privacy/requests?workspace_id=acme', headers: { authorization: auth } }),
        await t.app.inject({ url: '/api/v1/change-events?workspace_id=acme&repository=a/b', headers: { authorization: auth } }),
        await t.app.inject({ url: `${location}/package`, headers: { authorization: auth } }),
        await t.app.inject({ url: location }),
      ]) {
        assert.equal(res.headers['cache-control'], 'no-store', `${res.statusCode} ${res.body}`);
      }
      const url = '/api/v1/policies/effective?workspace_id=acme&repository=octo/repo';
      const first = await t.app.inject({ url, headers: { authorization: auth } });
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.headers['cache-control'], 'no-cache');
      const etag = String(first.headers.etag);
      const again = await t.app.inject({ url, headers: { authorization: auth, 'if-none-match': etag } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.headers.etag, etag);
    });

    it('serves /docs with its own CSP, and every script and stylesheet it names loads from the same origin', async () => {
      const page = await t.app.inject({ url: '/docs/' });
      assert.equal(page.statusCode, 200, page.body);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.equal(page.headers['content-security-policy'], DOCS_CSP);
      assert.match(DOCS_CSP, /script-src 'self'(;|$)/);
      assert.doesNotMatch(page.body, /<script>|<script [^>]*>[^<\s]/, 'no inline script (the CSP would block it)');
      const assets = assetUrls(page.body);
      assert.ok(assets.some((a) => a.endsWith('swagger-ui-bundle.js')) && assets.some((a) => a.endsWith('swagger-ui.css')));
      for (const asset of assets) {
        assert.doesNotMatch(asset, /^(https?:)?\/\//, `${asset} must be same-origin`);
        const res = await t.app.inject({ url: new URL(asset, 'http://host/docs/').pathname });
        assert.equal(res.statusCode, 200, asset);
        assert.equal(res.headers['content-security-policy'], DOCS_CSP, asset);
        const type = String(res.headers['content-type']);
        if (asset.endsWith('.js')) assert.match(type, /javascript/, asset);
        if (asset.endsWith('.css')) assert.match(type, /text\/css/, asset);
      }
      // The UI fetches the OpenAPI document from the same origin (connect-src 'self').
      const initializer = await t.app.inject({ url: '/docs/static/swagger-initializer.js' });
      assert.match(initializer.body, /resolveUrl\('\.\/json'\)|url: resolveUrl/);
      assert.equal((await t.app.inject({ url: '/docs/json' })).statusCode, 200);
    });
  });
}
