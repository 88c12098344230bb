/**
 * Delivery of the outbox by the deliverer (issue 14 part 1, PRODUCT §2.8), on both databases,
 * to real loopback receivers: signed deliveries verified with standardwebhooks, the attempts
 * log, the retry schedule with ±20 % jitter up to `failed`, and two deliverers sharing the
 * outbox sending each message once.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createDatabase, type Database } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrator.js';
import { runUnitOfWork } from '../../../src/db/unit-of-work.js';
import { newId } from '../../../src/lib/ids.js';
import { createSecretBox } from '../../../src/lib/secret-box.js';
import { deliverDueMessages } from '../../../src/modules/outbound-events/deliverer.js';
import { enqueueEvent } from '../../../src/modules/outbound-events/outbox.repository.js';
import { RETRY_DELAYS_MS } from '../../../src/modules/outbound-events/retry-schedule.js';
import { newEndpointSecret } from '../../../src/modules/outbound-events/signing.js';
import pino from 'pino';
import { startDeliveryLoop } from '../../../src/jobs/outbound-delivery-loop.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const secretBox = createSecretBox('a test key of at least thirty-two characters');

for (const dialect of dialects()) {
  describe(`outbound delivery (${dialect.name})`, () => {
    let test: TestDatabase;
    let database: Database;
    let server: Server;
    let base: string;
    const received: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];

    before(async () => {
      test = await dialect.create();
      database = createDatabase(test.url);
      await migrateToLatest(database.db);
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString('utf8')));
        req.on('end', () => {
          received.push({ path: req.url ?? '', headers: req.headers, body });
          res.writeHead(req.url === '/fail' ? 500 : 200).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.close();
      await database.close();
      await test.drop();
    });

    const addEndpoint = async (workspace: string, path: string) => {
      const secret = newEndpointSecret();
      await database.db
        .insertInto('webhook_endpoints')
        .values({
          id: newId('ep'),
          workspace_id: workspace,
          url: `${base}${path}`,
          description: null,
          event_types: null,
          secret_ciphertext: secretBox.seal(secret),
          previous_secret_ciphertext: null,
          previous_secret_expires_at: null,
          failing_since: null,
          disabled_at: null,
          created_at: new Date().toISOString(),
        })
        .execute();
      return secret;
    };
    const file = (workspace: string, id: string) =>
      runUnitOfWork(database.db, async (unit) => {
        enqueueEvent(unit, { workspaceId: workspace, type: 'privacy_request.created', data: { id } });
      });
    const messages = (workspace: string) =>
      database.db.selectFrom('outbound_messages').selectAll().where('workspace_id', '=', workspace).execute();
    const deliverer = (clock: () => Date) => ({ db: database.db, secretBox, allowPrivate: true, clock, timeoutMs: 2000 });

    it('delivers a signed message the receiver verifies, and logs the attempt', async () => {
      const secret = await addEndpoint('ws_ok', '/ok');
      await file('ws_ok', 'pr_ok');
      const before = received.length;
      assert.equal(await deliverDueMessages(deliverer(() => new Date())), 1);
      const got = received.slice(before);
      assert.equal(got.length, 1);
      const verified = new Webhook(secret).verify(got[0]!.body, got[0]!.headers as Record<string, string>) as { data: unknown };
      assert.deepEqual(verified.data, { id: 'pr_ok' });
      const [row] = await messages('ws_ok');
      assert.equal(row!.status, 'delivered');
      assert.equal(got[0]!.headers['webhook-id'], row!.id);
      const [attempt] = JSON.parse(row!.attempts);
      assert.equal(attempt.attempt, 1);
      assert.equal(attempt.status_code, 200);
      assert.equal(attempt.error, null);
      assert.equal(typeof attempt.duration_ms, 'number');
      assert.equal(await deliverDueMessages(deliverer(() => new Date())), 0);
    });

    it('retries a failing receiver on the schedule with ±20 % jitter, then marks the message failed', async () => {
      await addEndpoint('ws_fail', '/fail');
      await file('ws_fail', 'pr_fail');
      let now = new Date(Date.now() + 1000);
      for (let attempt = 1; attempt <= 8; attempt += 1) {
        assert.equal(await deliverDueMessages(deliverer(() => now)), 1, `attempt ${attempt}`);
        const [row] = await messages('ws_fail');
        assert.equal(row!.attempt_count, attempt);
        if (attempt === 8) {
          assert.equal(row!.status, 'failed');
          assert.equal(row!.next_attempt_at, null);
          break;
        }
        assert.equal(row!.status, 'pending');
        const delay = Date.parse(row!.next_attempt_at!) - now.getTime();
        const planned = RETRY_DELAYS_MS[attempt - 1]!;
        assert.ok(delay >= planned * 0.8 && delay <= planned * 1.2, `attempt ${attempt}: ${delay} vs ${planned}`);
        assert.equal(await deliverDueMessages(deliverer(() => new Date(now.getTime() + delay - 1))), 0, 'not due yet');
        now = new Date(now.getTime() + delay);
      }
      const [row] = await messages('ws_fail');
      const log = JSON.parse(row!.attempts) as { attempt: number; status_code: number; error: string }[];
      assert.deepEqual(
        log.map((a) => a.attempt),
        [1, 2, 3, 4, 5, 6, 7, 8],
      );
      assert.ok(log.every((a) => a.status_code === 500 && a.error === 'http_500'));
    });

    it('two deliverers sharing the outbox send each message once', async () => {
      await addEndpoint('ws_pair', '/pair');
      for (let i = 0; i < 40; i += 1) await file('ws_pair', `pr_${i}`);
      const before = received.length;
      const clock = () => new Date(Date.now() + 1000);
      const drain = async () => {
        while ((await deliverDueMessages({ ...deliverer(clock), batchSize: 5 })) > 0);
      };
      await Promise.all([drain(), drain()]);
      const ids = received.slice(before).map((r) => r.headers['webhook-id']);
      assert.equal(ids.length, 40);
      assert.equal(new Set(ids).size, 40);
      assert.ok((await messages('ws_pair')).every((m) => m.status === 'delivered'));
    });

    it('the delivery loop sends a message committed while it polls, and stops', async () => {
      const secret = await addEndpoint('ws_loop', '/loop');
      const loop = startDeliveryLoop(
        deliverer(() => new Date()),
        20,
        pino({ level: 'silent' }),
      );
      try {
        await new Promise((r) => setTimeout(r, 50));
        await file('ws_loop', 'pr_loop');
        const deadline = Date.now() + 5000;
        while (!received.some((r) => r.path === '/loop') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      } finally {
        await loop.stop();
      }
      const got = received.filter((r) => r.path === '/loop');
      assert.equal(got.length, 1);
      new Webhook(secret).verify(got[0]!.body, got[0]!.headers as Record<string, string>);
    });
  });
}
