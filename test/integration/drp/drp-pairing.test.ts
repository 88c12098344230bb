/**
 * DRP Pair-wise Key Setup and Agent Information (PRODUCT §2.19; DRP 1.0 §2.05, §2.06) with real
 * Ed25519 signatures from the test agent, on SQLite and PostgreSQL: every refusal is a 403 with
 * an empty body and stores nothing; a bearer token is valid only for its agent and workspace.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { createDrpAgent, fixtureDrpAgent, respelled, TIMES, withOneByteChanged } from '../../helpers/drp-agent.js';

for (const dialect of dialects()) {
  describe(`DRP key setup (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    let now = Date.parse('2026-12-07T12:00:00.000Z');
    let agentRowId = '';
    const agent = fixtureDrpAgent();
    const db = () => t.services.database.db;
    const stored = async () => ({
      pairings: (await db().selectFrom('drp_pairings').select('token_hash').execute()).length,
      digests: (await db().selectFrom('drp_digests').select('digest').execute()).length,
      paired: (await db().selectFrom('audit_events').select('id').where('action', '=', 'drp.agent_paired').execute()).length,
    });
    const pair = (body: string, path = agent.agentId, headers: Record<string, string> = { 'content-type': 'text/plain' }) =>
      t.app.inject({ method: 'POST', url: `/drp/v1/agent/${path}`, headers, payload: body });
    const info = (token: string | null, path = agent.agentId) =>
      t.app.inject({ url: `/drp/v1/agent/${path}`, headers: token === null ? {} : { authorization: `Bearer ${token}` } });
    const signed = (business = 'acme-retail', times = TIMES.fresh(new Date(now))) =>
      agent.sign(agent.keySetupClaims(business, times));
    const assertRefused = (res: { statusCode: number; body: string }) => {
      assert.equal(res.statusCode, 403);
      assert.equal(res.body, '');
    };

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: () => new Date(now) });
      admin = await t.bearer(['admin'], ['acme', 'globex']);
      for (const [ws, business] of [
        ['acme', 'acme-retail'],
        ['globex', 'globex'],
      ] as const) {
        const put = await t.app.inject({
          method: 'PUT',
          url: `/api/v1/workspaces/${ws}/drp`,
          headers: { authorization: admin },
          payload: { enabled: true, business_id: business, name: business },
        });
        assert.equal(put.statusCode, 200);
      }
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/drp/agents',
        headers: { authorization: admin },
        payload: { workspace_id: 'acme', agent_id: agent.agentId, name: 'Test agent', verify_key: agent.verifyKey },
      });
      assert.equal(res.statusCode, 201);
      agentRowId = res.json().id;
    });
    beforeEach(() => {
      now += 60 * 60_000;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('refuses with 403 and an empty body, storing nothing: changed byte, expired, future, no offset, long window, wrong business, unknown agent, hex-signed garbage', async () => {
      const at = new Date(now);
      const other = createDrpAgent(agent.agentId);
      const refusals = [
        withOneByteChanged(signed()),
        signed('acme-retail', TIMES.expired(at)),
        signed('acme-retail', TIMES.issuedInFuture(at)),
        signed('acme-retail', TIMES.withoutOffset(at)),
        signed('acme-retail', TIMES.windowOverAnHour(at)),
        // Another business: the agent is not registered there (globex), or no such business.
        signed('globex'),
        signed('no-such-business'),
        // Signed by another key under the same agent id.
        other.sign(other.keySetupClaims('acme-retail', TIMES.fresh(at))),
        agent.sign({ ...agent.keySetupClaims('acme-retail', TIMES.fresh(at)), 'drp.version': '0.9' }),
        'not base64 at all!',
        '',
      ];
      for (const body of refusals) assertRefused(await pair(body));
      assertRefused(await pair(signed(), 'unknown-agent'));
      assert.deepEqual(await stored(), { pairings: 0, digests: 0, paired: 0 });
    });

    it('pairs (text/plain, none, or application/json), answers the token once; a replay is refused; the token reads Agent Information', async () => {
      const body = signed();
      const res = await pair(body);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      const answer = res.json();
      assert.equal(answer['agent-id'], agent.agentId);
      assert.match(answer.token, /^drp_[A-Za-z0-9_-]{43}$/);
      assertRefused(await pair(body));
      assertRefused(await pair(respelled(body), agent.agentId, {}));
      const pairings = await db().selectFrom('drp_pairings').selectAll().execute();
      assert.equal(pairings.length, 1);
      assert.notEqual(pairings[0]!.token_hash, answer.token);
      assert.doesNotMatch(JSON.stringify(pairings), /drp_/);
      const [audit] = await db().selectFrom('audit_events').selectAll().where('action', '=', 'drp.agent_paired').execute();
      assert.equal(audit!.actor, `agent:${agent.agentId}`);
      assert.equal(audit!.actor_name, 'Test agent');
      assert.doesNotMatch(JSON.stringify(audit), new RegExp(answer.token));

      const got = await info(answer.token);
      assert.equal(got.statusCode, 200);
      assert.deepEqual(got.json(), {});
      const elsewhere = await info(answer.token, 'another-agent');
      assert.equal(elsewhere.statusCode, 403);
      assert.deepEqual(elsewhere.json(), {
        code: '403',
        message: "The path's agent-id is not the bearer token's agent",
        fatal: true,
      });
      // Without a Content-Type, or with application/json, the signed body is read the same.
      now += 1000;
      assert.equal((await pair(signed(), agent.agentId, {})).statusCode, 200);
      now += 1000;
      assert.equal((await pair(signed(), agent.agentId, { 'content-type': 'application/json' })).statusCode, 200);
      const agentRow = await t.app.inject({ url: `/api/v1/drp/agents/${agentRowId}`, headers: { authorization: admin } });
      assert.equal(agentRow.json().paired_at, new Date(now).toISOString());
    });

    it('401 with WWW-Authenticate for no, unknown or void token; a replaced token works 24 h more; a new key voids every token', async () => {
      for (const token of [null, 'drp_' + 'A'.repeat(43), 'not-a-drp-token']) {
        const res = await info(token);
        assert.equal(res.statusCode, 401);
        assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"');
        assert.deepEqual(res.json(), { code: '401', message: 'Invalid or missing bearer token', fatal: true });
      }
      const first = (await pair(signed())).json().token as string;
      now += 1000;
      const second = (await pair(signed())).json().token as string;
      assert.equal((await info(first)).statusCode, 200);
      now += 24 * 60 * 60_000 - 500;
      assert.equal((await info(first)).statusCode, 200);
      now += 1000;
      assert.equal((await info(first)).statusCode, 401);
      assert.equal((await info(second)).statusCode, 200);

      // DRP off: 403 in DRP's words; key setup 403 with an empty body.
      const off = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/workspaces/acme/drp',
        headers: { authorization: admin },
        payload: { enabled: false, business_id: 'acme-retail', name: 'acme' },
      });
      assert.equal(off.statusCode, 200);
      const disabled = await info(second);
      assert.equal(disabled.statusCode, 403);
      assert.deepEqual(disabled.json(), { code: '403', message: 'This business does not accept DRP requests', fatal: true });
      assertRefused(await pair(signed()));
      await t.app.inject({
        method: 'PUT',
        url: '/api/v1/workspaces/acme/drp',
        headers: { authorization: admin },
        payload: { enabled: true, business_id: 'acme-retail', name: 'acme' },
      });
      assert.equal((await info(second)).statusCode, 200);

      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/drp/agents/${agentRowId}`,
        headers: { authorization: admin },
        payload: { verify_key: createDrpAgent('x').verifyKey },
      });
      assert.equal(patched.statusCode, 200);
      assert.equal((await info(second)).statusCode, 401);
      // The old key no longer pairs.
      assertRefused(await pair(signed()));
    });

    it('a body over 64 KiB: 403 empty on key setup (DRP), 413 in DRP words elsewhere', async () => {
      const big = 'A'.repeat(64 * 1024 + 4);
      const setup = await pair(big);
      assert.equal(setup.statusCode, 413);
      assert.equal(setup.body, '');
      const res = await t.app.inject({
        method: 'POST',
        url: '/drp/v1/agent/x',
        headers: { 'content-type': 'text/plain' },
        payload: 'A'.repeat(10),
      });
      assertRefused(res);
    });

    it('more than 60 calls a minute per agent: 429 with Retry-After in DRP words (key setup: no body)', async () => {
      // The agent's key was replaced above: register its own again.
      const restored = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/drp/agents/${agentRowId}`,
        headers: { authorization: admin },
        payload: { verify_key: agent.verifyKey },
      });
      assert.equal(restored.statusCode, 200);
      const token = (await pair(signed())).json().token as string;
      for (let i = 0; i < 60; i++) assert.equal((await info(token)).statusCode, 200);
      const over = await info(token);
      assert.equal(over.statusCode, 429);
      assert.ok(Number(over.headers['retry-after']) >= 1);
      assert.deepEqual(over.json(), { code: '429', message: 'Too many requests: at most 60 a minute per agent', fatal: false });
      for (let i = 0; i < 59; i++) await pair('x');
      const setup = await pair(signed());
      assert.equal(setup.statusCode, 429);
      assert.equal(setup.body, '');
      now += 61_000;
      assert.equal((await info(token)).statusCode, 200);
    });
  });
}
