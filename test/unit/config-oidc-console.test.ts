/** `OIDC_CONSOLE_CLIENT_ID` and its endpoints (console single sign-on, PRODUCT.md §2b): read, defaulted, refused when incomplete. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const OIDC = {
  OIDC_ISSUER: 'https://id.example.com/',
  OIDC_AUDIENCE: 'privacy-api',
  OIDC_JWKS_URL: 'https://id.example.com/jwks',
};
const CONSOLE = {
  OIDC_CONSOLE_CLIENT_ID: 'privacy-console',
  OIDC_AUTHORIZATION_URL: 'https://id.example.com/authorize',
  OIDC_TOKEN_URL: 'https://id.example.com/token',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  return [];
}

describe('console OIDC configuration', () => {
  it('is off (null) without OIDC_CONSOLE_CLIENT_ID', () => {
    assert.equal(loadConfig(OIDC).oidc?.console, null);
  });

  it('reads the client id and both endpoints; the scope defaults to openid', () => {
    assert.deepEqual(loadConfig({ ...OIDC, ...CONSOLE }).oidc?.console, {
      clientId: 'privacy-console',
      authorizationUrl: 'https://id.example.com/authorize',
      tokenUrl: 'https://id.example.com/token',
      scope: 'openid',
    });
    assert.equal(
      loadConfig({ ...OIDC, ...CONSOLE, OIDC_CONSOLE_SCOPE: 'openid privacy' }).oidc?.console?.scope,
      'openid privacy',
    );
  });

  it('refuses missing or non-http endpoints, a client id without OIDC, endpoints without a client id', () => {
    assert.deepEqual(problemsOf({ ...OIDC, OIDC_CONSOLE_CLIENT_ID: 'c', OIDC_TOKEN_URL: 'ftp://id.example.com/token' }), [
      'OIDC_AUTHORIZATION_URL must be an http(s) URL when OIDC_CONSOLE_CLIENT_ID is set',
      'OIDC_TOKEN_URL must be an http(s) URL when OIDC_CONSOLE_CLIENT_ID is set',
    ]);
    assert.deepEqual(problemsOf(CONSOLE), ['OIDC_CONSOLE_CLIENT_ID needs OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL']);
    assert.deepEqual(problemsOf({ ...OIDC, OIDC_TOKEN_URL: CONSOLE.OIDC_TOKEN_URL }), [
      'OIDC_AUTHORIZATION_URL and OIDC_TOKEN_URL are used only with OIDC_CONSOLE_CLIENT_ID',
    ]);
  });
});
