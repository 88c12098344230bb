/**
 * A target that can never answer fails its task at once (PRODUCT §2.17, "A resumed erasure…":
 * a database that does not exist, PostgreSQL `3D000`, MySQL/MariaDB 1049, or a refused login,
 * `28P01`/`28000`, MySQL 1045/1044, fails without retries), naming the system and the reason and
 * never the URL or password; a target that is down is still retried. On the service's SQLite and
 * PostgreSQL stores, against PostgreSQL and MariaDB targets.
 *
 * The PostgreSQL on these machines trusts 127.0.0.1 (any password logs in), so its refused login
 * is a role that does not exist (`28000`); MariaDB checks passwords (1045) and a user without
 * access to the database (1044).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTaskRunner } from '../../../src/jobs/task-runner.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { createShopTarget, SHOP_DATASET_YAML, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';
import { dialects } from '../../helpers/databases.js';
import { tasksOf } from '../../helpers/data-systems.js';
import { type Fixture, fileRequest, openFixture, silentLog } from '../../helpers/worker.js';

const kinds = await targetKinds();

for (const dialect of dialects()) {
  for (const { kind, skip } of kinds) {
    describe(`connector targets that can never answer (${dialect.name} store, ${kind} target)`, { skip }, () => {
      let f: Fixture;
      let target: ShopTarget;
      let admin: string;
      let systems = 0;
      const db = () => f.t.services.database.db;

      /** Runs the request worker and the task runner until both are idle (3 attempts allowed). */
      async function processAll() {
        const options = { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 };
        const keys = {
          secretBox: f.t.services.secretBox,
          connectors: f.t.services.connectors,
          pseudonymKey: f.t.services.keys.pseudonymKey,
        };
        const common = { database: f.t.services.database, clock: f.time.clock, log: silentLog, options };
        const worker = createWorker({ ...common, pseudonymKey: keys.pseudonymKey, secretBox: keys.secretBox });
        const runner = createTaskRunner({ ...common, taskResults: f.t.services.taskResults, keys });
        for (;;) if (!((await worker.runOnce()) || (await runner.runOnce()))) return;
      }

      /** Registers the shop dataset as the workspace's only live system, reached by `url`. @returns its key. */
      async function onlySystem(url: string): Promise<string> {
        const list = await f.t.app.inject({ method: 'GET', url: '/api/v1/data-systems', headers: { authorization: admin } });
        for (const s of list.json().items as { id: string }[])
          await f.t.app.inject({ method: 'DELETE', url: `/api/v1/data-systems/${s.id}`, headers: { authorization: admin } });
        const key = `shop-${++systems}`;
        const res = await f.t.app.inject({
          method: 'POST',
          url: '/api/v1/data-systems',
          headers: { authorization: admin },
          payload: { workspace_id: 'acme', key, name: 'Shop database', kind, connection: { url }, dataset: SHOP_DATASET_YAML },
        });
        assert.equal(res.statusCode, 201, res.body);
        return key;
      }

      /** Files an access request for the GitHub user 583231 and runs everything; @returns its one task. */
      async function runTask() {
        const filed = await fileRequest(f, {
          request_type: 'access',
          scope: ['user'],
          subject_provider: 'github',
          subject_id: '583231',
        });
        await processAll();
        const tasks = await tasksOf(db(), filed.id);
        assert.equal(tasks.length, 1);
        return tasks[0]!;
      }

      /** The task failed on its first attempt, its note names the system and `reason`, never the URL or password. */
      function failedAtOnce(task: Awaited<ReturnType<typeof runTask>>, key: string, reason: RegExp, secrets: string[]) {
        assert.deepEqual([task.status, task.attempts], ['failed', 1], task.result ?? '');
        const note = (JSON.parse(task.result ?? '{}') as { note: string }).note;
        assert.match(note, new RegExp(`^system ${key}: `));
        assert.match(note, reason);
        for (const secret of secrets) assert.ok(!note.includes(secret), `the note holds ${secret}`);
        assert.doesNotMatch(note, /:\/\//, 'no URL');
      }

      before(async () => {
        target = await createShopTarget(kind);
        f = await openFixture(dialect.create, { env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
        admin = await f.t.bearer(['admin', 'privacy:read'], ['acme']);
      });
      after(async () => {
        await f?.close();
        await target?.drop();
      });

      it(`a database that does not exist (${kind === 'postgres' ? '3D000' : '1049'}) fails the task at once`, async () => {
        // MySQL tells a login without global privileges 1044 for a database that does not exist
        // (it does not reveal which databases exist): the administrator's login sees 1049.
        const url =
          kind === 'postgres'
            ? target.url.replace(`/${target.database}`, '/no_such_database')
            : 'mysql://root@127.0.0.1:3306/no_such_database';
        const key = await onlySystem(url);
        const task = await runTask();
        failedAtOnce(task, key, /the database named in the connection does not exist \((3D000|ER_BAD_DB_ERROR)\)/, [
          target.password,
          'no_such_database',
        ]);
      });

      it('a refused login fails the task at once', async () => {
        const url =
          kind === 'postgres'
            ? target.url.replace(/\/\/conn_app_[0-9a-f]+:/, '//no_such_role:')
            : target.url.replace(`:${target.password}@`, ':Wrong-password-1@');
        const key = await onlySystem(url);
        const task = await runTask();
        failedAtOnce(task, key, /the database refused the login .*\((28000|28P01|ER_ACCESS_DENIED_ERROR)\)/, [
          target.password,
          'Wrong-password-1',
        ]);
      });

      it(
        'a login without access to the database (MySQL 1044; also its answer for a database that does not exist) fails the task at once',
        { skip: kind === 'postgres' },
        async () => {
          const user = `conn_noaccess_${target.database}`;
          await target.admin(`CREATE USER '${user}'@'%' IDENTIFIED BY '${target.password}'`);
          try {
            for (const url of [
              target.url.replace(/\/\/conn_app_[0-9a-f]+:/, `//${user}:`),
              target.url.replace(`/${target.database}`, '/no_such_database'),
            ]) {
              const key = await onlySystem(url);
              const task = await runTask();
              failedAtOnce(task, key, /the database refused the login .*\(ER_DBACCESS_DENIED_ERROR\)/, [target.password]);
            }
          } finally {
            await target.admin(`DROP USER IF EXISTS '${user}'@'%'`);
          }
        },
      );

      it('a database that is down is still retried (the task stays pending with a next attempt)', async () => {
        await onlySystem(target.url.replace(/:(3306|5432)\//, ':1/'));
        const task = await runTask();
        assert.deepEqual([task.status, task.attempts], ['pending', 1]);
        assert.ok(task.next_attempt_at !== null, 'a backoff is set');
      });
    });
  }
}
