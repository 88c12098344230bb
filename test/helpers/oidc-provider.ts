/**
 * A tiny OpenID Connect provider on loopback, for the console's single sign-on tests: an
 * authorization endpoint that signs a fixed officer in at once (302 back with a code), a token
 * endpoint for public clients that checks PKCE (RFC 7636 §4.6, S256) and answers an RS256 JWT
 * access token (RFC 9068) with `scope` and `workspaces`, and its JWKS.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export const PROVIDER_CLIENT_ID = 'privacy-console';
export const PROVIDER_AUDIENCE = 'privacy-api';

/** How the next authorization answers: `ok`, a forged `state`, or a code bound to another challenge. */
export type AuthorizeMode = 'ok' | 'forged-state' | 'other-challenge';

export interface TestOidcProvider {
  /** `http://127.0.0.1:PORT` (also the issuer, with a trailing slash). */
  origin: string;
  /** The environment that points the service at this provider. */
  env: Record<string, string>;
  mode: AuthorizeMode;
  /** Every authorization request's query, in order. */
  authorizations: URLSearchParams[];
  /** Every token request's form, in order, and the status answered. */
  tokenRequests: { form: URLSearchParams; status: number }[];
  /** A code for `challenge` (S256), as the authorization endpoint would issue it. */
  issueCode(challenge: string, redirectUri: string): string;
  close(): Promise<void>;
}

const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the provider; the officer it signs in has `admin` on `workspaces`. */
export async function startOidcProvider(workspaces: string[]): Promise<TestOidcProvider> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'sso-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  let issuer = '';
  const issueCode = (challenge: string, redirectUri: string) => {
    const code = randomBytes(16).toString('base64url');
    codes.set(code, { challenge, redirectUri });
    return code;
  };
  const accessToken = () =>
    new SignJWT({ scope: 'admin', workspaces, name: 'Olivia Officer' })
      .setProtectedHeader({ alg: 'RS256', kid: 'sso-1', typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(PROVIDER_AUDIENCE)
      .setSubject('officer-olivia')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);

  const provider: TestOidcProvider = {
    origin: '',
    env: {},
    mode: 'ok',
    authorizations: [],
    tokenRequests: [],
    issueCode,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  /** RFC 6749 §4.1.3 + RFC 7636 §4.6: the code once, for this client and redirect URI, with the verifier of its challenge. */
  const grant = (form: URLSearchParams): boolean => {
    const issued = codes.get(form.get('code') ?? '');
    if (!issued || form.get('grant_type') !== 'authorization_code' || form.get('client_id') !== PROVIDER_CLIENT_ID) return false;
    if (form.get('redirect_uri') !== issued.redirectUri) return false;
    if (s256(form.get('code_verifier') ?? '') !== issued.challenge) return false;
    codes.delete(form.get('code') ?? '');
    return true;
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', provider.origin);
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type, accept' };
    if (url.pathname === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    } else if (url.pathname === '/authorize') {
      const q = url.searchParams;
      provider.authorizations.push(q);
      const redirectUri = q.get('redirect_uri') ?? '';
      const challenge = provider.mode === 'other-challenge' ? s256('not-the-console-verifier') : (q.get('code_challenge') ?? '');
      const back = new URL(redirectUri);
      back.searchParams.set('code', issueCode(challenge, redirectUri));
      back.searchParams.set('state', provider.mode === 'forged-state' ? 'forged-by-someone-else' : (q.get('state') ?? ''));
      res.writeHead(302, { location: back.toString() }).end();
    } else if (url.pathname === '/token' && req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'access-control-allow-methods': 'POST' }).end();
    } else if (url.pathname === '/token' && req.method === 'POST') {
      void readBody(req).then(async (body) => {
        const form = new URLSearchParams(body);
        const ok = grant(form);
        provider.tokenRequests.push({ form, status: ok ? 200 : 400 });
        const answer = ok
          ? { access_token: await accessToken(), token_type: 'Bearer', expires_in: 300 }
          : { error: 'invalid_grant' };
        res.writeHead(ok ? 200 : 400, { ...cors, 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(answer));
      });
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer = `${provider.origin}/`;
  provider.env = {
    OIDC_ISSUER: issuer,
    OIDC_AUDIENCE: PROVIDER_AUDIENCE,
    OIDC_JWKS_URL: `${provider.origin}/jwks`,
    OIDC_CONSOLE_CLIENT_ID: PROVIDER_CLIENT_ID,
    OIDC_AUTHORIZATION_URL: `${provider.origin}/authorize`,
    OIDC_TOKEN_URL: `${provider.origin}/token`,
    OIDC_CONSOLE_SCOPE: 'openid privacy',
  };
  return provider;
}
