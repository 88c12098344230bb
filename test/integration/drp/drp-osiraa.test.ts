/**
 * DRP 1.0 as the reference implementation's agent speaks it (PRODUCT §2.19): every message built
 * and signed by OSIRAA's own Python functions with PyNaCl (test/fixtures/drp/osiraa_agent.py,
 * Apache 2.0, from consumer-reports-innovation-lab/osiraa @151c3a8), sent over real HTTP with the
 * headers OSIRAA sends (`text/plain` on key setup and exercise, no `Content-Type` on revoke), on
 * SQLite and PostgreSQL: key setup, Agent Information, a `voluntary` deletion with OSIRAA's `name`
 * claim (kept nowhere), its status, its revoke; an unverified address waits for the person's code.
 * Needs Debian's `python3-nacl` (`.ci/run` installs it).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const SCRIPT = fileURLToPath(new URL('../../fixtures/drp/osiraa_agent.py', import.meta.url));
/** Debian's interpreter, where `python3-nacl` is installed (a pyenv `python3` may come first on PATH). */
const PYTHON = '/usr/bin/python3';

/** One line of JSON from OSIRAA's functions. */
function osiraa(...args: string[]): Record<string, string> {
  let out: string;
  try {
    out = execFileSync(PYTHON, [SCRIPT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '');
    if (/No module named 'nacl'|ENOENT/.test(stderr + String(error)))
      throw new Error('This test runs OSIRAA’s Python code with PyNaCl: apt-get install -y python3-nacl', { cause: error });
    throw error;
  }
  return JSON.parse(out) as Record<string, string>;
}

for (const dialect of dialects()) {
  describe(`DRP with OSIRAA's own messages (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let base = '';
    let token = '';
    const agentId = 'osiraa-agent';
    const keys = osiraa('keys');
    const identity = (email: string, verified: boolean) =>
      JSON.stringify({ first_name: 'Ada', last_name: 'Okonkwo-Lindqvist', email, email_verified: verified });
    const exercise = (action: string, regime: string, email: string, verified = true) =>
      osiraa(
        'exercise',
        keys.signing_key!,
        agentId,
        'acme-retail',
        action,
        regime,
        'https://osiraa.example/update_status',
        identity(email, verified),
      ).body!;
    const send = (path: string, init: RequestInit) => fetch(`${base}${path}`, init);

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const admin = await t.bearer(['admin', 'privacy:read'], ['acme']);
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/workspaces/acme/drp',
        headers: { authorization: admin },
        payload: { enabled: true, business_id: 'acme-retail', name: 'Acme Retail' },
      });
      assert.equal(put.statusCode, 200, put.body);
      // The verify key as PyNaCl's Base64Encoder writes it, as OSIRAA's agents.json entries give it in 1.0.
      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/v1/drp/agents',
        headers: { authorization: admin },
        payload: { workspace_id: 'acme', agent_id: agentId, name: 'OSIRAA', verify_key: keys.verify_key },
      });
      assert.equal(registered.statusCode, 201, registered.body);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('key setup and Agent Information, as OSIRAA posts them', async () => {
      const res = await send(`/drp/v1/agent/${agentId}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: osiraa('pair', keys.signing_key!, agentId, 'acme-retail').body!,
      });
      assert.equal(res.status, 200);
      const paired = (await res.json()) as { 'agent-id': string; token: string };
      assert.equal(paired['agent-id'], agentId);
      assert.match(paired.token, /^drp_[\w-]{43}$/);
      token = paired.token;
      const info = await send(`/drp/v1/agent/${agentId}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(info.status, 200);
      assert.deepEqual(await info.json(), {});
    });

    it('a voluntary deletion is filed, its status read and its revoke (no Content-Type) answered; OSIRAA’s name claim is kept nowhere', async () => {
      const res = await send('/drp/v1/data-rights-request/', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        body: exercise('deletion', 'voluntary', 'ada@example.com'),
      });
      const answer = (await res.json()) as Record<string, string>;
      assert.equal(res.status, 200, JSON.stringify(answer));
      assert.ok(['open', 'in_progress'].includes(answer.status!), answer.status);
      const status = await send(`/drp/v1/data-rights-request/${answer.request_id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.deepEqual(await status.json(), answer);
      const stored = JSON.stringify([
        await t.services.database.db.selectFrom('drp_requests').selectAll().execute(),
        await t.services.database.db.selectFrom('privacy_requests').selectAll().execute(),
        await t.services.database.db.selectFrom('audit_events').selectAll().execute(),
      ]);
      assert.doesNotMatch(stored, /Okonkwo|Lindqvist/);
      assert.match(stored, /ada@example\.com/, 'the request names its subject');

      const revoke = await send(`/drp/v1/data-rights-request/${answer.request_id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
        body: osiraa('revoke', keys.signing_key!, 'The consumer withdrew the request').body!,
      });
      assert.equal(revoke.status, 200);
      assert.equal(((await revoke.json()) as { status: string }).status, 'revoked');
    });

    it('the same OSIRAA body twice is a 409 naming the first; an unverified address waits for the person', async () => {
      const body = exercise('access', 'ccpa', 'bo@example.com');
      const post = () =>
        send('/drp/v1/data-rights-request', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
          body,
        });
      const first = (await (await post()).json()) as Record<string, string>;
      const again = await post();
      assert.equal(again.status, 409);
      assert.deepEqual(await again.json(), {
        code: '409',
        message: 'Already received',
        fatal: false,
        request_id: first.request_id,
      });

      const waiting = await send('/drp/v1/data-rights-request', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        body: exercise('deletion', 'ccpa', 'cy@example.com', false),
      });
      const answer = (await waiting.json()) as Record<string, string>;
      assert.deepEqual([answer.status, answer.reason], ['in_progress', 'need_user_verification']);
      assert.match(answer.user_verification_url!, /\/privacy-center\/acme\/agent-requests\/[0-9a-f-]{36}\/verify\?token=/);
    });
  });
}
