/**
 * The console as the service serves it (PRODUCT.md §2b): `/console` → `/console/`, the page with
 * its strict CSP and `no-cache`, hashed assets cached for a year, no route in the OpenAPI
 * document, JavaScript within its gzipped budget, and a clear 503 when the console is not built.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_JS_BUDGET_BYTES, gzippedJsBytes } from '../../../console/bundle-budget.js';
import { CONSOLE_CSP } from '../../../src/http/console/console-csp.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { builtConsole } from '../../helpers/console-build.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

for (const dialect of dialects()) {
  describe(`console serving (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let dir: string;

    before(async () => {
      dir = await builtConsole();
      database = await dialect.create();
      t = await startTestApp(database, { consoleDir: dir });
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('redirects /console to /console/ and serves the page with the console CSP, revalidated every time', async () => {
      const redirect = await t.app.inject('/console');
      assert.equal(redirect.statusCode, 301);
      assert.equal(redirect.headers.location, '/console/');
      const page = await t.app.inject('/console/');
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.equal(page.headers['content-security-policy'], CONSOLE_CSP);
      assert.equal(page.headers['cache-control'], 'no-cache');
      assert.equal(page.headers['x-frame-options'], 'DENY');
      assert.match(page.body, /<script type="module" crossorigin src="\/console\/assets\/index-[\w-]+\.js"><\/script>/);
      assert.doesNotMatch(page.body, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
      assert.doesNotMatch(page.body, /\sstyle=/, 'no style attribute');
      for (const directive of ["script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "default-src 'none'"])
        assert.ok(CONSOLE_CSP.includes(directive), directive);
      assert.doesNotMatch(CONSOLE_CSP, /unsafe-inline|unsafe-eval/);
      // Revalidation: the ETag answers 304, with the same directives.
      const again = await t.app.inject({ url: '/console/', headers: { 'if-none-match': String(page.headers.etag) } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.headers['cache-control'], 'no-cache');
    });

    it('caches hashed assets for a year, immutable, and 404s a missing one', async () => {
      const assets = readdirSync(join(dir, 'assets'));
      const js = assets.find((name) => name.endsWith('.js'))!;
      const asset = await t.app.inject(`/console/assets/${js}`);
      assert.equal(asset.statusCode, 200);
      assert.match(String(asset.headers['content-type']), /javascript/);
      assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
      const missing = await t.app.inject('/console/assets/nothing-here.js');
      assert.equal(missing.statusCode, 404);
      assert.notEqual(missing.headers['cache-control'], 'public, max-age=31536000, immutable');
    });

    it('keeps the console out of the OpenAPI document, like /docs', async () => {
      const paths = Object.keys((await t.app.inject('/openapi.json')).json().paths);
      assert.ok(paths.length > 20);
      assert.deepEqual(
        paths.filter((path) => path.startsWith('/console')),
        [],
      );
    });

    it('keeps the built JavaScript within its gzipped budget', () => {
      const assets = readdirSync(join(dir, 'assets')).filter((name) => name.endsWith('.js'));
      assert.ok(assets.length >= 1);
      const bytes = gzippedJsBytes(assets.map((name) => readFileSync(join(dir, 'assets', name))));
      assert.ok(bytes > 1000 && bytes <= CONSOLE_JS_BUDGET_BYTES, `${bytes} bytes gzipped, budget ${CONSOLE_JS_BUDGET_BYTES}`);
    });
  });

  describe(`console not built (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { consoleDir: mkdtempSync(join(tmpdir(), 'no-console-')) });
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('answers 503 naming npm run build, and the API still works', async () => {
      for (const url of ['/console', '/console/', '/console/assets/x.js']) {
        const res = await t.app.inject(url);
        assert.equal(res.statusCode, 503, url);
        assert.match(res.json().detail, /npm run build/);
      }
      assert.equal((await t.app.inject('/healthz')).statusCode, 200);
    });
  });
}
