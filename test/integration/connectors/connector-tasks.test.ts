/**
 * A database system's data tasks done by the service itself (issue 24, PRODUCT §2.14), end to
 * end: a request fans out to a `postgres` or `mysql` system, the worker's task runner reads (or
 * erases) the subject's rows in the target through the connector, and the request completes with
 * the system's part: `systems.<key>.<collection>` rows in the access package (fields in scope,
 * never `system.*`), rows masked/deleted per collection in the deletion report. A target that
 * refuses a privilege fails the task naming system and collection, never the URL. On the
 * service's SQLite and PostgreSQL stores, against PostgreSQL and MariaDB targets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTaskRunner } from '../../../src/jobs/task-runner.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { createShopTarget, SHOP_DATASET_YAML, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';
import { dialects } from '../../helpers/databases.js';
import { tasksOf } from '../../helpers/data-systems.js';
import { type Fixture, fileRequest, openFixture, requestRow, silentLog } from '../../helpers/worker.js';

const kinds = await targetKinds();

for (const dialect of dialects()) {
  for (const { kind, skip } of kinds) {
    describe(`connector tasks (${dialect.name} store, ${kind} target)`, { skip }, () => {
      let f: Fixture;
      let target: ShopTarget;
      let admin: string;
      const db = () => f.t.services.database.db;
      const get = async (url: string) => {
        const res = await f.t.app.inject({ method: 'GET', url, headers: { authorization: admin } });
        assert.equal(res.statusCode, 200, res.body);
        return res.json();
      };
      /** Runs the request worker and the task runner until both are idle. */
      async function processAll() {
        const options = { pollMs: 10, leaseMs: 60_000, maxAttempts: 2 };
        const worker = createWorker({
          database: f.t.services.database,
          clock: f.time.clock,
          log: silentLog,
          pseudonymKey: f.t.services.keys.pseudonymKey,
          secretBox: f.t.services.secretBox,
          options,
        });
        const runner = createTaskRunner({
          database: f.t.services.database,
          clock: f.time.clock,
          log: silentLog,
          taskResults: f.t.services.taskResults,
          keys: {
            secretBox: f.t.services.secretBox,
            connectors: f.t.services.connectors,
            pseudonymKey: f.t.services.keys.pseudonymKey,
          },
          options,
        });
        for (;;) {
          const worked = (await worker.runOnce()) || (await runner.runOnce());
          if (!worked) return;
        }
      }
      /** Registers the shop dataset under `fidesKey` (unique per workspace; its references follow). */
      async function addDatabaseSystem(key: string, url: string, fidesKey = 'shop') {
        const dataset = SHOP_DATASET_YAML.replaceAll('dataset: shop', `dataset: ${fidesKey}`)
          .replaceAll('shop.', `${fidesKey}.`)
          .replace('fides_key: shop', `fides_key: ${fidesKey}`);
        const res = await f.t.app.inject({
          method: 'POST',
          url: '/api/v1/data-systems',
          headers: { authorization: admin },
          payload: { workspace_id: 'acme', key, name: 'Shop database', kind, connection: { url }, dataset },
        });
        assert.equal(res.statusCode, 201, res.body);
      }

      before(async () => {
        target = await createShopTarget(kind);
        f = await openFixture(dialect.create, { env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
        admin = await f.t.bearer(['admin', 'privacy:read'], ['acme']);
        await addDatabaseSystem('shop-db', target.url);
      });
      after(async () => {
        await f?.close();
        await target?.drop();
      });

      it('access: the runner reads the subject rows and the package holds them under systems.shop-db.<collection>', async () => {
        const before = await target.checksums();
        const filed = await fileRequest(f, {
          request_type: 'access',
          scope: ['user'],
          subject_provider: 'github',
          subject_id: '583231',
        });
        await processAll();
        const [task] = await tasksOf(db(), filed.id);
        assert.deepEqual([task!.executor, task!.status, task!.attempts], [kind, 'completed', 1]);
        assert.equal((await requestRow(f, filed.id)).status, 'completed');
        const pkg = await get(`/api/v1/privacy/requests/${filed.id}/package`);
        const part = pkg.systems['shop-db'] as Record<string, Record<string, unknown>[]>;
        assert.deepEqual(
          part.customer?.map((r) => [r.email, r.full_name, r.username]),
          [['ada@example.com', 'Ada Lovelace', 'ada']],
        );
        assert.equal(part.customer?.[0]?.note, undefined, 'system.* fields never leave');
        assert.equal(part.login?.length, 2, 'two hops: the logins of the customer');
        assert.deepEqual(await target.checksums(), before, 'access writes nothing');
        const resource = await get(`/api/v1/data-tasks/${task!.id}`);
        assert.ok(resource.result.records['user.contact.email'] >= 1, 'counts per category on the task');
        assert.deepEqual(resource.result.collections.customer, { rows: 1 }, 'rows per collection on the task');
        assert.equal(resource.result.data, undefined, 'the package is the one copy of the rows');
      });

      it('deletion: the runner masks the subject rows; the report counts rows per collection; the request completes', async () => {
        const filed = await fileRequest(f, {
          request_type: 'deletion',
          scope: ['user'],
          subject_provider: 'github',
          subject_id: '583231',
        });
        await processAll();
        const [task] = await tasksOf(db(), filed.id);
        assert.equal(task!.status, 'completed', task!.result ?? '');
        assert.equal((await requestRow(f, filed.id)).status, 'completed');
        const report = await get(`/api/v1/privacy/requests/${filed.id}/report`);
        const system = (
          report.systems as { key: string; collections?: Record<string, { masked: number; deleted: number }> }[]
        ).find((s) => s.key === 'shop-db');
        assert.deepEqual(system?.collections?.customer, { masked: 1, deleted: 0 });
        assert.deepEqual(system?.collections?.preference, { masked: 0, deleted: 1 });
        const [ada] = await target.admin('SELECT email, full_name FROM customer WHERE id = 1');
        assert.notEqual(ada?.email, 'ada@example.com');
        assert.equal(ada?.full_name, 'erased');
        const [bob] = await target.admin('SELECT email FROM customer WHERE id = 2');
        assert.equal(bob?.email, 'bob@example.com', 'another customer untouched');
      });

      it('deletion of a subject the service knows: its rows in the target are found by the identities it had when the task was created', async () => {
        // Cy (customer 3) is known here by e-mail only; the deletion erases that profile before the task runs.
        await f.t.services.subjects.applyIdentityEvent('acme', 'clerk', {
          id: 'evt_cy_1',
          type: 'user.created',
          occurred_at: '2026-05-01T09:00:00.000Z',
          data: { user_id: 'user_cy', email: 'cy@example.com', name: 'Cy Many' },
        });
        const filed = await fileRequest(f, {
          request_type: 'deletion',
          scope: ['user'],
          subject_provider: 'clerk',
          subject_id: 'user_cy',
        });
        await processAll();
        const [task] = await tasksOf(db(), filed.id);
        assert.equal(task!.status, 'completed', task!.result ?? '');
        assert.equal(task!.identities_ciphertext, null, 'the kept identities go when the task ends');
        assert.deepEqual((JSON.parse(task!.result!) as { collections: Record<string, unknown> }).collections.customer, {
          masked: 1,
          deleted: 0,
        });
        const [cy] = await target.admin('SELECT email, full_name FROM customer WHERE id = 3');
        assert.notEqual(cy?.email, 'cy@example.com');
        assert.equal(cy?.full_name, 'erased');
        const profile = await db().selectFrom('subjects').select('id').where('subject_id', '=', 'user_cy').execute();
        assert.deepEqual(profile, [], 'the local profile is erased too');
      });

      it('a database that refuses a privilege: retried, then the task fails naming system and collection, never the URL', async () => {
        const readOnly = await target.readOnlyUrl();
        // Only the read-only login answers this request (shop-db would erase the rows first).
        const systems = (await get('/api/v1/data-systems?workspace_id=acme')).items as { id: string; key: string }[];
        const shopDb = systems.find((s) => s.key === 'shop-db');
        await f.t.app.inject({ method: 'DELETE', url: `/api/v1/data-systems/${shopDb!.id}`, headers: { authorization: admin } });
        await addDatabaseSystem('shop-ro', readOnly, 'shop_read_only');
        const filed = await fileRequest(f, {
          request_type: 'deletion',
          scope: ['user'],
          subject_provider: 'github',
          subject_id: '777',
        });
        await processAll();
        let [task] = await tasksOf(db(), filed.id);
        assert.equal(task!.system_key, 'shop-ro');
        assert.deepEqual([task!.status, task!.attempts], ['pending', 1], 'a missing privilege is retried with the backoff');
        f.time.set(task!.next_attempt_at!);
        await processAll();
        [task] = await tasksOf(db(), filed.id);
        assert.equal(task!.status, 'failed');
        const note = (JSON.parse(task!.result!) as { note: string }).note;
        assert.match(note, /shop-ro/);
        assert.doesNotMatch(note, new RegExp(target.password.replace(/[-]/g, '\\-')));
        assert.doesNotMatch(note, /:\/\//, 'no URL');
        const row = await requestRow(f, filed.id);
        assert.equal(row.status, 'failed');
        assert.match(row.status_reason ?? '', /shop-ro/);
      });
    });
  }
}
