/**
 * Waking the worker when work is committed (issue 32 item 9, src/db/wakeup.ts): the request
 * worker and the task runner poll only every 60 s here, so a request or data task they finish
 * within the tests' 10 s deadline was claimed because a commit woke them, not because the poll
 * came round. On both stores: a filed request, and a one-database request (the worker's step fans
 * a task out, the task runner runs the connector on a PostgreSQL target). On PostgreSQL also
 * across processes (a `privacyctl worker` woken by a filing in this process, through
 * `NOTIFY privacy_work`), and a listening session killed with `pg_terminate_backend` is opened
 * again and still wakes the worker.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createDatabase, type Database } from '../../../src/db/database.js';
import { createTaskRunner } from '../../../src/jobs/task-runner.js';
import { addDatabaseSystem, shopDataset } from '../../helpers/connector-flow.js';
import { createShopTarget, engineAvailable, type ShopTarget } from '../../helpers/connector-targets.js';
import { dialects } from '../../helpers/databases.js';
import { tasksOf } from '../../helpers/data-systems.js';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';
import { eventually, type Fixture, fileRequest, openFixture, requestRow, silentLog, testWorker } from '../../helpers/worker.js';

/** The loops' poll: far longer than any deadline below, so only a wake-up can make them claim in time. */
const POLL_MS = 60_000;
/** How long a test waits for completion; under {@link POLL_MS}, so a poll cannot be what finished it. */
const DEADLINE_MS = 10_000;
const options = { pollMs: POLL_MS, leaseMs: 60_000, maxAttempts: 2 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The request's status, once it is `completed` within {@link DEADLINE_MS}. */
async function completes(f: Fixture, id: string): Promise<void> {
  await eventually(async () => (await requestRow(f, id)).status === 'completed', DEADLINE_MS);
}

/** `url` with `application_name` set, to find its sessions in `pg_stat_activity`. */
function named(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
}

/** The backend pids of the sessions named `name` that listen for wake-ups. */
async function listeners(name: string): Promise<number[]> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where application_name = $1 and query = 'listen privacy_work' and state = 'idle'`,
      [name],
    );
    return rows.map((r) => r.pid);
  } finally {
    await admin.end();
  }
}

const pgTargetSkip = (await engineAvailable('postgres')) || process.env.CI === 'true' ? false : 'no postgres target';

for (const dialect of dialects()) {
  describe(`worker wake-up (${dialect.name})`, () => {
    let f: Fixture;
    let target: ShopTarget | undefined;
    before(async () => {
      // `acme` has no data system (a request ends with the worker's own step); `shop` has the database system.
      f = await openFixture(dialect.create, { workspaces: ['acme', 'shop'], env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
      // Unknown subjects complete as "no data" (no identity review).
      for (const workspace of ['acme', 'shop'])
        await f.t.services.policies.putLayer(workspace, null, { confirm_no_data: false }, 'test');
    });
    after(async () => {
      await f?.close();
      await target?.drop();
    });

    it('an idle worker polling every 60 s completes newly filed requests at once', async () => {
      const worker = testWorker(f, undefined, options);
      worker.start();
      try {
        for (let i = 0; i < 3; i++) {
          const filed = await fileRequest(f, { request_type: 'access', subject_id: `wakeup-${i}` });
          await completes(f, filed.id);
        }
      } finally {
        await worker.stop();
      }
    });

    it(
      'a one-database request: the task the worker fans out is run at once, and the request completes',
      { skip: pgTargetSkip },
      async () => {
        target = await createShopTarget('postgres');
        const admin = await f.t.bearer(['admin'], ['shop']);
        await addDatabaseSystem(f, admin, {
          workspace_id: 'shop',
          key: 'shop-db',
          name: 'Shop database',
          kind: 'postgres',
          url: target.url,
          dataset: shopDataset('shop'),
        });
        const services = f.t.services;
        const worker = testWorker(f, undefined, options);
        const runner = createTaskRunner({
          database: services.database,
          clock: f.time.clock,
          log: silentLog,
          taskResults: services.taskResults,
          keys: { secretBox: services.secretBox, connectors: services.connectors, pseudonymKey: services.keys.pseudonymKey },
          options,
        });
        worker.start();
        runner.start();
        try {
          const filed = await fileRequest(f, {
            workspace_id: 'shop',
            request_type: 'access',
            scope: ['user'],
            subject_provider: 'github',
            subject_id: '583231',
          });
          await completes(f, filed.id);
          const [task] = await tasksOf(services.database.db, filed.id);
          assert.deepEqual([task?.executor, task?.status], ['postgres', 'completed']);
        } finally {
          await Promise.all([worker.stop(), runner.stop()]);
        }
      },
    );

    if (dialect.name !== 'postgres') return;

    it('a listening session killed with pg_terminate_backend is opened again, and a later commit still wakes the worker', async () => {
      // The worker's own database (its own wake-ups): only a notification reaches it from the app's commits.
      const name = `wakeup-${randomBytes(4).toString('hex')}`;
      const own: Database = createDatabase(named(f.database.url, name));
      const worker = testWorker(f, undefined, { ...options, database: own });
      worker.start();
      try {
        await eventually(async () => (await listeners(name)).length === 1, DEADLINE_MS);
        const [first] = await listeners(name);
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        await admin.query('select pg_terminate_backend($1)', [first]);
        await admin.end();
        await eventually(async () => {
          const now = await listeners(name);
          return now.length === 1 && now[0] !== first;
        }, DEADLINE_MS);
        // The new session wakes the worker once (a commit may have been missed); let that claim end,
        // so the request below can only be found through its notification.
        await sleep(200);
        const filed = await fileRequest(f, { request_type: 'access', subject_id: 'wakeup-after-reconnect' });
        await completes(f, filed.id);
      } finally {
        await worker.stop();
        await own.close();
      }
      assert.deepEqual(await listeners(name), [], 'the listening session closes with the worker');
    });

    describe('across processes', () => {
      let cli: BuiltCli;
      let child: ChildProcess | undefined;
      before(() => {
        cli = buildPrivacyctl();
      });
      after(() => {
        child?.kill('SIGKILL');
        cli?.remove();
      });

      it(
        'a privacyctl worker in another process, polling every 60 s, is woken by a filing in this one',
        { timeout: 60_000 },
        async () => {
          const name = `wakeup-child-${randomBytes(4).toString('hex')}`;
          const env = {
            ...process.env,
            DATABASE_URL: named(f.database.url, name),
            LOG_LEVEL: 'silent',
            WORKER_POLL_MS: String(POLL_MS),
          };
          child = spawn(process.execPath, [cli.bin, 'worker'], { env, stdio: 'ignore' });
          await eventually(async () => (await listeners(name)).length === 1, 30_000);
          await sleep(200);
          for (let i = 0; i < 2; i++) {
            const filed = await fileRequest(f, { request_type: 'access', subject_id: `wakeup-child-${i}` });
            await completes(f, filed.id);
          }
        },
      );
    });
  });
}
