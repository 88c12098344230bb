/**
 * A deletion leaves no copy in the outbox (issue 14, PRODUCT §2.8/§2.9), on each dialect: a data
 * system with a webhook endpoint receives the deletion's `data_task.created` (it names the
 * subject's linked accounts, so the system can find the person), answers its task, and the
 * deletion ends `completed`; afterwards no outbound message payload holds the subject's email,
 * name, login or account ids: the sent ones were redacted when the deletion ended.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { startWorker } from '../../../src/jobs/start-worker.js';
import { dialects } from '../../helpers/databases.js';
import { createBody } from '../../helpers/requests.js';
import { addSources, sendIdentityEvent, unique } from '../../helpers/subject-data.js';
import { type Fixture, openFixture, silentLog } from '../../helpers/worker.js';

for (const dialect of dialects()) {
  describe(`outbox redaction after a deletion (${dialect.name})`, () => {
    let f: Fixture;
    let server: Server;
    let base: string;
    const bodies: string[] = [];

    before(async () => {
      f = await openFixture(() => dialect.create(), {
        start: new Date().toISOString(),
        env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' },
      });
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString('utf8')));
        req.on('end', () => {
          bodies.push(body);
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.close();
      await f.close();
    });

    it('the data task named the accounts; once the deletion ended, no payload does', { timeout: 60_000 }, async () => {
      const u = unique();
      const person = { userId: `idp-${u}`, email: `grace.${u}@example.org`, name: `Grace Hopper ${u}`, login: `ghopper-${u}` };
      const accountId = String(700_000_000 + Math.floor(Math.random() * 1_000_000));
      const sources = await addSources(f.t, 'acme');
      await sendIdentityEvent(f.t, sources, 'user.created', new Date().toISOString(), {
        user_id: person.userId,
        email: person.email,
        name: person.name,
        username: person.login,
        linked_accounts: [{ provider: 'github', account_id: accountId, login: person.login }],
      });
      const admin = await f.t.bearer(['admin'], ['acme']);
      const call = (method: 'POST' | 'GET', url: string, payload?: object, auth = admin, headers = {}) =>
        f.t.app.inject({ method, url, headers: { authorization: auth, ...headers }, ...(payload ? { payload } : {}) });
      const endpoint = await call('POST', '/api/v1/webhook-endpoints', {
        workspace_id: 'acme',
        url: `${base}/support-desk`,
        event_types: ['data_task.created'],
      });
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      const system = await call('POST', '/api/v1/data-systems', {
        workspace_id: 'acme',
        key: 'support-desk',
        name: 'Support desk',
        categories: ['user'],
        request_types: ['deletion'],
        endpoint_id: endpoint.json().id,
      });
      assert.equal(system.statusCode, 201, system.body);
      const filed = await call(
        'POST',
        '/api/v1/privacy/requests',
        createBody({
          request_type: 'deletion',
          subject_id: person.userId,
          subject_provider: sources.idp,
          client_request_id: `del-${u}`,
        }),
        f.auth,
        { 'idempotency-key': `del-key-${u}` },
      );
      assert.equal(filed.statusCode, 202, filed.body);
      const requestId = filed.json().id as string;

      const worker = startWorker(f.t.services, { ...loadConfig({}).worker, pollMs: 20 }, silentLog);
      try {
        const until = async (done: () => Promise<boolean> | boolean, what: string) => {
          const deadline = Date.now() + 20_000;
          while (!(await done())) {
            if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
            await new Promise((r) => setTimeout(r, 25));
          }
        };
        await until(() => bodies.some((b) => b.includes('data_task.created')), 'the data task event');
        const event = bodies.find((b) => b.includes('data_task.created')) ?? '';
        assert.ok(event.includes(accountId), 'the task event names the linked account, so the system can find the person');
        const tasks = await call('GET', '/api/v1/data-tasks?workspace_id=acme', undefined, admin);
        const task = (tasks.json().items as { id: string; request_id: string }[]).find((t) => t.request_id === requestId);
        assert.ok(task, tasks.body);
        const reporter = await f.t.bearer(['tasks:write'], ['acme']);
        const result = await call(
          'POST',
          `/api/v1/data-tasks/${task.id}/result`,
          { outcome: 'completed', erased: { user: 3 } },
          reporter,
        );
        assert.equal(result.statusCode, 200, result.body);
        await until(
          async () =>
            (await call('GET', `/api/v1/privacy/requests/${requestId}`, undefined, f.auth)).json().status === 'completed',
          'the deletion to complete',
        );
      } finally {
        await worker.stop();
      }
      const payloads = await f.t.services.database.db
        .selectFrom('outbound_messages')
        .select(['event_type', 'status', 'payload'])
        .execute();
      assert.ok(payloads.length > 0);
      for (const row of payloads)
        for (const needle of [person.email, person.name, person.login, accountId])
          assert.ok(!row.payload.includes(needle), `${row.event_type} (${row.status}) still holds ${needle}`);
    });
  });
}
