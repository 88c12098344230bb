/**
 * DRP administration (PRODUCT §2.19): a workspace's DRP settings with their directory entry, and
 * agent registration (`POST/GET/PATCH/DELETE /api/v1/drp/agents`), on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { createDrpAgent, fixtureDrpAgent } from '../../helpers/drp-agent.js';

const SETTINGS = {
  enabled: true,
  business_id: 'acme-retail',
  name: 'Acme Retail',
  web_url: 'https://acme.example',
  technical_contact: 'drp@acme.example',
};

for (const dialect of dialects()) {
  describe(`DRP administration (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    const agent = fixtureDrpAgent();
    const db = () => t.services.database.db;
    const audits = async (action: string) =>
      db().selectFrom('audit_events').select(['action', 'details', 'actor']).where('action', '=', action).execute();
    const counts = async () => ({
      agents: (await db().selectFrom('drp_agents').select('id').execute()).length,
      settings: (await db().selectFrom('drp_settings').select('workspace_id').execute()).length,
    });
    const post = (payload: object, auth = admin) =>
      t.app.inject({ method: 'POST', url: '/api/v1/drp/agents', headers: { authorization: auth }, payload });

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { env: { PUBLIC_BASE_URL: 'https://privacy.acme.example' } });
      admin = await t.bearer(['admin'], ['acme', 'globex']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('settings: 404 until set; PUT (admin) answers the directory entry; GET needs privacy:read; audited', async () => {
      const reader = await t.bearer(['privacy:read'], ['acme']);
      const url = '/api/v1/workspaces/acme/drp';
      assert.equal((await t.app.inject({ url, headers: { authorization: reader } })).statusCode, 404);
      const refused = await t.app.inject({ method: 'PUT', url, headers: { authorization: reader }, payload: SETTINGS });
      assert.equal(refused.statusCode, 403);
      const put = await t.app.inject({ method: 'PUT', url, headers: { authorization: admin }, payload: SETTINGS });
      assert.equal(put.statusCode, 200, put.body);
      const body = put.json();
      assert.deepEqual(body.supported_actions, ['access', 'deletion', 'sale:opt-out', 'sale:opt-in']);
      assert.equal(body.logo, null);
      assert.deepEqual(body.directory_entry, {
        id: 'acme-retail',
        name: 'Acme Retail',
        api_base: 'https://privacy.acme.example/drp',
        supported_actions: ['access', 'deletion', 'sale:opt-out', 'sale:opt-in'],
        supported_verifications: ['email'],
        web_url: 'https://acme.example',
        technical_contact: 'drp@acme.example',
      });
      const got = await t.app.inject({ url, headers: { authorization: reader } });
      assert.equal(got.statusCode, 200);
      assert.deepEqual(got.json(), body);
      const entries = await audits('drp.settings_updated');
      assert.equal(entries.length, 1);
      assert.doesNotMatch(JSON.stringify(entries), /drp@acme/);
    });

    it('settings: business_id unique across the service (409), access:categories a 422 at its index; nothing stored', async () => {
      const url = '/api/v1/workspaces/globex/drp';
      const taken = await t.app.inject({ method: 'PUT', url, headers: { authorization: admin }, payload: SETTINGS });
      assert.equal(taken.statusCode, 409);
      const bad = await t.app.inject({
        method: 'PUT',
        url,
        headers: { authorization: admin },
        payload: { ...SETTINGS, business_id: 'globex', supported_actions: ['deletion', 'access:categories'] },
      });
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(
        bad.json().detail.map((d: { loc: unknown[] }) => d.loc),
        [['body', 'supported_actions', 1]],
      );
      assert.deepEqual(await counts(), { agents: 0, settings: 1 });
      const own = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/workspaces/acme/drp',
        headers: { authorization: admin },
        payload: { ...SETTINGS, supported_actions: ['sale:opt-out', 'deletion', 'deletion'] },
      });
      assert.equal(own.statusCode, 200, own.body);
      assert.deepEqual(own.json().supported_actions, ['deletion', 'sale:opt-out']);
    });

    it('agents: registers with a Base64 key (fingerprint), refuses the hex form (422) and a duplicate (409)', async () => {
      const hex = await post({
        workspace_id: 'acme',
        agent_id: agent.agentId,
        name: 'Test agent',
        verify_key: agent.verifyKeyHex,
      });
      assert.equal(hex.statusCode, 422);
      const [item] = hex.json().detail;
      assert.equal(item.type, 'verify_key_invalid');
      assert.deepEqual(item.loc, ['body', 'verify_key']);
      assert.match(item.msg, /hexadecimal form of DRP 0\.9/);
      assert.deepEqual(await counts(), { agents: 0, settings: 1 });

      const unpadded = agent.verifyKey.replace(/=+$/, '');
      const res = await post({
        workspace_id: 'acme',
        agent_id: agent.agentId,
        name: 'Test agent',
        verify_key: unpadded,
        web_url: 'https://agent.example',
        extra_directory_field: 'ignored',
      });
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json();
      assert.match(created.id, /^agt_[0-9A-Z]{26}$/);
      assert.equal(res.headers.location, `/api/v1/drp/agents/${created.id}`);
      assert.equal(created.verify_key, agent.verifyKey);
      assert.equal(created.key_fingerprint, createHash('sha256').update(Buffer.from(agent.verifyKey, 'base64')).digest('hex'));
      assert.equal(created.disabled, false);
      assert.equal(created.paired_at, null);
      assert.equal(created.confirm_with_consumer, false);
      assert.equal(created.web_url, 'https://agent.example');
      assert.equal(created.identity_assurance_url, null);

      const again = await post({ workspace_id: 'acme', agent_id: agent.agentId, name: 'Again', verify_key: agent.verifyKey });
      assert.equal(again.statusCode, 409);
      // The same agent may register in another workspace.
      const other = await post({
        workspace_id: 'globex',
        agent_id: agent.agentId,
        name: 'Test agent',
        verify_key: agent.verifyKey,
      });
      assert.equal(other.statusCode, 201);
      assert.equal((await audits('drp.agent_registered')).length, 2);
    });

    it('agents: list by workspace, get, patch (a new key), delete; 404 outside the caller; audited', async () => {
      const list = await t.app.inject({ url: '/api/v1/drp/agents?workspace_id=acme', headers: { authorization: admin } });
      assert.equal(list.statusCode, 200);
      const [row] = list.json().items;
      assert.equal(list.json().items.length, 1);
      const stranger = await t.bearer(['admin'], ['initech']);
      const hidden = await t.app.inject({ url: `/api/v1/drp/agents/${row.id}`, headers: { authorization: stranger } });
      assert.equal(hidden.statusCode, 404);
      const patchedByStranger = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/drp/agents/${row.id}`,
        headers: { authorization: stranger },
        payload: { name: 'x' },
      });
      assert.equal(patchedByStranger.statusCode, 404);

      const next = createDrpAgent(agent.agentId);
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/drp/agents/${row.id}`,
        headers: { authorization: admin },
        payload: { verify_key: next.verifyKey, confirm_with_consumer: true, web_url: null },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().verify_key, next.verifyKey);
      assert.notEqual(patched.json().key_fingerprint, row.key_fingerprint);
      assert.equal(patched.json().confirm_with_consumer, true);
      assert.equal(patched.json().web_url, null);
      assert.equal(patched.json().name, 'Test agent');
      const badKey = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/drp/agents/${row.id}`,
        headers: { authorization: admin },
        payload: { verify_key: 'AAAA' },
      });
      assert.equal(badKey.statusCode, 422);
      assert.equal(badKey.json().detail[0].type, 'verify_key_invalid');

      const got = await t.app.inject({ url: `/api/v1/drp/agents/${row.id}`, headers: { authorization: admin } });
      assert.deepEqual(got.json(), patched.json());
      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/drp/agents/${row.id}`,
        headers: { authorization: admin },
      });
      assert.equal(removed.statusCode, 204);
      const gone = await t.app.inject({ url: `/api/v1/drp/agents/${row.id}`, headers: { authorization: admin } });
      assert.equal(gone.statusCode, 404);
      assert.equal((await audits('drp.agent_updated')).length, 1);
      const [removal] = await audits('drp.agent_removed');
      assert.ok(removal);
      assert.doesNotMatch(JSON.stringify(await audits('drp.agent_updated')), /agent\.example/);
    });
  });
}
