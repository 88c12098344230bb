/**
 * Delivery fairness (issue 23 item 1, PRODUCT §2.8), on both databases, with real loopback
 * receivers: while 10 endpoints of one workspace hang (accept the POST, never answer), a healthy
 * endpoint of another workspace receives its message within a bound of its commit; the loop
 * keeps no more than the per-endpoint cap in flight to a hanging endpoint; two loops sharing the
 * outbox send each message exactly once; a disabled endpoint's pending messages are never claimed.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { startDeliveryLoop } from '../../../src/jobs/outbound-delivery-loop.js';
import { createDatabase, type Database } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { runUnitOfWork } from '../../../src/db/unit-of-work.js';
import { newId } from '../../../src/lib/ids.js';
import { createSecretBox } from '../../../src/lib/secret-box.js';
import { claimDueMessages } from '../../../src/modules/outbound-events/message-delivery.repository.js';
import { enqueueEvent } from '../../../src/modules/outbound-events/outbox.repository.js';
import { newEndpointSecret } from '../../../src/modules/outbound-events/signing.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const secretBox = createSecretBox('a test key of at least thirty-two characters');
const silent = pino({ level: process.env.TEST_LOG ?? 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const dialect of dialects()) {
  describe(`outbound delivery fairness (${dialect.name})`, () => {
    let test: TestDatabase;
    let database: Database;
    let server: Server;
    let base: string;
    /** Arrivals by path: the webhook-id and when it arrived (ms). */
    const arrivals = new Map<string, { id: string; at: number }[]>();
    /** Requests to `/hang…` open right now (accepted, never answered). */
    const hanging = new Map<string, number>();

    before(async () => {
      test = await dialect.create();
      database = createDatabase(test.url);
      await migrateToLatest(database.db);
      server = createServer((req, res) => {
        const path = req.url ?? '';
        const at = Date.now();
        req.resume();
        req.on('end', () => {
          const list = arrivals.get(path) ?? [];
          list.push({ id: String(req.headers['webhook-id']), at });
          arrivals.set(path, list);
          if (path.startsWith('/hang')) {
            hanging.set(path, (hanging.get(path) ?? 0) + 1);
            res.on('close', () => hanging.set(path, (hanging.get(path) ?? 1) - 1));
            return; // never answered
          }
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.closeAllConnections();
      server.close();
      await database.close();
      await test.drop();
    });

    const addEndpoint = async (workspace: string, path: string) => {
      const id = newId('ep');
      await database.db
        .insertInto('webhook_endpoints')
        .values({
          id,
          workspace_id: workspace,
          url: `${base}${path}`,
          description: null,
          event_types: null,
          secret_ciphertext: secretBox.seal(newEndpointSecret()),
          previous_secret_ciphertext: null,
          previous_secret_expires_at: null,
          failing_since: null,
          disabled_at: null,
          created_at: new Date().toISOString(),
        })
        .execute();
      return id;
    };
    const enqueue = (workspace: string, count: number) =>
      runUnitOfWork(database.db, async (unit) => {
        for (let i = 0; i < count; i += 1)
          enqueueEvent(unit, { workspaceId: workspace, type: 'privacy_request.created', data: { i } });
      });
    const options = () => ({ db: database.db, secretBox, allowPrivate: true, clock: () => new Date(), timeoutMs: 8_000 });

    it('a healthy endpoint receives its message within 3 s of its commit while 10 endpoints of another tenant hang', async () => {
      for (let i = 0; i < 10; i += 1) await addEndpoint('ws_slow', `/hang-${i}`);
      await addEndpoint('ws_fast', '/fast');
      // A backlog on every hanging endpoint: 5 messages each (one enqueue reaches all 10).
      for (let i = 0; i < 5; i += 1) await enqueue('ws_slow', 1);
      const loop = startDeliveryLoop(options(), 100, silent);
      try {
        // Wait until every hanging endpoint holds attempts open.
        const ready = Date.now() + 5_000;
        while ([...hanging.values()].filter((n) => n > 0).length < 10 && Date.now() < ready) await sleep(20);
        assert.equal([...hanging.values()].filter((n) => n > 0).length, 10, 'all 10 slow endpoints hang');
        // The per-endpoint cap (2 by default): never more than 2 attempts open to one endpoint.
        assert.ok(
          [...hanging.values()].every((n) => n <= 2),
          JSON.stringify([...hanging]),
        );
        const committed = Date.now();
        await enqueue('ws_fast', 1);
        const deadline = committed + 10_000;
        while (!arrivals.get('/fast')?.length && Date.now() < deadline) await sleep(10);
        const got = arrivals.get('/fast') ?? [];
        assert.equal(got.length, 1, 'the healthy endpoint got its message');
        const latency = got[0]!.at - committed;
        assert.ok(latency < 3_000, `healthy endpoint waited ${latency} ms`);
        assert.ok(
          [...hanging.values()].every((n) => n <= 2),
          JSON.stringify([...hanging]),
        );
      } finally {
        server.closeAllConnections();
        await loop.stop();
        // The slow tenant's retries are not the next tests' business.
        await database.db
          .updateTable('webhook_endpoints')
          .set({ disabled_at: new Date().toISOString() })
          .where('workspace_id', '=', 'ws_slow')
          .execute();
      }
    });

    it('two loops sharing the outbox send each of 200 messages over 4 endpoints exactly once', async () => {
      for (let i = 0; i < 4; i += 1) await addEndpoint(`ws_pair_${i % 2}`, `/pair-${i}`);
      const loops = [startDeliveryLoop(options(), 20, silent), startDeliveryLoop(options(), 20, silent)];
      try {
        for (let i = 0; i < 50; i += 1) {
          await enqueue('ws_pair_0', 1);
          await enqueue('ws_pair_1', 1);
        }
        const count = () => [0, 1, 2, 3].reduce((n, i) => n + (arrivals.get(`/pair-${i}`)?.length ?? 0), 0);
        const deadline = Date.now() + 20_000;
        while (count() < 200 && Date.now() < deadline) await sleep(20);
        await sleep(200);
      } finally {
        await Promise.all(loops.map((l) => l.stop()));
      }
      const ids = [0, 1, 2, 3].flatMap((i) => (arrivals.get(`/pair-${i}`) ?? []).map((a) => a.id));
      assert.equal(ids.length, 200);
      assert.equal(new Set(ids).size, 200);
      const left = await database.db
        .selectFrom('outbound_messages')
        .select('status')
        .where('workspace_id', 'in', ['ws_pair_0', 'ws_pair_1'])
        .where('status', '!=', 'delivered')
        .execute();
      assert.equal(left.length, 0);
    });

    it('a claim takes one message per endpoint per turn, workspaces first, and skips a disabled endpoint', async () => {
      const a1 = await addEndpoint('ws_rr_a', '/rr-a1');
      const a2 = await addEndpoint('ws_rr_a', '/rr-a2');
      const b = await addEndpoint('ws_rr_b', '/rr-b');
      const off = await addEndpoint('ws_rr_c', '/rr-off');
      for (let i = 0; i < 3; i += 1) {
        await enqueue('ws_rr_a', 1);
        await enqueue('ws_rr_b', 1);
        await enqueue('ws_rr_c', 1);
      }
      await database.db
        .updateTable('webhook_endpoints')
        .set({ disabled_at: new Date().toISOString() })
        .where('id', '=', off)
        .execute();
      const now = new Date(Date.now() + 1000).toISOString();
      const lease = new Date(Date.now() + 60_000).toISOString();
      const first = await claimDueMessages(database.db, now, lease, 3, 2);
      // Workspaces take turns: a's first endpoint, b, then a's second endpoint.
      assert.deepEqual(first.map((m) => m.endpoint_id).sort(), [a1, a2, b].sort());
      assert.equal(first.filter((m) => m.workspace_id === 'ws_rr_b').length, 1);
      const rest = await claimDueMessages(database.db, now, lease, 50, 2);
      // Each endpoint holds at most 2 leased: a1, a2 and b one more each; the disabled one nothing.
      assert.deepEqual(rest.map((m) => m.endpoint_id).sort(), [a1, a2, b].sort());
      assert.equal((await claimDueMessages(database.db, now, lease, 50, 2)).length, 0);
      assert.ok(![...first, ...rest].some((m) => m.endpoint_id === off));
      await database.db.deleteFrom('outbound_messages').where('workspace_id', 'in', ['ws_rr_a', 'ws_rr_b', 'ws_rr_c']).execute();
    });
  });
}
