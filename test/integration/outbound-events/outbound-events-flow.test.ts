/**
 * Outbound events end to end (PRODUCT §2.8, issue 14), once per dialect: an endpoint registered
 * through the API, requests filed and acted on through the API, the worker of `serve`
 * (startWorker) processing them and delivering the outbox to a real receiver on loopback, which
 * verifies every delivery with the `standardwebhooks` package. Also: a refused filing sends
 * nothing, the deadline sweep sends due-soon and overdue once per request, and an endpoint that
 * fails for 5 days is disabled (the workspace's other endpoints are told).
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../../src/config.js';
import { sweepDeadlineEvents } from '../../../src/jobs/deadline-events.js';
import { startWorker } from '../../../src/jobs/start-worker.js';
import { deliverDueMessages } from '../../../src/modules/outbound-events/deliverer.js';
import { createBody } from '../../helpers/requests.js';
import { dialects } from '../../helpers/databases.js';
import { type Fixture, openFixture, silentLog } from '../../helpers/worker.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const DAY = 24 * 60 * 60 * 1000;

for (const dialect of dialects()) {
  describe(`outbound events, end to end (${dialect.name})`, () => {
    let f: Fixture;
    let server: Server;
    let base: string;
    let admin: string;
    let approver: string;
    const received: Received[] = [];
    const failing = new Set<string>();

    const call = (authorization: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = {}) =>
      f.t.app.inject({ method, url, headers: { authorization, ...headers }, ...(payload ? { payload } : {}) });
    let serial = 0;
    const file = async (overrides: Record<string, unknown> = {}, auth = f.auth) => {
      serial += 1;
      const res = await call(
        auth,
        'POST',
        '/api/v1/privacy/requests',
        createBody({ client_request_id: `crm-flow-${serial}`, ...overrides }),
        {
          'idempotency-key': `flow-key-${serial}-${dialect.name}`,
        },
      );
      return res;
    };
    const endpoint = async (path: string, workspace = 'acme', eventTypes?: string[]) => {
      const res = await call(admin, 'POST', '/api/v1/webhook-endpoints', {
        workspace_id: workspace,
        url: `${base}${path}`,
        ...(eventTypes ? { event_types: eventTypes } : {}),
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as { id: string; secret: string };
    };
    const messagesOf = (endpointId: string) =>
      f.t.services.database.db
        .selectFrom('outbound_messages')
        .selectAll()
        .where('endpoint_id', '=', endpointId)
        .orderBy('id')
        .execute();
    /** Delivers what is due now (real time: receivers check the signature's timestamp). */
    const deliver = () =>
      deliverDueMessages({
        db: f.t.services.database.db,
        secretBox: f.t.services.secretBox,
        allowPrivate: true,
        clock: () => new Date(),
      });
    /** Deliveries to `path`, verified, oldest message first (a batch is sent concurrently: arrival order may differ). */
    const verified = (path: string, secret: string) =>
      received
        .filter((r) => r.path === path)
        .sort((a, b) => String(a.headers['webhook-id']).localeCompare(String(b.headers['webhook-id'])))
        .map(
          (r) =>
            new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
              type: string;
              data: Record<string, unknown>;
            },
        );

    before(async () => {
      f = await openFixture(() => dialect.create(), {
        start: new Date().toISOString(),
        workspaces: ['acme', 'strict'],
        env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' },
      });
      admin = await f.t.bearer(['admin'], ['acme', 'strict']);
      approver = await f.t.bearer(['privacy:write', 'privacy:read'], ['acme', 'strict']);
      // The requests here are about delivery, for a subject nothing knows: no review of unmatched
      // identities (PRODUCT §2.13; identity-unmatched.test.ts), so they complete.
      await f.t.services.policies.putLayer('acme', null, { confirm_no_data: false }, 'test');
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString('utf8')));
        req.on('end', () => {
          received.push({ path: req.url ?? '', headers: req.headers, body });
          res.writeHead(failing.has(req.url ?? '') ? 500 : 204).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.close();
      await f.close();
    });

    it("serve's worker processes a request and delivers created, status_changed and completed, signed", async () => {
      const { id, secret } = await endpoint('/all');
      const filed = await file();
      assert.equal(filed.statusCode, 202, filed.body);
      const requestId = filed.json().id as string;
      const worker = startWorker(f.t.services, { ...loadConfig({}).worker, pollMs: 20 }, silentLog);
      try {
        const deadline = Date.now() + 10_000;
        while (verified('/all', secret).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      } finally {
        await worker.stop();
      }
      const events = verified('/all', secret);
      assert.deepEqual(
        events.map((e) => e.type),
        ['privacy_request.created', 'privacy_request.status_changed', 'privacy_request.completed'],
      );
      for (const e of events) assert.equal(e.data.id, requestId);
      assert.equal(events[0]?.data.status, 'queued');
      assert.deepEqual([events[1]?.data.previous_status, events[1]?.data.status], ['processing', 'completed']);
      assert.ok(!JSON.stringify(events).includes('"package"'), 'events never carry the package');
      const ids = received.filter((r) => r.path === '/all').map((r) => r.headers['webhook-id']);
      assert.equal(new Set(ids).size, 3, 'one webhook-id per message');
      assert.equal(
        received.filter((r) => r.path === '/all')[0]?.headers['user-agent']?.startsWith('privacy-request-service/'),
        true,
      );
      const rows = await messagesOf(id);
      assert.deepEqual(
        rows.map((r) => [r.status, r.request_id]),
        rows.map(() => ['delivered', requestId]),
      );
    });

    it('a refused filing (client_request_id taken) and a replay send nothing', async () => {
      const { id } = await f.t.services.webhookEndpoints.create(
        { workspace_id: 'acme', url: `${base}/quiet`, event_types: ['privacy_request.created'] },
        'test',
      );
      const first = await file({ client_request_id: 'crm-taken-0001' });
      assert.equal(first.statusCode, 202);
      assert.equal((await messagesOf(id)).length, 1);
      serial += 1;
      const taken = await call(f.auth, 'POST', '/api/v1/privacy/requests', createBody({ client_request_id: 'crm-taken-0001' }), {
        'idempotency-key': `flow-other-${serial}`,
      });
      assert.equal(taken.statusCode, 409);
      const replay = await call(f.auth, 'POST', '/api/v1/privacy/requests', createBody({ client_request_id: 'crm-taken-0001' }), {
        'idempotency-key': `flow-key-${serial - 1}-${dialect.name}`,
      });
      assert.equal(replay.headers['idempotent-replayed'], 'true', replay.body);
      assert.equal((await messagesOf(id)).length, 1, 'nothing enqueued by a refusal or a replay');
    });

    it('operator actions send status_changed with previous_status; an extension sends nothing', async () => {
      await call(admin, 'PUT', '/api/v1/policies/workspaces/strict', { require_approval: true });
      const putLayer = await f.t.services.policies.effective('strict', '');
      assert.equal(putLayer.policy.require_approval, true);
      const { id, secret } = await f.t.services.webhookEndpoints.create(
        { workspace_id: 'strict', url: `${base}/strict`, event_types: ['privacy_request.status_changed'] },
        'test',
      );
      const a = (await file({ workspace_id: 'strict' })).json().id as string;
      const b = (await file({ workspace_id: 'strict' })).json().id as string;
      assert.equal((await call(approver, 'POST', `/api/v1/privacy/requests/${a}/approve`)).statusCode, 200);
      assert.equal((await call(approver, 'POST', `/api/v1/privacy/requests/${b}/extend`, { reason: 'complex' })).statusCode, 200);
      assert.equal(
        (await call(approver, 'POST', `/api/v1/privacy/requests/${b}/reject`, { reason: 'manifestly unfounded' })).statusCode,
        200,
      );
      await deliver();
      const events = verified('/strict', secret).map((e) => [e.data.id, e.data.previous_status, e.data.status]);
      assert.deepEqual(events, [
        [a, 'pending_approval', 'queued'],
        [b, 'pending_approval', 'rejected'],
      ]);
      assert.equal((await messagesOf(id)).length, 2);
    });

    it('the deadline sweep sends due_soon and overdue once per request, and again after an extension', async () => {
      const { id } = await f.t.services.webhookEndpoints.create(
        { workspace_id: 'acme', url: `${base}/deadlines`, event_types: ['privacy_request.due_soon', 'privacy_request.overdue'] },
        'test',
      );
      const db = f.t.services.database.db;
      // Earlier tests' requests are final or far from due; this one is left open (not processed).
      const filed = (await file()).json() as { id: string; due_at: string };
      const pause = async () => undefined;
      const types = async () =>
        (await messagesOf(id)).filter((m) => m.request_id === filed.id).map((m) => [m.event_type, m.request_id]);
      const dueAt = Date.parse(filed.due_at);
      await sweepDeadlineEvents(db, new Date(dueAt - 8 * DAY), pause);
      assert.deepEqual(await types(), []);
      await sweepDeadlineEvents(db, new Date(dueAt - 6 * DAY), pause);
      await sweepDeadlineEvents(db, new Date(dueAt - 5 * DAY), pause);
      assert.deepEqual(await types(), [['privacy_request.due_soon', filed.id]]);
      await sweepDeadlineEvents(db, new Date(dueAt + 1000), pause);
      await sweepDeadlineEvents(db, new Date(dueAt + DAY), pause);
      assert.deepEqual(await types(), [
        ['privacy_request.due_soon', filed.id],
        ['privacy_request.overdue', filed.id],
      ]);
      const extended = await call(approver, 'POST', `/api/v1/privacy/requests/${filed.id}/extend`, { reason: 'complex' });
      assert.equal(extended.statusCode, 200, extended.body);
      const newDue = Date.parse(extended.json().extended_due_at);
      await sweepDeadlineEvents(db, new Date(newDue - 3 * DAY), pause);
      assert.deepEqual(
        (await types()).map(([type]) => type),
        ['privacy_request.due_soon', 'privacy_request.overdue', 'privacy_request.due_soon'],
      );
      const row = await db
        .selectFrom('privacy_requests')
        .select(['due_soon_notified_at', 'overdue_notified_at'])
        .where('id', '=', filed.id)
        .executeTakeFirstOrThrow();
      assert.ok(row.due_soon_notified_at !== null && row.overdue_notified_at === null);
    });

    it('an endpoint failing for 5 days is disabled, its pending messages fail, and the others are told', async () => {
      failing.add('/down');
      const down = await f.t.services.webhookEndpoints.create({ workspace_id: 'acme', url: `${base}/down` }, 'test');
      const watcher = await f.t.services.webhookEndpoints.create(
        { workspace_id: 'acme', url: `${base}/watcher`, event_types: ['webhook_endpoint.disabled'] },
        'test',
      );
      const db = f.t.services.database.db;
      await file();
      await file();
      await deliver();
      const first = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', down.id).executeTakeFirstOrThrow();
      assert.ok(first.failing_since, 'a failed attempt starts a run of failures');
      assert.equal(first.disabled_at, null, 'not disabled before 5 days');
      const sixDaysAgo = new Date(Date.now() - 6 * DAY).toISOString();
      await db.updateTable('webhook_endpoints').set({ failing_since: sixDaysAgo }).where('id', '=', down.id).execute();
      await db
        .updateTable('outbound_messages')
        .set({ next_attempt_at: new Date(0).toISOString() })
        .where('endpoint_id', '=', down.id)
        .execute();
      await deliver();
      const after = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', down.id).executeTakeFirstOrThrow();
      assert.ok(after.disabled_at, 'disabled');
      assert.deepEqual([...new Set((await messagesOf(down.id)).map((m) => m.status))], ['failed']);
      await deliver();
      const told = verified('/watcher', watcher.secret);
      assert.deepEqual(
        told.map((e) => [e.type, e.data.endpoint_id]),
        [['webhook_endpoint.disabled', down.id]],
      );
      const audit = await db
        .selectFrom('audit_events')
        .select(['actor', 'action'])
        .where('target_id', '=', down.id)
        .orderBy('seq')
        .execute();
      assert.deepEqual(audit.at(-1), { actor: 'worker', action: 'webhook_endpoint.disabled' });
      const filedAfter = await file();
      assert.equal(filedAfter.statusCode, 202);
      assert.equal(
        (await messagesOf(down.id)).filter((m) => m.status === 'pending').length,
        0,
        'a disabled endpoint gets no new messages',
      );
    });
  });
}
