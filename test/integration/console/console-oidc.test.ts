/**
 * Console single sign-on (PRODUCT.md §2b): the OIDC authorization-code flow with PKCE (RFC 7636,
 * S256) against a provider on loopback (test/helpers/oidc-provider.ts), the real app on a real
 * database, driven in headless Chromium. The officer clicks the provider's button and lands in
 * the queue; the provider refuses a tampered verifier; a forged `state` and a refused exchange
 * are shown and nothing is kept.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CONSOLE_CSP } from '../../../src/http/console/console-csp.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openChromium } from '../../helpers/chromium.js';
import { builtConsole } from '../../helpers/console-build.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { PROVIDER_CLIENT_ID, startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.js';
import { fileRequest } from '../../helpers/subject-data.js';

const TOKEN_KEY = 'privacy-console.token';
const SSO_BUTTON = { name: 'Sign in with your identity provider' };

const storage = (page: Page) =>
  page.evaluate<{ token: string | null; keys: string[] }>(
    `({ token: sessionStorage.getItem(${JSON.stringify(TOKEN_KEY)}), keys: Object.keys(sessionStorage) })`,
  );

for (const dialect of dialects()) {
  describe(`console single sign-on (${dialect.name})`, () => {
    let database: TestDatabase;
    let provider: TestOidcProvider;
    let t: TestApp;
    let plain: TestApp; // same database, no OIDC_CONSOLE_CLIENT_ID
    let origin: string;
    let requestId: string;
    let browser: Browser;
    let context: BrowserContext;
    const cspViolations: string[] = [];

    before(async () => {
      database = await dialect.create();
      provider = await startOidcProvider(['acme']);
      const consoleDir = await builtConsole();
      t = await startTestApp(database, { consoleDir, env: provider.env });
      plain = await startTestApp(database, { consoleDir });
      requestId = await fileRequest(t, await t.bearer(['privacy:write']), {
        request_type: 'access',
        scope: ['user'],
        subject_provider: 'github',
        subject_id: 'sso-subject-1',
        workspace_id: 'acme',
      });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      browser = await openChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    });
    after(async () => {
      await browser?.close();
      await plain?.close();
      await t?.close();
      await provider?.close();
      await database?.drop();
    });

    const newPage = async () => {
      const page = await context.newPage();
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(message.text());
      });
      return page;
    };

    it('describes the public client at /console/config.json, and {"oidc":null} without it; hidden from OpenAPI', async () => {
      const config = await t.app.inject('/console/config.json');
      assert.equal(config.statusCode, 200, config.body);
      assert.equal(config.headers['cache-control'], 'no-cache');
      assert.deepEqual(config.json(), {
        oidc: {
          client_id: PROVIDER_CLIENT_ID,
          authorization_endpoint: `${provider.origin}/authorize`,
          token_endpoint: `${provider.origin}/token`,
          scope: 'openid privacy',
        },
      });
      assert.doesNotMatch(config.body, /secret/i);
      assert.deepEqual((await plain.app.inject('/console/config.json')).json(), { oidc: null });
      const paths = (await t.app.inject('/openapi.json')).json().paths as Record<string, unknown>;
      assert.equal(
        Object.keys(paths).some((path) => path.startsWith('/console')),
        false,
      );
    });

    it("widens connect-src to the token endpoint's origin only when single sign-on is configured", async () => {
      const csp = String((await t.app.inject('/console/')).headers['content-security-policy']);
      assert.match(csp, new RegExp(`connect-src 'self' ${provider.origin.replace(/\./g, '\\.')};`));
      assert.equal(csp.replace(` ${provider.origin}`, ''), CONSOLE_CSP);
      assert.equal((await plain.app.inject('/console/')).headers['content-security-policy'], CONSOLE_CSP);
    });

    it('the provider checks PKCE: a tampered verifier is refused, the right one accepted', async () => {
      const verifier = 'v'.repeat(43) + 'erifier-of-the-test-0123456789';
      const redirectUri = `${origin}/console/`;
      const code = provider.issueCode(createHash('sha256').update(verifier).digest('base64url'), redirectUri);
      const exchange = (codeVerifier: string) =>
        fetch(`${provider.origin}/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: redirectUri,
            client_id: PROVIDER_CLIENT_ID,
            code_verifier: codeVerifier,
          }),
        });
      const tampered = await exchange(`${verifier.slice(0, -1)}X`);
      assert.equal(tampered.status, 400);
      assert.deepEqual(await tampered.json(), { error: 'invalid_grant' });
      const right = await exchange(verifier);
      assert.equal(right.status, 200);
      assert.equal(typeof ((await right.json()) as { access_token: unknown }).access_token, 'string');
    });

    it('signs in through the provider with PKCE and lands in the queue, the token kept like a pasted one', async () => {
      provider.mode = 'ok';
      const page = await newPage();
      await page.goto(`${origin}/console/`);
      const before = provider.tokenRequests.length;
      await page.getByRole('button', SSO_BUTTON).click();
      await page.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
      await page.getByText(requestId).waitFor();
      // The authorization request: code flow, this client, the console as redirect URI, S256.
      const asked = provider.authorizations.at(-1)!;
      assert.equal(asked.get('response_type'), 'code');
      assert.equal(asked.get('client_id'), PROVIDER_CLIENT_ID);
      assert.equal(asked.get('redirect_uri'), `${origin}/console/`);
      assert.equal(asked.get('scope'), 'openid privacy');
      assert.equal(asked.get('code_challenge_method'), 'S256');
      assert.match(asked.get('state') ?? '', /^[\w-]{16,}$/);
      // The exchange: one request, with a verifier of 43–128 unreserved characters matching the challenge.
      assert.equal(provider.tokenRequests.length, before + 1);
      const { form, status } = provider.tokenRequests.at(-1)!;
      assert.equal(status, 200);
      const verifier = form.get('code_verifier') ?? '';
      assert.match(verifier, /^[A-Za-z0-9\-._~]{43,128}$/);
      assert.equal(createHash('sha256').update(verifier).digest('base64url'), asked.get('code_challenge'));
      // Kept in sessionStorage only, the pending verifier gone, the code and state gone from the URL.
      const kept = await storage(page);
      assert.equal(kept.token?.split('.').length, 3, 'a JWT');
      assert.deepEqual(kept.keys, [TOKEN_KEY]);
      assert.equal(new URL(page.url()).search, '');
      assert.equal(await page.evaluate<number>('localStorage.length'), 0);
      assert.equal(await page.evaluate<string>('document.cookie'), '');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', SSO_BUTTON).waitFor();
      assert.deepEqual(cspViolations, []);
      await page.close();
    });

    it('a forged state is refused before any exchange, shown, and nothing is kept', async () => {
      provider.mode = 'forged-state';
      const page = await newPage();
      await page.goto(`${origin}/console/`);
      const before = provider.tokenRequests.length;
      await page.getByRole('button', SSO_BUTTON).click();
      await page.getByRole('alert').filter({ hasText: 'state mismatch' }).waitFor();
      assert.equal(provider.tokenRequests.length, before, 'the code was never sent to the token endpoint');
      assert.deepEqual((await storage(page)).keys, []);
      assert.equal(new URL(page.url()).search, '');
      await page.getByRole('button', SSO_BUTTON).waitFor();
      await page.getByLabel('API token').waitFor();
      await page.close();
    });

    it('a token endpoint refusing the verifier is shown, and the officer stays on sign-in', async () => {
      provider.mode = 'other-challenge';
      const page = await newPage();
      await page.goto(`${origin}/console/`);
      await page.getByRole('button', SSO_BUTTON).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'The identity provider refused to issue a token (400: invalid_grant)' })
        .waitFor();
      assert.equal(provider.tokenRequests.at(-1)?.status, 400);
      assert.deepEqual((await storage(page)).keys, []);
      assert.equal(new URL(page.url()).search, '');
      await page.getByRole('button', SSO_BUTTON).waitFor();
      assert.equal(await page.getByRole('heading', { level: 1, name: 'Queue' }).count(), 0);
      assert.deepEqual(cspViolations, []);
      await page.close();
    });
  });
}
