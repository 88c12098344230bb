/**
 * Opt-outs propagated to data systems (issue 36 item 2, PRODUCT §2.18 "Propagation"), over HTTP
 * on both databases: a webhook system naming the kind gets `data_task.created` at its endpoint,
 * delivered to a receiver on loopback and verified with the `standardwebhooks` package; a
 * manual system's task is listed and answered through the API and ends the opt-out (completed,
 * or failed when a task failed); a later opt-in supersedes the earlier opt-out's open task and
 * completes it; a choice received before the standing one tells no system; a database system
 * refuses the opt-out kinds (422, nothing stored); `third_party` is stored and shown.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { deliverDueMessages } from '../../../src/modules/outbound-events/deliverer.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { addSystem, postResult } from '../../helpers/data-systems.js';

const BASE = 'https://privacy.example.com/base';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let serial = 0;
const next = () => `${++serial}-${Date.now()}`;

for (const dialect of dialects()) {
  describe(`opt-out propagation (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    let writer: string;
    let reporter: string;
    let server: Server;
    let receiver: string;
    const received: Received[] = [];

    const db = () => t.services.database.db;
    const file = async (overrides: Record<string, unknown>) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/opt-outs',
        headers: { authorization: writer, 'idempotency-key': `oo-prop-${next()}` },
        payload: {
          workspace_id: 'acme',
          subject_provider: 'email',
          kind: 'sale_sharing',
          choice: 'opt_out',
          source: 'form',
          client_request_id: `crm-prop-${next()}`,
          ...overrides,
        },
      });
      assert.equal(res.statusCode, 202, res.body);
      return res.json() as { id: string; status: string; due_at: string };
    };
    const read = async (id: string) => {
      const res = await t.app.inject({ url: `/api/v1/privacy/opt-outs/${id}`, headers: { authorization: writer } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { status: string; received_at: string; completed_at: string | null; due_at: string };
    };
    const tasksOfOptOut = (id: string) =>
      db().selectFrom('data_tasks').selectAll().where('opt_out_id', '=', id).orderBy('system_key').execute();

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', PUBLIC_BASE_URL: `${BASE}/` } });
      admin = await t.bearer(['admin'], ['acme']);
      writer = await t.bearer(['privacy:write', 'privacy:read'], ['acme']);
      reporter = await t.bearer(['tasks:write', 'privacy:read'], ['acme']);
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString('utf8')));
        req.on('end', () => {
          received.push({ path: req.url ?? '', headers: req.headers, body });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      receiver = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.close();
      await t.close();
      await database.drop();
    });

    it('a webhook system naming the kind gets data_task.created at its endpoint, signed; its result completes the opt-out', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/webhook-endpoints',
        headers: { authorization: admin },
        payload: { workspace_id: 'acme', url: `${receiver}/ad-network`, event_types: ['data_task.created'] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const endpoint = created.json() as { id: string; secret: string };
      const system = await addSystem(t, admin, {
        key: 'ad-network',
        categories: ['user'],
        request_types: ['opt_out_sale_sharing'],
        endpoint_id: endpoint.id,
        third_party: true,
      });
      const subject = `zq-prop-${next()}@example.test`;
      const filed = await file({ subject_id: subject });
      assert.equal(filed.status, 'processing', 'open while its system has not done its part');
      const [task, ...others] = await tasksOfOptOut(filed.id);
      assert.equal(others.length, 0);
      assert.equal(task!.system_key, system.key);
      assert.equal(task!.status, 'pending');
      assert.equal(task!.request_type, 'opt_out_sale_sharing');
      assert.equal(task!.executor, 'webhook');
      assert.equal(task!.due_at, filed.due_at, "the opt-out's deadline (the system sets no due_days)");

      const deadline = Date.now() + 10_000;
      while (!received.some((r) => r.path === '/ad-network') && Date.now() < deadline)
        await deliverDueMessages({ db: db(), secretBox: t.services.secretBox, allowPrivate: true, clock: () => new Date() });
      const deliveries = received.filter((r) => r.path === '/ad-network');
      assert.equal(deliveries.length, 1, 'one message: data_task.created (the endpoint subscribes to nothing else)');
      const event = new Webhook(endpoint.secret).verify(
        deliveries[0]!.body,
        deliveries[0]!.headers as Record<string, string>,
      ) as {
        type: string;
        data: Record<string, unknown>;
      };
      assert.equal(event.type, 'data_task.created');
      const links = {
        task: `${BASE}/api/v1/data-tasks/${task!.id}`,
        result: `${BASE}/api/v1/data-tasks/${task!.id}/result`,
        opt_out: `${BASE}/api/v1/privacy/opt-outs/${filed.id}`,
      };
      assert.deepEqual(event.data.task, {
        id: task!.id,
        request_id: null,
        opt_out_id: filed.id,
        workspace_id: 'acme',
        system_key: 'ad-network',
        request_type: 'opt_out_sale_sharing',
        categories: [],
        status: 'pending',
        due_at: filed.due_at,
        overdue: false,
        created_at: task!.created_at,
        completed_at: null,
        result: null,
        links: { self: links.task, result: links.result, opt_out: links.opt_out },
      });
      const optOut = await read(filed.id);
      assert.deepEqual(event.data.opt_out, {
        id: filed.id,
        kind: 'sale_sharing',
        choice: 'opt_out',
        source: 'form',
        received_at: optOut.received_at,
        due_at: filed.due_at,
      });
      assert.deepEqual(event.data.subject, { subject_provider: 'email', subject_id: subject });
      assert.deepEqual(event.data.linked_accounts, []);
      assert.deepEqual(event.data.identities, { email: [subject] });
      assert.deepEqual(event.data.links, links);

      const answered = await postResult(t, reporter, task!.id, { outcome: 'completed', note: 'suppressed in the ad audience' });
      assert.equal(answered.statusCode, 200, answered.body);
      assert.equal(answered.json().status, 'completed');
      const done = await read(filed.id);
      assert.equal(done.status, 'completed');
      assert.ok(done.completed_at !== null);
      const ended = await db()
        .selectFrom('audit_events')
        .select(['action', 'details'])
        .where('target_id', '=', filed.id)
        .where('action', '=', 'opt_out.completed')
        .execute();
      assert.equal(ended.length, 1);
      assert.deepEqual(JSON.parse(ended[0]!.details), { from: 'processing', to: 'completed', tasks: { completed: 1 } });
    });

    it("a manual system's task is listed and answered through the API; a failed task fails the opt-out", async () => {
      await addSystem(t, admin, { key: 'crm-limit', categories: ['user'], request_types: ['access', 'limit_sensitive_use'] });
      await addSystem(t, admin, { key: 'lab-limit', categories: ['user'], request_types: ['limit_sensitive_use'], due_days: 2 });
      const completed = await file({ subject_id: `zq-manual-${next()}@example.test`, kind: 'sensitive_use' });
      assert.equal(completed.status, 'processing');
      const listed = await t.app.inject({
        url: '/api/v1/data-tasks?workspace_id=acme&system_key=crm-limit&status=pending',
        headers: { authorization: reporter },
      });
      assert.equal(listed.statusCode, 200, listed.body);
      const mine = (
        listed.json().items as { id: string; opt_out_id: string | null; request_id: string | null; links: object }[]
      ).filter((task) => task.opt_out_id === completed.id);
      assert.equal(mine.length, 1, 'the manual task is listed where manual tasks are');
      assert.equal(mine[0]!.request_id, null);
      assert.deepEqual(mine[0]!.links, {
        self: `/api/v1/data-tasks/${mine[0]!.id}`,
        result: `/api/v1/data-tasks/${mine[0]!.id}/result`,
        opt_out: `/api/v1/privacy/opt-outs/${completed.id}`,
      });
      const tasks = await tasksOfOptOut(completed.id);
      assert.deepEqual(
        tasks.map((task) => [task.system_key, task.executor]),
        [
          ['crm-limit', 'manual'],
          ['lab-limit', 'manual'],
        ],
      );
      assert.ok(tasks[1]!.due_at < completed.due_at, "due_days: 2 is earlier than the opt-out's 15 business days");
      // An opt-out's task covers no category: counts by category are refused, nothing stored.
      const refused = await postResult(t, reporter, tasks[0]!.id, { outcome: 'completed', records: { user: 1 } });
      assert.equal(refused.statusCode, 422, refused.body);
      assert.deepEqual(refused.json().detail[0].loc, ['body', 'records', 'user']);
      assert.equal((await postResult(t, reporter, tasks[0]!.id, { outcome: 'completed' })).statusCode, 200);
      assert.equal((await read(completed.id)).status, 'processing', 'one task still pending');
      assert.equal((await postResult(t, reporter, tasks[1]!.id, { outcome: 'not_applicable' })).statusCode, 200);
      assert.equal((await read(completed.id)).status, 'completed');

      const failing = await file({ subject_id: `zq-manual-${next()}@example.test`, kind: 'sensitive_use' });
      const [crm, lab] = await tasksOfOptOut(failing.id);
      assert.equal((await postResult(t, reporter, crm!.id, { outcome: 'failed', note: 'no such switch' })).statusCode, 200);
      assert.equal((await read(failing.id)).status, 'processing', 'a request waits for every task too');
      assert.equal((await postResult(t, reporter, lab!.id, { outcome: 'completed' })).statusCode, 200);
      const failed = await read(failing.id);
      assert.equal(failed.status, 'failed');
      assert.ok(failed.completed_at !== null);
      const again = await postResult(t, reporter, lab!.id, { outcome: 'completed' });
      assert.equal(again.statusCode, 409, 'a final result is immutable');
    });

    it("a later opt-in supersedes the earlier opt-out's open task and completes it; the opt-in gets its own task", async () => {
      await addSystem(t, admin, { key: 'newsletter', categories: ['user'], request_types: ['object_direct_marketing'] });
      const subject = `zq-super-${next()}@example.test`;
      const out = await file({ subject_id: subject, kind: 'direct_marketing' });
      assert.equal(out.status, 'processing');
      const [earlier] = await tasksOfOptOut(out.id);
      assert.equal(earlier!.status, 'pending');
      assert.equal(earlier!.request_type, 'object_direct_marketing');

      const optIn = await file({ subject_id: subject, kind: 'direct_marketing', choice: 'opt_in', source: 'api' });
      assert.equal(optIn.status, 'processing', 'the opt-in propagates the same way');
      const [superseded] = await tasksOfOptOut(out.id);
      assert.equal(superseded!.status, 'superseded');
      assert.ok(superseded!.completed_at !== null);
      const before = await read(out.id);
      assert.equal(before.status, 'completed');
      assert.equal(before.completed_at, superseded!.completed_at);
      const [current] = await tasksOfOptOut(optIn.id);
      assert.equal(current!.status, 'pending');
      assert.equal(current!.system_key, 'newsletter');

      const shown = await t.app.inject({ url: `/api/v1/data-tasks/${superseded!.id}`, headers: { authorization: reporter } });
      assert.equal(shown.json().status, 'superseded');
      const late = await postResult(t, reporter, superseded!.id, { outcome: 'completed' });
      assert.equal(late.statusCode, 409, 'a superseded task is final');
      const audit = await db()
        .selectFrom('audit_events')
        .select(['action', 'details'])
        .where('target_id', 'in', [superseded!.id, out.id])
        .where('action', 'in', ['data_task.superseded', 'opt_out.completed'])
        .orderBy('seq')
        .execute();
      assert.deepEqual(
        audit.map((e) => [e.action, JSON.parse(e.details).superseded_by]),
        [
          ['data_task.superseded', optIn.id],
          ['opt_out.completed', optIn.id],
        ],
      );
      const preferences = await t.app.inject({
        url: `/api/v1/privacy/preferences?workspace_id=acme&subject_provider=email&subject_id=${encodeURIComponent(subject)}`,
        headers: { authorization: writer },
      });
      assert.equal(preferences.json().direct_marketing.choice, 'opt_in');
    });

    it('a choice received before the standing one is recorded, completed at once, and tells no system', async () => {
      const subject = `zq-late-${next()}@example.test`;
      const standing = await file({ subject_id: subject, kind: 'direct_marketing' });
      const earlier = await file({
        subject_id: subject,
        kind: 'direct_marketing',
        choice: 'opt_in',
        source: 'api',
        received_at: new Date(Date.now() - 86_400_000).toISOString(),
      });
      assert.equal(earlier.status, 'completed');
      assert.deepEqual(await tasksOfOptOut(earlier.id), []);
      assert.equal((await read(standing.id)).status, 'processing', 'the standing choice keeps its open task');
      assert.equal((await tasksOfOptOut(standing.id))[0]!.status, 'pending');
    });

    it('a database system refuses the opt-out kinds (422 naming request_types, nothing stored); third_party is shown', async () => {
      const count = async () =>
        Number(
          (
            await db()
              .selectFrom('data_systems')
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/v1/data-systems',
        headers: { authorization: admin },
        payload: {
          workspace_id: 'acme',
          key: 'shop-db',
          name: 'Shop',
          kind: 'postgres',
          request_types: ['access', 'opt_out_sale_sharing'],
          connection: { url: 'postgres://shop:secret@127.0.0.1:5432/shop?sslmode=disable' },
        },
      });
      assert.equal(refused.statusCode, 422, refused.body);
      const item = (refused.json().detail as { loc: unknown[]; msg: string; type: string }[]).find(
        (d) => d.loc[1] === 'request_types',
      );
      assert.deepEqual(item?.loc, ['body', 'request_types', 1]);
      assert.equal(item?.type, 'value_error');
      assert.match(item!.msg, /cannot take opt_out_sale_sharing: a database connector reads, corrects and erases rows/);
      assert.ok(!refused.body.includes('secret@'), 'the connection URL is never echoed');
      assert.equal(await count(), before);

      const plain = await addSystem(t, admin, { key: 'plain-crm', categories: ['user'], request_types: ['access'] });
      assert.equal((plain as unknown as { third_party: boolean }).third_party, false, 'default false');
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/data-systems/${plain.id}`,
        headers: { authorization: admin },
        payload: { third_party: true, request_types: ['access', 'opt_out_sale_sharing'] },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().third_party, true);
      const shown = await t.app.inject({ url: `/api/v1/data-systems/${plain.id}`, headers: { authorization: admin } });
      assert.equal(shown.json().third_party, true);
      assert.deepEqual(shown.json().request_types, ['access', 'opt_out_sale_sharing']);
      const wrongType = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/data-systems/${plain.id}`,
        headers: { authorization: admin },
        payload: { third_party: 'yes' },
      });
      assert.equal(wrongType.statusCode, 422, wrongType.body);
      assert.deepEqual(wrongType.json().detail[0].loc, ['body', 'third_party']);
    });
  });
}
