/**
 * A NUL character (U+0000) in any API string (issue 11, item 6): PostgreSQL text cannot hold it,
 * so it used to be a 500 there and a stored value on SQLite. Now every schema string refuses it
 * with the same 422 on both databases (`string_nul`, docs/validation.md), path ids included, and
 * nothing is stored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { REQUEST_HANDLERS } from '../../src/workflows/request-types/request-handlers.js';
import { dialects } from '../helpers/databases.js';
import { canonicalEvent, newStandardSecret, postIdentity, standardHeaders } from '../helpers/identity-webhooks.js';
import { createBody } from '../helpers/requests.js';
import { type Fixture, fileRequest, openFixture, testWorker } from '../helpers/worker.js';
import { assertContract } from './contract.js';
import { tableCounts } from './table-counts.js';

const NUL = '\u0000';
const nulItem = (loc: (string | number)[], input: unknown) => ({
  type: 'string_nul',
  loc,
  msg: 'String should not contain a NUL character',
  input,
});

for (const dialect of dialects()) {
  describe(`NUL characters in API input (${dialect.name})`, () => {
    let f: Fixture;
    let auth: string;
    let requestId = '';
    let correctionId = '';

    /** Sends `options`; asserts exactly `detail` as the 422 body and that no table changed. */
    async function refused(options: InjectOptions, detail: unknown[]) {
      const before = await tableCounts(f.t.services);
      const res = await f.t.app.inject({ ...options, headers: { authorization: auth, ...options.headers } });
      assertContract(res, `${options.method ?? 'GET'} ${options.url}`);
      assert.equal(res.statusCode, 422, `${options.url}: ${res.body}`);
      assert.deepEqual(res.json(), { detail }, String(options.url));
      assert.deepEqual(await tableCounts(f.t.services), before, `${options.url} stored something`);
    }

    before(async () => {
      f = await openFixture(dialect.create);
      auth = await f.t.bearer(['privacy:write', 'privacy:read', 'policy:read', 'policy:write', 'admin'], ['*']);
      requestId = (await fileRequest(f)).id;
      const secret = newStandardSecret();
      await f.t.services.integrations.create(
        { kind: 'identity', workspace_id: 'acme', format: 'standard', subject_provider: 'okta', secret },
        'test',
      );
      const event = canonicalEvent('evt_nul', 'user.created', '2026-05-01T10:00:00Z', { user_id: 'u_ada', name: 'Ada' });
      assert.equal((await postIdentity(f.t, event, standardHeaders(secret, 'msg_nul', event))).statusCode, 200);
      correctionId = (
        await fileRequest(f, { request_type: 'correction', subject_provider: 'okta', subject_id: 'u_ada', scope: ['user'] })
      ).id;
      // The worker takes the access request, then parks the correction in action_required.
      const worker = testWorker(f, REQUEST_HANDLERS);
      while (await worker.runOnce());
      assert.equal((await f.t.services.privacyRequests.get(correctionId))?.status, 'action_required');
    });
    after(async () => f.close());

    it('create body: each string field, and an Idempotency-Key replay is not involved', async () => {
      for (const field of ['subject_id', 'subject_provider', 'workspace_id', 'client_request_id', 'intake_ref']) {
        const value = `value-${NUL}-1234`;
        await refused(
          {
            method: 'POST',
            url: '/api/v1/privacy/requests',
            headers: { 'idempotency-key': `nul-${field}-key` },
            payload: createBody({ [field]: value }),
          },
          [nulItem(['body', field], value)],
        );
      }
      await refused(
        {
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { 'idempotency-key': 'nul-scope-key' },
          payload: createBody({ scope: ['user', `user${NUL}`] }),
        },
        [nulItem(['body', 'scope', 1], `user${NUL}`)],
      );
    });

    it('path ids: a request, its actions and results, an integration, a policy layer', async () => {
      const id = `pr_${NUL}`;
      for (const path of ['', '/approve', '/report', '/package']) {
        await refused({ method: path === '/approve' ? 'POST' : 'GET', url: `/api/v1/privacy/requests/pr_%00${path}` }, [
          nulItem(['path', 'id'], id),
        ]);
      }
      for (const method of ['GET', 'DELETE'] as const) {
        await refused({ method, url: '/api/v1/integrations/int_%00' }, [nulItem(['path', 'id'], `int_${NUL}`)]);
      }
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const payload = method === 'PUT' ? { retention_days: 30 } : undefined;
        await refused({ method, url: '/api/v1/policies/workspaces/ac%00me', ...(payload ? { payload } : {}) }, [
          nulItem(['path', 'workspace_id'], `ac${NUL}me`),
        ]);
        await refused(
          { method, url: '/api/v1/policies/workspaces/acme/repositories/octo%2F%00app', ...(payload ? { payload } : {}) },
          [nulItem(['path', 'repository'], `octo/${NUL}app`)],
        );
      }
    });

    it('query parameters of every list and the effective policy', async () => {
      const cases: [string, (string | number)[], string][] = [
        ['/api/v1/privacy/requests?workspace_id=ac%00me', ['query', 'workspace_id', 0], `ac${NUL}me`],
        ['/api/v1/privacy/requests?workspace_id=acme&cursor=%00', ['query', 'cursor'], NUL],
        ['/api/v1/policies/effective?workspace_id=acme&repository=octo%2F%00', ['query', 'repository'], `octo/${NUL}`],
        ['/api/v1/integrations?workspace_id=%00', ['query', 'workspace_id'], NUL],
        ['/api/v1/change-events?workspace_id=acme&repository=%00x', ['query', 'repository'], `${NUL}x`],
      ];
      for (const [url, loc, input] of cases) await refused({ url }, [nulItem(loc, input)]);
    });

    it('policy layer bodies and integration bodies (the secret stays redacted)', async () => {
      await refused({ method: 'PUT', url: '/api/v1/policies/workspaces/acme', payload: { excluded_paths: ['ok/', `a${NUL}`] } }, [
        nulItem(['body', 'excluded_paths', 1], `a${NUL}`),
      ]);
      const integration = { kind: 'github', workspace_id: 'acme', namespace: 'octo', secret: 'a-good-secret' };
      await refused({ method: 'POST', url: '/api/v1/integrations', payload: { ...integration, namespace: `oc${NUL}to` } }, [
        nulItem(['body', 'namespace'], `oc${NUL}to`),
      ]);
      await refused({ method: 'POST', url: '/api/v1/integrations', payload: { ...integration, secret: `secret${NUL}secret` } }, [
        nulItem(['body', 'secret'], '[redacted]'),
      ]);
    });

    it('operator action bodies: a reason, and corrected values (refused as invalid values)', async () => {
      await refused({ method: 'POST', url: `/api/v1/privacy/requests/${requestId}/reject`, payload: { reason: `no${NUL}` } }, [
        nulItem(['body', 'reason'], `no${NUL}`),
      ]);
      await refused(
        {
          method: 'POST',
          url: `/api/v1/privacy/requests/${correctionId}/corrections`,
          payload: { changes: { name: `Ada${NUL}` } },
        },
        [
          {
            type: 'value_error',
            loc: ['body', 'changes', 'name'],
            msg: 'Value error, invalid value',
            input: '[redacted]',
            ctx: { error: {} },
          },
        ],
      );
    });
  });
}
