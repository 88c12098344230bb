/**
 * Data-task events and overdue (PRODUCT.md §2.8, §2.9): the `data_task.created` outbox row (to the
 * system's endpoint only, with the subject's identities and links under PUBLIC_BASE_URL), manual
 * tasks without one, the `overdue=true` list, the `data_tasks_overdue` gauge, and the
 * `data_task.overdue` event sent once per task. On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { sendOverdueTaskEvents } from '../../../src/jobs/task-overdue-sweep.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { createMetrics } from '../../../src/metrics.js';
import { dialects } from '../../helpers/databases.js';
import { addSystem, insertEndpoint, postResult, tasksOf } from '../../helpers/data-systems.js';
import { addSources, sendIdentityEvent, unique } from '../../helpers/subject-data.js';
import { type Fixture, fileRequest, openFixture, silentLog } from '../../helpers/worker.js';

const BASE = 'https://privacy.example.com/base';
const DAY_MS = 86_400_000;

for (const dialect of dialects()) {
  describe(`data task events (${dialect.name})`, () => {
    let f: Fixture;
    let admin: string;
    let systemEndpoint: string;
    let otherEndpoint: string;
    const db = () => f.t.services.database.db;
    const messages = (type: string) =>
      db().selectFrom('outbound_messages').selectAll().where('event_type', '=', type).orderBy('id').execute();
    async function fileAndProcess(overrides: Record<string, unknown>) {
      const filed = await fileRequest(f, overrides);
      const w = createWorker({
        database: f.t.services.database,
        clock: f.time.clock,
        log: silentLog,
        pseudonymKey: f.t.services.keys.pseudonymKey,
        handlers: REQUEST_HANDLERS,
        publicBaseUrl: loadConfig({ PUBLIC_BASE_URL: `${BASE}/` }).worker.publicBaseUrl!,
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 },
      });
      while (await w.runOnce());
      return filed;
    }

    before(async () => {
      // Real time: the identity webhooks are signed now.
      f = await openFixture(dialect.create, { start: new Date().toISOString() });
      admin = await f.t.bearer(['admin'], ['acme']);
      systemEndpoint = await insertEndpoint(db(), 'acme');
      otherEndpoint = await insertEndpoint(db(), 'acme');
      await addSystem(f.t, admin, {
        key: 'support-desk',
        categories: ['user.contact'],
        request_types: ['deletion'],
        endpoint_id: systemEndpoint,
        due_days: 2,
      });
      await addSystem(f.t, admin, { key: 'warehouse', categories: ['user'], request_types: ['deletion'] });
    });
    after(() => f.close());

    it('data_task.created goes to the system’s endpoint only, with the identities the erasure then removes and links under PUBLIC_BASE_URL', async () => {
      const s = await addSources(f.t, 'acme', `idp-${unique()}`);
      const userId = `u-${unique()}`;
      await sendIdentityEvent(f.t, s, 'user.created', new Date().toISOString(), {
        user_id: userId,
        email: `${userId}@example.test`,
        linked_accounts: [{ provider: 'github', account_id: '583231', login: 'octo-ada' }],
      });
      const filed = await fileAndProcess({
        request_type: 'deletion',
        scope: ['user'],
        subject_provider: 'github',
        subject_id: '583231',
      });
      const tasks = await tasksOf(db(), filed.id);
      assert.deepEqual(
        tasks.map((t) => t.system_key),
        ['support-desk', 'warehouse'],
      );
      const created = await messages('data_task.created');
      assert.equal(created.length, 1, 'one message: the manual task (warehouse) has no endpoint, the other endpoint gets none');
      const message = created[0]!;
      assert.equal(message.endpoint_id, systemEndpoint);
      assert.notEqual(message.endpoint_id, otherEndpoint);
      assert.equal(message.status, 'pending');
      const payload = JSON.parse(message.payload);
      const task = tasks[0]!;
      assert.equal(payload.type, 'data_task.created');
      assert.equal(payload.data.task.id, task.id);
      assert.equal(payload.data.task.request_id, filed.id);
      assert.deepEqual(payload.data.task.categories, ['user.contact']);
      assert.equal(payload.data.task.status, 'pending');
      assert.deepEqual(payload.data.subject, { subject_provider: 'github', subject_id: '583231' });
      assert.deepEqual(payload.data.idp_subject, { subject_provider: s.idp, subject_id: userId });
      assert.deepEqual(payload.data.linked_accounts, [{ provider: 'github', account_id: '583231', login: 'octo-ada' }]);
      // The same identities a database system is searched by (PRODUCT §2.17): the request's own first.
      assert.deepEqual(payload.data.identities, {
        github_id: ['583231'],
        email: [`${userId}@example.test`],
        username: ['octo-ada'],
        [`${s.idp}_id`]: [userId],
      });
      assert.deepEqual(Object.keys(payload.data.identities)[0], 'github_id');
      assert.deepEqual(payload.data.links, {
        task: `${BASE}/api/v1/data-tasks/${task.id}`,
        result: `${BASE}/api/v1/data-tasks/${task.id}/result`,
        request: `${BASE}/api/v1/privacy/requests/${filed.id}`,
      });
      // The task's own links are absolute too (issue 23, item 14): a receiver follows them as they are.
      assert.deepEqual(payload.data.task.links, {
        self: `${BASE}/api/v1/data-tasks/${task.id}`,
        result: `${BASE}/api/v1/data-tasks/${task.id}/result`,
        request: `${BASE}/api/v1/privacy/requests/${filed.id}`,
      });
      const linked = await db().selectFrom('linked_identities').select('account_id').where('account_id', '=', '583231').execute();
      assert.deepEqual(linked, [], 'the erasure ran in the same processing: the link is gone, the event still names it');
    });

    it('the last task result ends the request with privacy_request.status_changed and .completed; waiting sends none', async () => {
      const filed = await fileAndProcess({ request_type: 'deletion', scope: ['user.name'] });
      const [warehouse] = await tasksOf(db(), filed.id);
      assert.equal(warehouse!.system_key, 'warehouse');
      const about = async () =>
        (
          await db()
            .selectFrom('outbound_messages')
            .select(['event_type', 'payload', 'endpoint_id'])
            .where('request_id', '=', filed.id)
            .orderBy('id')
            .execute()
        )
          .filter((m) => m.endpoint_id === otherEndpoint)
          .map((m) => [m.event_type, JSON.parse(m.payload).data.status]);
      assert.deepEqual(await about(), [['privacy_request.created', 'queued']], 'nothing while it waits for its task');
      assert.equal(
        (await postResult(f.t, admin, warehouse!.id, { outcome: 'completed', erased: { 'user.name': 1 } })).statusCode,
        200,
      );
      assert.deepEqual(await about(), [
        ['privacy_request.created', 'queued'],
        ['privacy_request.status_changed', 'completed'],
        ['privacy_request.completed', 'completed'],
      ]);
    });

    it('overdue: listed with overdue=true, counted by data_tasks_overdue{status="pending"}, and data_task.overdue sent once per task', async () => {
      const filed = await fileAndProcess({ request_type: 'deletion', scope: ['user.contact.email'] });
      const tasks = await tasksOf(db(), filed.id);
      const metrics = createMetrics({ db: db(), clock: f.time.clock, deadlineCacheMs: 0 });
      const gauge = async () => (await metrics.registry.getSingleMetric('data_tasks_overdue')!.get()).values;
      const overdueList = async () =>
        (
          await f.t.app.inject({
            method: 'GET',
            url: '/api/v1/data-tasks?workspace_id=acme&overdue=true',
            headers: { authorization: admin },
          })
        ).json().items as { id: string; overdue: boolean }[];
      assert.deepEqual(
        (await gauge()).map((v) => [v.labels, v.value]),
        [[{ status: 'pending' }, 0]],
      );
      assert.deepEqual(await overdueList(), []);
      assert.equal(await sendOverdueTaskEvents(db(), f.time.clock()), 0);

      f.time.set(new Date(f.time.clock().getTime() + 3 * DAY_MS).toISOString());
      const desk = tasks.find((t) => t.system_key === 'support-desk')!;
      const listed = await overdueList();
      assert.ok(listed.some((t) => t.id === desk.id && t.overdue));
      assert.ok(
        !listed.some((t) => tasks.find((x) => x.system_key === 'warehouse')!.id === t.id),
        'warehouse is due with the request, later',
      );
      const before = (await gauge())[0]!.value;
      assert.ok(before >= 1);
      const sent = await sendOverdueTaskEvents(db(), f.time.clock());
      assert.ok(sent >= 1);
      assert.equal(await sendOverdueTaskEvents(db(), f.time.clock()), 0, 'once per task');
      const overdue = (await messages('data_task.overdue')).filter((m) => JSON.parse(m.payload).data.task.id === desk.id);
      assert.deepEqual(
        overdue.map((m) => m.endpoint_id).sort(),
        [otherEndpoint, systemEndpoint].sort(),
        'to every subscribed endpoint',
      );
      const row = await db()
        .selectFrom('data_tasks')
        .select('overdue_notified_at')
        .where('id', '=', desk.id)
        .executeTakeFirstOrThrow();
      assert.ok(row.overdue_notified_at);

      assert.equal(
        (await postResult(f.t, admin, desk.id, { outcome: 'completed', erased: { 'user.contact.email': 1 } })).statusCode,
        200,
      );
      assert.equal((await gauge())[0]!.value, before - 1, 'a final task is not overdue');
      assert.ok(!(await overdueList()).some((t) => t.id === desk.id));
      const text = await metrics.registry.metrics();
      assert.match(text, /# TYPE data_tasks_overdue gauge/);
    });
  });
}
