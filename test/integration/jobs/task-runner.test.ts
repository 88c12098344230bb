/**
 * The task runner (src/jobs/task-runner.ts): data tasks of a kind the service runs itself are
 * claimed once across runners, run outside any transaction, and answered through the request
 * lifecycle (the request ends with the system's part); a failed run is retried after the backoff,
 * and after the attempts (or a failure that cannot succeed) the task fails with the executor's
 * safe note. The executor here is the test's own for the `manual` kind (the database connectors
 * bring the real ones, tested in test/integration/connectors/). On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createTaskRunner } from '../../../src/jobs/task-runner.js';
import { createWorker } from '../../../src/jobs/worker.js';
import type { DataTaskRow } from '../../../src/modules/data-systems/data-task.repository.js';
import type { TaskResultInput } from '../../../src/modules/data-systems/data-task-result.fns.js';
import { type DataTaskExecutor, TaskRunError } from '../../../src/workflows/data-systems/data-task-executor.js';
import { dialects } from '../../helpers/databases.js';
import { addSystem, tasksOf } from '../../helpers/data-systems.js';
import { type Fixture, auditOf, fileRequest, openFixture, requestRow, silentLog } from '../../helpers/worker.js';

/** An executor for the `manual` kind whose runs the test scripts. */
function scripted(runs: ((task: DataTaskRow) => Promise<TaskResultInput>)[]) {
  const seen: string[] = [];
  const executor: DataTaskExecutor = {
    manual: true,
    async announce() {},
    async run(task) {
      seen.push(task.id);
      const next = runs.shift();
      if (!next) throw new Error('no more runs scripted');
      return next(task);
    },
  };
  return { executor, seen };
}

for (const dialect of dialects()) {
  describe(`data task runner (${dialect.name})`, () => {
    let f: Fixture;
    afterEach(() => f?.close());
    const db = () => f.t.services.database.db;
    const runner = (executor: DataTaskExecutor, maxAttempts = 3) =>
      createTaskRunner({
        database: f.t.services.database,
        clock: f.time.clock,
        log: silentLog,
        taskResults: f.t.services.taskResults,
        keys: {
          secretBox: f.t.services.secretBox,
          connectors: f.t.services.connectors,
          pseudonymKey: f.t.services.keys.pseudonymKey,
        },
        executors: { manual: executor },
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts },
      });
    /** One manual system, one access request processed up to its waiting task. @returns the request id. */
    async function waitingRequest(): Promise<string> {
      f = await openFixture(dialect.create);
      const admin = await f.t.bearer(['admin'], ['acme']);
      await addSystem(f.t, admin, { key: 'shop-db', name: 'Shop database', categories: ['user'] });
      const filed = await fileRequest(f, { request_type: 'access', scope: ['user'] });
      const worker = createWorker({
        database: f.t.services.database,
        clock: f.time.clock,
        log: silentLog,
        pseudonymKey: f.t.services.keys.pseudonymKey,
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 },
      });
      while (await worker.runOnce());
      assert.equal((await requestRow(f, filed.id)).status, 'processing');
      return filed.id;
    }

    it('runs a task once and answers it through the lifecycle: the request completes with the system part', async () => {
      const id = await waitingRequest();
      const { executor, seen } = scripted([
        async () => ({ outcome: 'completed', records: { 'user.name': 1 }, data: { 'user.name': 'Ada from the shop' } }),
      ]);
      const r = runner(executor);
      assert.equal(await r.runOnce(), true);
      assert.equal(await r.runOnce(), false, 'nothing left to run');
      assert.equal(seen.length, 1);
      const [task] = await tasksOf(db(), id);
      assert.deepEqual([task!.status, task!.attempts, task!.lease_owner, task!.executor], ['completed', 1, null, 'manual']);
      const row = await requestRow(f, id);
      assert.equal(row.status, 'completed');
      const pkg = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${id}/package`,
        headers: { authorization: f.auth },
      });
      assert.deepEqual(pkg.json().systems, { 'shop-db': { 'user.name': 'Ada from the shop' } });
      const entries = await auditOf(f, task!.id);
      assert.deepEqual(
        entries.map((e) => [e.action, e.actor]),
        [
          ['data_task.created', 'worker'],
          ['data_task.completed', 'worker'],
        ],
      );
    });

    it('a retryable failure is tried again after the backoff, then succeeds', async () => {
      const id = await waitingRequest();
      const { executor, seen } = scripted([
        async () => {
          throw new TaskRunError('shop-db: customers: the database did not answer', true);
        },
        async () => ({ outcome: 'completed', records: { 'user.name': 1 } }),
      ]);
      const r = runner(executor);
      assert.equal(await r.runOnce(), true);
      let [task] = await tasksOf(db(), id);
      assert.deepEqual([task!.status, task!.attempts, task!.lease_owner], ['pending', 1, null]);
      assert.equal(task!.next_attempt_at, new Date(f.time.clock().getTime() + 2_000).toISOString(), '2 s after the first');
      assert.equal(await r.runOnce(), false, 'not before the backoff has passed');
      f.time.set(task!.next_attempt_at!);
      assert.equal(await r.runOnce(), true);
      [task] = await tasksOf(db(), id);
      assert.deepEqual([task!.status, task!.attempts], ['completed', 2]);
      assert.equal(seen.length, 2);
      assert.equal((await requestRow(f, id)).status, 'completed');
    });

    it('after the attempts, or at once for a failure that cannot succeed, the task fails with its safe note', async () => {
      const id = await waitingRequest();
      const { executor } = scripted([
        async () => {
          throw new Error('connect ECONNREFUSED postgres://shop:secret@db.internal/shop');
        },
        async () => {
          throw new TaskRunError('shop-db: orders: permission denied', false);
        },
      ]);
      const r = runner(executor, 5);
      await r.runOnce();
      const [first] = await tasksOf(db(), id);
      f.time.set(first!.next_attempt_at!);
      await r.runOnce();
      const [task] = await tasksOf(db(), id);
      assert.equal(task!.status, 'failed');
      assert.deepEqual(JSON.parse(task!.result!), { outcome: 'failed', note: 'shop-db: orders: permission denied' });
      const row = await requestRow(f, id);
      assert.deepEqual([row.status, row.status_reason], ['failed', 'data task failed in: shop-db']);
      const stored = JSON.stringify(await db().selectFrom('data_tasks').selectAll().execute());
      assert.doesNotMatch(stored, /secret|postgres:\/\//, 'an unexpected error is stored by its class only');
    });

    it('two runners on one database run each task once', async () => {
      f = await openFixture(dialect.create);
      const admin = await f.t.bearer(['admin'], ['acme']);
      await addSystem(f.t, admin, { key: 'shop-db', name: 'Shop database', categories: ['user'] });
      for (let i = 0; i < 6; i++) await fileRequest(f, { request_type: 'access', scope: ['user'] });
      const worker = createWorker({
        database: f.t.services.database,
        clock: f.time.clock,
        log: silentLog,
        pseudonymKey: f.t.services.keys.pseudonymKey,
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 },
      });
      while (await worker.runOnce());
      const answer = async () => ({ outcome: 'completed' as const, records: { 'user.name': 0 } });
      const a = scripted(Array.from({ length: 6 }, () => answer));
      const b = scripted(Array.from({ length: 6 }, () => answer));
      const ra = runner(a.executor);
      const rb = runner(b.executor);
      const drain = async (r: ReturnType<typeof runner>) => {
        while (await r.runOnce());
      };
      await Promise.all([drain(ra), drain(rb)]);
      const ran = [...a.seen, ...b.seen];
      assert.equal(ran.length, 6);
      assert.equal(new Set(ran).size, 6, 'no task ran twice');
      const tasks = await db().selectFrom('data_tasks').select(['status', 'attempts']).execute();
      assert.deepEqual(
        tasks.map((t) => [t.status, t.attempts]),
        Array.from({ length: 6 }, () => ['completed', 1]),
      );
    });
  });
}
