/**
 * A resumed erasure reports all it did (PRODUCT §2.17; issue 32 item 6): a deletion task whose
 * first run is interrupted half-way (the target refuses the last collection's write, after the
 * first collections committed) and is run again by the worker's task runner reports the rows
 * masked and deleted by both runs, in the task's result and the deletion report. What the first
 * run committed is kept in the task's `run_progress` between the runs. On the service's SQLite
 * and PostgreSQL stores, against PostgreSQL and MariaDB.
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
const CUSTOMER_COLUMNS = '(email, github_id, username, full_name)';

for (const dialect of dialects()) {
  for (const { kind, skip } of kinds) {
    describe(`a resumed erasure (${dialect.name} store, ${kind} target)`, { skip }, () => {
      let f: Fixture;
      let target: ShopTarget;
      let admin: string;
      let login: string;
      const db = () => f.t.services.database.db;
      const onCustomer = () => (kind === 'postgres' ? 'customer' : `${target.database}.customer`);
      async function processAll() {
        const options = { pollMs: 10, leaseMs: 60_000, maxAttempts: 2 };
        const services = f.t.services;
        const common = { database: services.database, clock: f.time.clock, log: silentLog, options };
        const worker = createWorker({ ...common, pseudonymKey: services.keys.pseudonymKey, secretBox: services.secretBox });
        const runner = createTaskRunner({
          ...common,
          taskResults: services.taskResults,
          keys: { secretBox: services.secretBox, connectors: services.connectors, pseudonymKey: services.keys.pseudonymKey },
        });
        for (;;) if (!((await worker.runOnce()) || (await runner.runOnce()))) return;
      }

      before(async () => {
        target = await createShopTarget(kind);
        const url = await target.leastPrivilegeUrl();
        const user = decodeURIComponent(new URL(url).username);
        login = kind === 'postgres' ? user : `'${user}'@'%'`;
        f = await openFixture(dialect.create, { env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
        admin = await f.t.bearer(['admin', 'privacy:read'], ['acme']);
        const res = await f.t.app.inject({
          method: 'POST',
          url: '/api/v1/data-systems',
          headers: { authorization: admin },
          payload: {
            workspace_id: 'acme',
            key: 'shop-db',
            name: 'Shop database',
            kind,
            connection: { url },
            dataset: SHOP_DATASET_YAML,
          },
        });
        assert.equal(res.statusCode, 201, res.body);
      });
      after(async () => {
        await f?.close();
        await target?.drop();
      });

      it('the run after an interruption reports the rows of both runs; the report shows them; run_progress is cleared at the end', async () => {
        // The first run masks the children, then the login may not write `customer` (identities are erased last).
        await target.admin(`REVOKE UPDATE ${CUSTOMER_COLUMNS} ON ${onCustomer()} FROM ${login}`);
        const filed = await fileRequest(f, {
          request_type: 'deletion',
          scope: ['user'],
          subject_provider: 'github',
          subject_id: '583231',
        });
        await processAll();
        let [task] = await tasksOf(db(), filed.id);
        assert.deepEqual([task!.status, task!.attempts], ['pending', 1], 'a missing privilege: retried later');
        const first = {
          address: { masked: 1, deleted: 0 },
          preference: { masked: 0, deleted: 1 },
          order_line: { masked: 2, deleted: 0 },
          login: { masked: 2, deleted: 0 },
        };
        assert.deepEqual(JSON.parse(task!.run_progress!).collections, first, 'what the first run committed is kept');
        assert.deepEqual(await target.admin('SELECT gift_message FROM order_line WHERE order_id = 1 AND line_no = 1'), [
          { gift_message: null },
        ]);

        await target.admin(`GRANT UPDATE ${CUSTOMER_COLUMNS} ON ${onCustomer()} TO ${login}`);
        f.time.set(task!.next_attempt_at!);
        await processAll();
        [task] = await tasksOf(db(), filed.id);
        assert.equal(task!.status, 'completed', task!.result ?? '');
        assert.equal(task!.run_progress, null);
        const result = JSON.parse(task!.result!) as { collections: unknown; erased: Record<string, number> };
        const all = { ...first, customer: { masked: 1, deleted: 0 } };
        assert.deepEqual(result.collections, all, 'both runs: the second alone found only the customer left');
        assert.equal(result.erased['user.device.ip_address'], 2);
        assert.equal(result.erased['user.contact.email'], 1);
        assert.equal((await requestRow(f, filed.id)).status, 'completed');
        const report = await f.t.app.inject({
          method: 'GET',
          url: `/api/v1/privacy/requests/${filed.id}/report`,
          headers: { authorization: admin },
        });
        const system = (report.json().systems as { key: string; collections?: unknown }[]).find((s) => s.key === 'shop-db');
        assert.deepEqual(system?.collections, all);
      });
    });
  }
}
