/**
 * DRP status callbacks (PRODUCT §2.19 "Status callbacks") to a loopback receiver, on SQLite and
 * PostgreSQL: a change of the status object (an operator's extension, cancel; the agent's own
 * revoke) is POSTed once with `drp-callback-id`; no change sends nothing; a newer callback
 * supersedes an undelivered one; a failing receiver is retried with the same id.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { fixtureDrpAgent, TIMES } from '../../helpers/drp-agent.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

for (const dialect of dialects()) {
  describe(`DRP status callbacks (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    let token = '';
    let receiver: Server;
    let callbackUrl = '';
    let answerWith = 200;
    const received: Received[] = [];
    let now = Date.parse('2026-12-07T12:00:00.000Z');
    const agent = fixtureDrpAgent();
    const db = () => t.services.database.db;
    const at = () => TIMES.fresh(new Date(now));
    const file = async (email: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/drp/v1/data-rights-request',
        headers: { authorization: `Bearer ${token}` },
        payload: agent.sign(agent.exerciseClaims('acme-retail', at(), { email, status_callback: callbackUrl })),
      });
      assert.equal(res.statusCode, 200, res.body);
      const record = await db()
        .selectFrom('drp_requests')
        .selectAll()
        .where('request_id', '=', res.json().request_id)
        .executeTakeFirstOrThrow();
      return { answer: res.json(), prId: record.privacy_request_id! };
    };
    const act = async (prId: string, action: string, payload: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${prId}/${action}`,
        headers: { authorization: admin },
        payload,
      });
      assert.equal(res.statusCode, 200, res.body);
    };
    const callbacks = (requestId: string) =>
      db().selectFrom('drp_callbacks').selectAll().where('request_id', '=', requestId).orderBy('id').execute();

    before(async () => {
      receiver = createServer((req, res) => {
        let text = '';
        req.on('data', (chunk: Buffer) => (text += chunk.toString()));
        req.on('end', () => {
          received.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
          res.writeHead(answerWith).end('ignored body');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/drp/update_status`;
      database = await dialect.create();
      t = await startTestApp(database, { clock: () => new Date(now), env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
      admin = await t.bearer(['admin', 'privacy:read', 'privacy:write'], ['acme']);
      await t.app.inject({
        method: 'PUT',
        url: '/api/v1/workspaces/acme/drp',
        headers: { authorization: admin },
        payload: { enabled: true, business_id: 'acme-retail', name: 'Acme' },
      });
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/drp/agents',
        headers: { authorization: admin },
        payload: { workspace_id: 'acme', agent_id: agent.agentId, name: 'Test agent', verify_key: agent.verifyKey },
      });
      const paired = await t.app.inject({
        method: 'POST',
        url: `/drp/v1/agent/${agent.agentId}`,
        payload: agent.sign(agent.keySetupClaims('acme-retail', at())),
      });
      token = paired.json().token;
    });
    beforeEach(() => {
      now += 60_000;
      received.length = 0;
      answerWith = 200;
    });
    after(async () => {
      await t.close();
      await database.drop();
      await new Promise((resolve) => receiver.close(resolve));
    });

    it('the answered object is not sent; an extension is, once, unsigned, with drp-callback-id; no change sends nothing', async () => {
      const { answer, prId } = await file('ana@example.com');
      assert.equal(await t.services.drpCallbacks.sweep(), 0);
      await act(prId, 'extend', { reason: 'Many systems to search' });
      assert.equal(await t.services.drpCallbacks.sweep(), 1);
      assert.equal(await t.services.drpCallbacks.sweep(), 0);
      assert.equal(await t.services.drpCallbacks.deliver(), 1);
      assert.equal(received.length, 1);
      const [got] = received;
      const request = (await t.app.inject({ url: `/api/v1/privacy/requests/${prId}`, headers: { authorization: admin } })).json();
      assert.equal(got!.body.request_id, answer.request_id);
      assert.equal(got!.body.expected_by, request.extended_due_at);
      assert.notEqual(got!.body.expected_by, answer.expected_by);
      assert.match(got!.headers['drp-callback-id'] as string, /^cb_[0-9A-Z]{26}$/);
      assert.match(got!.headers['user-agent'] as string, /^privacy-request-service\//);
      assert.match(got!.headers['content-type'] as string, /^application\/json/);
      assert.equal(got!.headers['webhook-signature'], undefined);
      const [row] = await callbacks(answer.request_id);
      assert.deepEqual([row!.status, row!.attempts], ['delivered', 1]);
      // The agent's GET answers the same object: nothing more to send.
      const status = await t.app.inject({
        url: `/drp/v1/data-rights-request/${answer.request_id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      assert.deepEqual(status.json(), got!.body);
      assert.equal(await t.services.drpCallbacks.sweep(), 0);
      assert.equal(await t.services.drpCallbacks.deliver(), 0);
    });

    it('a newer change supersedes an undelivered callback; a failing receiver is retried with the same id', async () => {
      const { answer, prId } = await file('bo@example.com');
      await act(prId, 'extend', { reason: 'Many systems' });
      assert.equal(await t.services.drpCallbacks.sweep(), 1);
      await act(prId, 'cancel', { reason: 'Duplicate' });
      assert.equal(await t.services.drpCallbacks.sweep(), 1);
      const rows = await callbacks(answer.request_id);
      assert.deepEqual(
        rows.map((r) => r.status),
        ['superseded', 'pending'],
      );
      answerWith = 503;
      assert.equal(await t.services.drpCallbacks.deliver(), 0);
      assert.equal(received.length, 1);
      const failed = (await callbacks(answer.request_id))[1]!;
      assert.deepEqual([failed.status, failed.attempts, failed.last_error], ['pending', 1, 'http_503']);
      assert.ok(Date.parse(failed.next_attempt_at!) > now);
      // Not due yet; once due, sent again with the same id.
      assert.equal(await t.services.drpCallbacks.deliver(), 0);
      now += 10 * 60_000;
      answerWith = 204;
      assert.equal(await t.services.drpCallbacks.deliver(), 1);
      assert.equal(received.length, 2);
      assert.equal(received[1]!.headers['drp-callback-id'], received[0]!.headers['drp-callback-id']);
      assert.deepEqual([received[1]!.body.status, received[1]!.body.reason], ['denied', 'other']);
    });

    it("the agent's own revoke sends one", async () => {
      const { answer } = await file('cy@example.com');
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/drp/v1/data-rights-request/${answer.request_id}`,
        headers: { authorization: `Bearer ${token}` },
        payload: agent.sign({ reason: 'stop' }),
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(await t.services.drpCallbacks.sweep(), 0);
      assert.equal(await t.services.drpCallbacks.deliver(), 1);
      assert.deepEqual(received[0]!.body, res.json());
      assert.equal(received[0]!.body.status, 'revoked');
    });

    it('GET /api/v1/drp/agents/{id}/callbacks lists them with their attempts (admin), never the payload', async () => {
      const [row] = await db().selectFrom('drp_agents').select('id').where('agent_id', '=', agent.agentId).execute();
      const url = `/api/v1/drp/agents/${row!.id}/callbacks`;
      const all = await t.app.inject({ url, headers: { authorization: admin } });
      assert.equal(all.statusCode, 200, all.body);
      const items = all.json().items as { status: string; attempts: number; url: string; request_id: string }[];
      const stored = await db().selectFrom('drp_callbacks').select('id').execute();
      assert.equal(items.length, stored.length);
      assert.ok(items.every((i) => i.url === callbackUrl));
      assert.doesNotMatch(all.body, /expected_by|@example\.com/);
      const superseded = await t.app.inject({ url: `${url}?status=superseded`, headers: { authorization: admin } });
      assert.deepEqual(
        (superseded.json().items as { status: string }[]).map((i) => i.status),
        ['superseded'],
      );
      const retried = (items as { attempts: number; status: string }[]).find((i) => i.attempts === 2);
      assert.equal(retried?.status, 'delivered');
      const reader = await t.bearer(['privacy:read'], ['acme']);
      assert.equal((await t.app.inject({ url, headers: { authorization: reader } })).statusCode, 403);
      const stranger = await t.bearer(['admin'], ['globex']);
      assert.equal((await t.app.inject({ url, headers: { authorization: stranger } })).statusCode, 404);
    });
  });
}
