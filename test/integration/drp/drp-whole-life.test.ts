/**
 * The whole life of an agent's requests (issue 37; PRODUCT §2.19), through real HTTP on SQLite and
 * PostgreSQL, with real Ed25519 signatures and a loopback callback receiver: the admin turns DRP on
 * (approval required) and registers the agent; the agent pairs, exercises an access and reads its
 * status (`open`); the officer approves (a callback: `in_progress`), extends (a callback with the new
 * `expected_by` and the reason as `processing_details`); a data system answers and the request
 * completes (a callback: `fulfilled` with `results_url`, then `expires_at` once the retention
 * sweeper stored the package's expiry); the agent revokes another request (`revoked`, its privacy
 * request canceled, a callback), and a revoke of the fulfilled one is a 409.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { createRetentionSweeper } from '../../../src/jobs/retention-sweeper.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { addSystem, postResult, tasksOf } from '../../helpers/data-systems.js';
import { fixtureDrpAgent, TIMES } from '../../helpers/drp-agent.js';

const BASE = 'https://privacy.acme.example';
const log = pino({ level: 'silent' });

for (const dialect of dialects()) {
  describe(`DRP whole life (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    let receiver: Server;
    let callbackUrl = '';
    const received: { headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
    let now = Date.parse('2026-12-07T12:00:00.000Z');
    const clock = () => new Date(now);
    const agent = fixtureDrpAgent();
    const db = () => t.services.database.db;

    const act = async (prId: string, action: string, payload: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${prId}/${action}`,
        headers: { authorization: admin },
        payload,
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Record<string, unknown>;
    };
    /** Sweeps for changes and delivers what is due. @returns the callbacks received by this round. */
    const callbacks = async () => {
      const before = received.length;
      await t.services.drpCallbacks.sweep();
      await t.services.drpCallbacks.deliver();
      return received.slice(before).map((r) => r.body);
    };
    const processAll = async () => {
      const worker = createWorker({
        database: t.services.database,
        clock,
        log,
        pseudonymKey: t.services.keys.pseudonymKey,
        handlers: REQUEST_HANDLERS,
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 },
      });
      now += 1000;
      while (await worker.runOnce());
    };

    before(async () => {
      receiver = createServer((req, res) => {
        let text = '';
        req.on('data', (chunk: Buffer) => (text += chunk.toString()));
        req.on('end', () => {
          received.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/drp/update_status`;
      database = await dialect.create();
      t = await startTestApp(database, { clock, env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', PUBLIC_BASE_URL: BASE } });
      admin = await t.bearer(['admin', 'privacy:read', 'privacy:write', 'policy:write', 'tasks:write'], ['acme']);
      await t.services.controllers.put('acme', { name: 'Acme Retail Inc.', contact_email: 'privacy@acme.example' }, 'test');
      await t.services.policies.putLayer('acme', null, { require_approval: true }, 'test');
      await addSystem(t, admin, { key: 'crm', name: 'CRM', categories: ['user'], request_types: ['access'] });
    });
    after(async () => {
      await t.close();
      await database.drop();
      await new Promise((resolve) => receiver.close(resolve));
    });

    it('pair, exercise, status, approval, extension, completion, revoke of another: each change reaches the agent', async () => {
      // The business joins the network and registers the agent.
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/workspaces/acme/drp',
        headers: { authorization: admin },
        payload: { enabled: true, business_id: 'acme-retail', name: 'Acme Retail' },
      });
      assert.equal(put.statusCode, 200, put.body);
      assert.equal(put.json().directory_entry.api_base, `${BASE}/drp`);
      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/v1/drp/agents',
        headers: { authorization: admin },
        payload: { workspace_id: 'acme', agent_id: agent.agentId, name: 'Test agent', verify_key: agent.verifyKey },
      });
      assert.equal(registered.statusCode, 201, registered.body);

      // Pair-wise key setup.
      const paired = await t.app.inject({
        method: 'POST',
        url: `/drp/v1/agent/${agent.agentId}`,
        payload: agent.sign(agent.keySetupClaims('acme-retail', TIMES.fresh(clock()))),
      });
      assert.equal(paired.statusCode, 200, paired.body);
      const bearer = { authorization: `Bearer ${paired.json().token as string}` };
      const status = async (requestId: string) => {
        const res = await t.app.inject({ url: `/drp/v1/data-rights-request/${requestId}`, headers: bearer });
        assert.equal(res.statusCode, 200, res.body);
        return res.json() as Record<string, unknown>;
      };
      const exercise = async (fields: Record<string, unknown>) => {
        now += 1000;
        const res = await t.app.inject({
          method: 'POST',
          url: '/drp/v1/data-rights-request',
          headers: bearer,
          payload: agent.sign(
            agent.exerciseClaims('acme-retail', TIMES.fresh(clock()), { status_callback: callbackUrl, ...fields }),
          ),
        });
        assert.equal(res.statusCode, 200, res.body);
        const answer = res.json() as Record<string, unknown> & { request_id: string };
        const row = await db()
          .selectFrom('drp_requests')
          .select('privacy_request_id')
          .where('request_id', '=', answer.request_id)
          .executeTakeFirstOrThrow();
        return { answer, prId: row.privacy_request_id! };
      };

      // Exercise an access: waiting for approval, `open`; the status says the same, no callback.
      const { answer, prId } = await exercise({ exercise: 'access', email: 'ana@example.com', 'agent-request-id': 'life-1' });
      const requestId = answer.request_id;
      assert.deepEqual([answer.status, answer.agent_request_id], ['open', 'life-1']);
      assert.deepEqual(await status(requestId), answer);
      assert.deepEqual(await callbacks(), []);

      // Approval: in_progress, by callback.
      await act(prId, 'approve', {});
      const [approved, ...more] = await callbacks();
      assert.deepEqual(more, []);
      assert.deepEqual([approved?.request_id, approved?.status], [requestId, 'in_progress']);
      assert.equal(approved?.expected_by, answer.expected_by);
      assert.match(String(received.at(-1)?.headers['drp-callback-id']), /^cb_/);

      // The worker asks the CRM: still in_progress, nothing to send.
      await processAll();
      assert.equal(await t.services.drpCallbacks.sweep(), 0);

      // Extension: the new expected_by and the reason.
      now += 60_000;
      const extended = await act(prId, 'extend', { reason: 'The CRM holds ten years of orders' });
      const [afterExtension] = await callbacks();
      assert.deepEqual(
        [afterExtension?.status, afterExtension?.expected_by, afterExtension?.processing_details],
        ['in_progress', extended.extended_due_at, 'The CRM holds ten years of orders'],
      );
      assert.notEqual(afterExtension?.expected_by, answer.expected_by);

      // The CRM answers: completed, fulfilled with the person's status link; then its expiry.
      const [task] = await tasksOf(db(), prId);
      const answered = await postResult(t, admin, task!.id, { outcome: 'completed', records: { user: 3 } });
      assert.equal(answered.statusCode, 200, answered.body);
      const [fulfilled] = await callbacks();
      assert.equal(fulfilled?.status, 'fulfilled');
      assert.equal(fulfilled?.expected_by, extended.extended_due_at);
      const resultsUrl = String(fulfilled?.results_url);
      assert.match(resultsUrl, new RegExp(`^${BASE}/privacy-center/acme/status/${prId}\\?token=`));
      assert.equal((await t.app.inject({ url: resultsUrl.slice(BASE.length) })).statusCode, 200, 'the link opens the answer');
      await createRetentionSweeper({ database: t.services.database, policies: t.services.policies, clock, log }).sweep(clock());
      const [withExpiry] = await callbacks();
      const stored = await db()
        .selectFrom('request_results')
        .select('package_expires_at')
        .where('request_id', '=', prId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        [withExpiry?.status, withExpiry?.results_url, withExpiry?.expires_at],
        ['fulfilled', resultsUrl, stored.package_expires_at],
      );
      assert.deepEqual(await status(requestId), withExpiry);

      // Revoke of another request (a deletion waiting for approval); the fulfilled one cannot be.
      const other = await exercise({ exercise: 'deletion', email: 'bo@example.com', 'agent-request-id': 'life-2' });
      assert.equal(other.answer.status, 'open');
      const revoke = (id: string, reason: string) =>
        t.app.inject({
          method: 'DELETE',
          url: `/drp/v1/data-rights-request/${id}`,
          headers: bearer,
          payload: agent.sign({ reason }),
        });
      const revoked = await revoke(other.answer.request_id, 'The person changed their mind');
      assert.equal(revoked.statusCode, 200, revoked.body);
      assert.deepEqual([revoked.json().status, revoked.json().agent_request_id], ['revoked', 'life-2']);
      const canceled = await db()
        .selectFrom('privacy_requests')
        .selectAll()
        .where('id', '=', other.prId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        [canceled.status, canceled.status_reason],
        ['canceled', 'Revoked by the authorized agent: The person changed their mind'],
      );
      const [revokedCallback] = await callbacks();
      assert.deepEqual(revokedCallback, revoked.json());
      const refused = await revoke(requestId, 'Too late');
      assert.equal(refused.statusCode, 409, refused.body);
      assert.deepEqual(await status(requestId), withExpiry, 'the fulfilled request is unchanged');
      assert.deepEqual(await callbacks(), [], 'nothing more to tell');
    });
  });
}
