/**
 * Fides' samples end to end (PRODUCT §2.17; issue 32, Tests): Fides' dataset file registered
 * unchanged through the API as a `postgres` or `mysql` system on Fides' own sample database,
 * requests filed through the API for `customer-1@example.com`, and the worker's task runner doing
 * the work, on the service's SQLite and PostgreSQL stores, against PostgreSQL and MariaDB. The
 * package holds Fides' rows per collection (the two addresses among them); the deletion's report
 * counts what Fides' `user.name` erasure masks and the row is masked in the sample.
 *
 * The person is made a known subject by an identity event carrying the e-mail, and the request
 * names the subject by that account: the connector's `email` identity then comes from what the
 * service knows of the subject (how a request's own e-mail becomes the identity is issue 32 item
 * 1, tested with it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTaskRunner } from '../../../src/jobs/task-runner.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { targetKinds } from '../../helpers/connector-targets.js';
import { dialects } from '../../helpers/databases.js';
import { tasksOf } from '../../helpers/data-systems.js';
import { createFidesSample, FIDES_SAMPLE_DATASET, type FidesSample } from '../../helpers/fides-samples.js';
import { type Fixture, fileRequest, openFixture, requestRow, silentLog } from '../../helpers/worker.js';

const kinds = await targetKinds();

/** What the package holds for customer 1: the collections with a field in scope, and Fides' rows in each. */
const PACKAGE_ROWS = {
  customer: 1,
  employee: 0,
  report: 0,
  service_request: 1,
  visit: 1,
  login: 6,
  orders: 3,
  payment_card: 1,
  address: 2,
};

for (const dialect of dialects()) {
  for (const { kind, skip } of kinds) {
    describe(`Fides' sample end to end (${dialect.name} store, ${kind} target)`, { skip }, () => {
      let f: Fixture;
      let sample: FidesSample;
      let admin: string;
      let systemId: string;
      const db = () => f.t.services.database.db;
      const get = async (url: string) => {
        const res = await f.t.app.inject({ method: 'GET', url, headers: { authorization: admin } });
        assert.equal(res.statusCode, 200, res.body);
        return res.json();
      };
      /** Runs the request worker and the task runner until both are idle. */
      async function processAll() {
        const options = { pollMs: 10, leaseMs: 60_000, maxAttempts: 2 };
        const services = f.t.services;
        const common = { database: services.database, clock: f.time.clock, log: silentLog, options };
        const worker = createWorker({
          ...common,
          pseudonymKey: services.keys.pseudonymKey,
          secretBox: services.secretBox,
        });
        const runner = createTaskRunner({
          ...common,
          taskResults: services.taskResults,
          keys: { secretBox: services.secretBox, connectors: services.connectors, pseudonymKey: services.keys.pseudonymKey },
        });
        for (;;) if (!((await worker.runOnce()) || (await runner.runOnce()))) return;
      }

      before(async () => {
        sample = await createFidesSample(kind);
        f = await openFixture(dialect.create, { env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
        admin = await f.t.bearer(['admin', 'privacy:read'], ['acme']);
        const res = await f.t.app.inject({
          method: 'POST',
          url: '/api/v1/data-systems',
          headers: { authorization: admin },
          payload: {
            workspace_id: 'acme',
            key: 'fides-sample',
            name: 'Fides sample database',
            kind,
            connection: { url: sample.url },
            dataset: FIDES_SAMPLE_DATASET[kind],
          },
        });
        assert.equal(res.statusCode, 201, res.body);
        systemId = res.json().id;
        await f.t.services.subjects.applyIdentityEvent('acme', 'clerk', {
          id: 'evt_customer_1',
          type: 'user.created',
          occurred_at: '2026-05-01T09:00:00.000Z',
          data: { user_id: 'user_customer_1', email: 'customer-1@example.com', name: 'John Customer' },
        });
      });
      after(async () => {
        await f?.close();
        await sample?.drop();
      });

      it("access: the package holds Fides' rows per collection for customer-1@example.com, both addresses among them", async () => {
        const filed = await fileRequest(f, {
          request_type: 'access',
          scope: ['user'],
          subject_provider: 'clerk',
          subject_id: 'user_customer_1',
        });
        await processAll();
        const [task] = await tasksOf(db(), filed.id);
        assert.equal(task!.status, 'completed', task!.result ?? '');
        assert.equal((await requestRow(f, filed.id)).status, 'completed');
        const part = (await get(`/api/v1/privacy/requests/${filed.id}/package`)).systems['fides-sample'] as Record<
          string,
          Record<string, unknown>[]
        >;
        assert.deepEqual(Object.fromEntries(Object.entries(part).map(([name, rows]) => [name, rows.length])), PACKAGE_ROWS);
        assert.deepEqual(part.address?.map((a) => a.street).sort(), ['Example Lane', 'Example Street']);
        assert.equal(part.customer?.[0]?.email, 'customer-1@example.com');
        assert.equal(part.visit?.[0]?.email, 'customer-1@example.com');
      });

      it('preview: one statement per collection, address read by the values of all four collections that reference it', async () => {
        const res = await f.t.app.inject({
          method: 'POST',
          url: `/api/v1/data-systems/${systemId}/preview`,
          headers: { authorization: admin },
          payload: { subject_provider: 'clerk', subject_id: 'user_customer_1', request_type: 'access' },
        });
        assert.equal(res.statusCode, 200, res.body);
        const statements = res.json().statements as { collection: string; sql: string; rows: number }[];
        const names = statements.map((s) => s.collection);
        assert.deepEqual(names, [...new Set(names)], 'one statement per collection');
        const address = statements.find((s) => s.collection === 'address')!;
        assert.equal(address.rows, 2);
        // customer.address_id, orders.shipping_address_id, payment_card.billing_address_id (employee found none)
        assert.equal(address.sql.match(/ IN \(/g)?.length, 3, address.sql);
        assert.ok(!address.sql.includes('customer-1'), 'placeholders only');
        assert.ok(names.indexOf('address') > Math.max(names.indexOf('orders'), names.indexOf('payment_card')));
      });

      it("deletion of user.name: the report counts Fides' one customer row and the sample's row is masked", async () => {
        const filed = await fileRequest(f, {
          request_type: 'deletion',
          scope: ['user.name'],
          subject_provider: 'clerk',
          subject_id: 'user_customer_1',
        });
        await processAll();
        const [task] = await tasksOf(db(), filed.id);
        assert.equal(task!.status, 'completed', task!.result ?? '');
        const report = await get(`/api/v1/privacy/requests/${filed.id}/report`);
        const system = (report.systems as { key: string; collections?: Record<string, unknown> }[]).find(
          (s) => s.key === 'fides-sample',
        );
        assert.deepEqual(system?.collections, { customer: { masked: 1, deleted: 0 } });
        const customers = await sample.admin('SELECT id, name FROM customer ORDER BY id');
        assert.deepEqual(
          customers.map((c) => c.name),
          kind === 'postgres' ? [null, 'Jill Customer', 'Jane Customer'] : [null, 'Jill Customer'],
        );
      });
    });
  }
}
