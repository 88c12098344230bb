/**
 * OIDC bearer tokens (PRODUCT.md §2.2): JWTs verified against the issuer's JWKS, served here by a
 * loopback HTTP server; scopes from `scope`/`scp`, workspaces from the configured claim.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const ISSUER = 'https://issuer.test/';
const AUDIENCE = 'privacy-api';
const KID = 'key-1';
const policyUrl = (workspace: string) => `/api/v1/policies/effective?workspace_id=${workspace}&repository=octo/app`;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

function assertInvalid(response: LightMyRequestResponse): void {
  assert.equal(response.statusCode, 401, response.body);
  assert.deepEqual(response.json(), { detail: 'Invalid authentication credentials' });
  assert.equal(response.headers['www-authenticate'], 'Bearer');
}

function assert403(response: LightMyRequestResponse): void {
  assert.equal(response.statusCode, 403, response.body);
  assert.equal(typeof (response.json() as { detail: unknown }).detail, 'string');
}

for (const d of dialects()) {
  describe(d.name, () => {
    let database: TestDatabase;
    let t: TestApp;
    let custom: TestApp; // same database, OIDC_WORKSPACES_CLAIM set
    let jwks: Server;
    let jwksRequests = 0;
    let jwksUrl: string | undefined;
    let signingKey: CryptoKey;
    let otherKey: CryptoKey;

    before(async () => {
      const pair = await generateKeyPair('RS256');
      signingKey = pair.privateKey;
      otherKey = (await generateKeyPair('RS256')).privateKey;
      const publicJwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
      jwks = createServer((_req, res) => {
        jwksRequests += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
      });
      await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
      const { port } = jwks.address() as AddressInfo;
      jwksUrl = `http://127.0.0.1:${port}/.well-known/jwks.json`;
      const env = {
        OIDC_ISSUER: ISSUER,
        OIDC_AUDIENCE: AUDIENCE,
        OIDC_JWKS_URL: `http://127.0.0.1:${port}/.well-known/jwks.json`,
      };
      database = await d.create();
      t = await startTestApp(database, { env });
      custom = await startTestApp(database, { env: { ...env, OIDC_WORKSPACES_CLAIM: 'https://claims.test/workspaces' } });
    });
    after(async () => {
      await custom?.close();
      await t?.close();
      await database?.drop();
      await new Promise<void>((resolve) => (jwks ? jwks.close(() => resolve()) : resolve()));
    });

    interface SignOptions {
      key?: CryptoKey;
      kid?: string;
      iss?: string;
      aud?: string;
      exp?: number;
      nbf?: number;
      sub?: string | null;
    }
    const sign = (claims: JWTPayload, o: SignOptions = {}) => {
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: o.kid ?? KID, typ: 'at+jwt' })
        .setIssuer(o.iss ?? ISSUER)
        .setAudience(o.aud ?? AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(o.exp ?? now() + 300);
      if (o.sub !== null) jwt.setSubject(o.sub ?? 'user-123');
      if (o.nbf !== undefined) jwt.setNotBefore(o.nbf);
      return jwt.sign(o.key ?? signingKey);
    };
    const reader = { scope: 'privacy:read policy:read', workspaces: ['acme'] };
    const get = (url: string, jwt: string, app = t) =>
      app.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${jwt}` } });

    it('a valid token with the scope and workspace reads the effective policy', async () => {
      const response = await get(policyUrl('acme'), await sign(reader));
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().workspace_id, 'acme');
      assert.ok(jwksRequests >= 1, 'the JWKS was fetched from the issuer');
    });

    it('an OIDC principal with privacy:write files a request (202)', async () => {
      const jwt = await sign({ scope: 'privacy:write privacy:read', workspaces: ['acme'] });
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: `Bearer ${jwt}`, 'idempotency-key': 'oidc-key-0001' },
        payload: {
          request_type: 'export',
          scope: ['user.account'],
          subject_id: '583231',
          subject_provider: 'github',
          workspace_id: 'acme',
          client_request_id: 'oidc-client-0001',
          intake_ref: 'T-1',
        },
      });
      assert.equal(created.statusCode, 202, created.body);
      assert.equal((await get(`/api/v1/privacy/requests/${created.json().id}`, jwt)).statusCode, 200);
    });

    it('API tokens keep working when OIDC is configured', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: policyUrl('acme'),
        headers: { authorization: await t.bearer(['policy:read']) },
      });
      assert.equal(response.statusCode, 200);
    });

    describe('401 Invalid authentication credentials', () => {
      it('wrong audience', async () => assertInvalid(await get(policyUrl('acme'), await sign(reader, { aud: 'another-api' }))));
      it('wrong issuer', async () =>
        assertInvalid(await get(policyUrl('acme'), await sign(reader, { iss: 'https://evil.test/' }))));
      it('expired (beyond the clock tolerance)', async () =>
        assertInvalid(await get(policyUrl('acme'), await sign(reader, { exp: now() - 120 }))));
      it('not yet valid (nbf in the future)', async () =>
        assertInvalid(await get(policyUrl('acme'), await sign(reader, { nbf: now() + 600 }))));
      it('signed by another key with the same kid', async () =>
        assertInvalid(await get(policyUrl('acme'), await sign(reader, { key: otherKey }))));
      it('signed by another key with an unknown kid', async () =>
        assertInvalid(await get(policyUrl('acme'), await sign(reader, { key: otherKey, kid: 'key-2' }))));
      it('a tampered payload (valid signature of other claims)', async () => {
        const [header, , signature] = (await sign(reader)).split('.');
        const forged = `${header}.${b64({ ...reader, workspaces: '*', iss: ISSUER, aud: AUDIENCE, sub: 'user-123', exp: now() + 300 })}.${signature}`;
        assertInvalid(await get(policyUrl('other'), forged));
      });
      it('alg "none": unsigned, and with a fake signature', async () => {
        const claims = { ...reader, iss: ISSUER, aud: AUDIENCE, sub: 'user-123', exp: now() + 300 };
        const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}`;
        assertInvalid(await get(policyUrl('acme'), `${unsigned}.`));
        assertInvalid(await get(policyUrl('acme'), `${unsigned}.c2lnbmF0dXJl`));
      });
      it('HS256 (algorithm confusion) with kid of the RSA key', async () => {
        const jwt = await new SignJWT(reader)
          .setProtectedHeader({ alg: 'HS256', kid: KID })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setSubject('user-123')
          .setExpirationTime(now() + 300)
          .sign(new TextEncoder().encode('a-shared-secret-of-32-bytes-long!'));
        assertInvalid(await get(policyUrl('acme'), jwt));
      });
      it('garbage in JWT shape', async () => assertInvalid(await get(policyUrl('acme'), 'aaaa.bbbb.cccc')));
      it('no sub claim', async () => assertInvalid(await get(policyUrl('acme'), await sign(reader, { sub: null }))));
    });

    describe('scopes and workspaces', () => {
      it('missing scope → 403', async () => {
        assert403(await get(policyUrl('acme'), await sign({ scope: 'privacy:read', workspaces: ['acme'] })));
        assert403(await get(policyUrl('acme'), await sign({ workspaces: ['acme'] })));
      });

      it('scopes from an `scp` array are honoured', async () => {
        assert.equal((await get(policyUrl('acme'), await sign({ scp: ['policy:read'], workspaces: ['acme'] }))).statusCode, 200);
      });

      it('admin in the scope claim implies every scope', async () => {
        assert.equal((await get(policyUrl('acme'), await sign({ scope: 'admin', workspaces: ['acme'] }))).statusCode, 200);
        assert.equal(
          (await get('/api/v1/privacy/requests?workspace_id=acme', await sign({ scope: 'admin', workspaces: ['acme'] })))
            .statusCode,
          200,
        );
      });

      it('a workspaces claim not covering the workspace → 403; no claim → 403', async () => {
        assert403(await get(policyUrl('other'), await sign(reader)));
        assert403(await get('/api/v1/privacy/requests?workspace_id=other', await sign(reader)));
        assert403(await get(policyUrl('acme'), await sign({ scope: 'policy:read' })));
      });

      it('workspaces "*" (or ["*"]) covers any workspace', async () => {
        for (const workspaces of ['*', ['*']]) {
          const jwt = await sign({ scope: 'policy:read', workspaces });
          for (const ws of ['acme', 'other', 'zeta'])
            assert.equal((await get(policyUrl(ws), jwt)).statusCode, 200, `${JSON.stringify(workspaces)} ${ws}`);
        }
      });

      it('OIDC_WORKSPACES_CLAIM names the claim read; the default one is then ignored', async () => {
        const viaCustom = await sign({ scope: 'policy:read', 'https://claims.test/workspaces': ['acme'] });
        assert.equal((await get(policyUrl('acme'), viaCustom, custom)).statusCode, 200);
        assert403(await get(policyUrl('other'), viaCustom, custom));
        assert403(await get(policyUrl('acme'), await sign({ scope: 'policy:read', workspaces: ['acme'] }), custom));
        assert403(await get(policyUrl('acme'), viaCustom)); // the default app reads `workspaces`
      });
    });

    it('records the operator’s display claim as the audit name: OIDC_NAME_CLAIM, else email, else sub', async () => {
      const named = await startTestApp(database, {
        env: {
          OIDC_ISSUER: ISSUER,
          OIDC_AUDIENCE: AUDIENCE,
          OIDC_JWKS_URL: jwksUrl as string,
          OIDC_NAME_CLAIM: 'preferred_username',
        },
      });
      const file = async (app: TestApp, claims: JWTPayload, key: string) => {
        const jwt = await sign({ scope: 'privacy:write', workspaces: ['acme'], ...claims }, { sub: 'op-7' });
        const created = await app.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { authorization: `Bearer ${jwt}`, 'idempotency-key': `oidc-name-${key}` },
          payload: {
            request_type: 'access',
            scope: ['user'],
            subject_id: '583231',
            subject_provider: 'github',
            workspace_id: 'acme',
            client_request_id: `oidc-name-${key}`,
            intake_ref: 'T-2',
          },
        });
        assert.equal(created.statusCode, 202, created.body);
        const row = await t.services.database.db
          .selectFrom('audit_events')
          .select(['actor', 'actor_name'])
          .where('target_id', '=', created.json().id)
          .executeTakeFirstOrThrow();
        return [row.actor, row.actor_name];
      };
      try {
        const both = { name: 'Dana Officer', email: 'dana@corp.example', preferred_username: 'dana.o' };
        assert.deepEqual(await file(t, both, '0001'), ['oidc:op-7', 'Dana Officer']);
        assert.deepEqual(await file(t, { email: 'dana@corp.example' }, '0002'), ['oidc:op-7', 'dana@corp.example']);
        assert.deepEqual(await file(t, { name: '  ' }, '0003'), ['oidc:op-7', 'op-7']);
        assert.deepEqual(await file(named, both, '0004'), ['oidc:op-7', 'dana.o']);
        assert.deepEqual(await file(named, { name: 'Dana Officer' }, '0005'), ['oidc:op-7', 'op-7']);
      } finally {
        await named.close();
      }
    });

    it('answers 503 with Retry-After when the issuer key set cannot be fetched', async () => {
      // A closed loopback port: the key set fetch fails, so a possibly good token is not called bad.
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const { port } = probe.address() as AddressInfo;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      const unreachable = await startTestApp(database, {
        env: { OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: AUDIENCE, OIDC_JWKS_URL: `http://127.0.0.1:${port}/jwks.json` },
      });
      try {
        const response = await get(policyUrl('acme'), await sign(reader), unreachable);
        assert.equal(response.statusCode, 503, response.body);
        assert.equal(response.headers['retry-after'], '5');
      } finally {
        await unreachable.close();
      }
    });
  });
}
