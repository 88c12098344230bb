/**
 * The database's own rules through the API (PRODUCT §2.17), on the service's SQLite and
 * PostgreSQL stores against PostgreSQL and MariaDB targets: `POST …/test` answers per collection
 * `cannot_mask` and `unindexed`, `POST …/preview` the same warnings for what the request would do,
 * and a deletion task the database refuses fails at once naming system, collection and column,
 * never the value or the URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { createTaskRunner } from '../../../src/jobs/task-runner.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { createShopTarget, SHOP_DATASET_YAML, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';
import { tasksOf } from '../../helpers/data-systems.js';
import { dialects } from '../../helpers/databases.js';
import { type Fixture, fileRequest, openFixture, silentLog } from '../../helpers/worker.js';

const kinds = await targetKinds();

/** The shop dataset whose customer e-mail is masked with null (the default) and username rewritten to one value. */
function clashingDataset(): Record<string, unknown> {
  const shop = (parse(SHOP_DATASET_YAML) as { dataset: Record<string, unknown>[] }).dataset[0] as {
    collections: { name: string; fields: { name: string; fides_meta?: Record<string, unknown> }[] }[];
  };
  const customer = shop.collections.find((c) => c.name === 'customer');
  for (const f of customer?.fields ?? []) {
    if (f.name === 'email') delete f.fides_meta?.masking_strategy_override;
    if (f.name === 'username')
      f.fides_meta = {
        identity: 'username',
        masking_strategy_override: { strategy: 'string_rewrite', configuration: { rewrite_value: 'gone' } },
      };
  }
  return shop as unknown as Record<string, unknown>;
}

for (const dialect of dialects()) {
  for (const { kind, skip } of kinds) {
    describe(`the database's own rules through the API (${dialect.name} store, ${kind} target)`, { skip }, () => {
      let f: Fixture;
      let target: ShopTarget;
      let admin: string;
      let id: string;
      const call = (url: string, payload?: object) =>
        f.t.app.inject({ method: 'POST', url, headers: { authorization: admin }, ...(payload ? { payload } : {}) });

      before(async () => {
        target = await createShopTarget(kind);
        await target.admin('ALTER TABLE customer ADD CONSTRAINT customer_username_key UNIQUE (username)');
        f = await openFixture(dialect.create, { env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
        admin = await f.t.bearer(['admin', 'privacy:read'], ['acme']);
        const res = await call('/api/v1/data-systems', {
          workspace_id: 'acme',
          key: 'shop-db',
          name: 'Shop database',
          kind,
          connection: { url: target.url },
          dataset: clashingDataset(),
        });
        assert.equal(res.statusCode, 201, res.body);
        id = res.json().id;
      });
      after(async () => {
        await f?.close();
        await target?.drop();
      });

      it('test answers cannot_mask and unindexed per collection', async () => {
        const res = await call(`/api/v1/data-systems/${id}/test`);
        assert.equal(res.statusCode, 200, res.body);
        const customer = res.json().collections.find((c: { name: string }) => c.name === 'customer');
        assert.deepEqual(
          customer.cannot_mask.map((c: { field: string }) => c.field),
          ['email', 'username'],
        );
        assert.match(customer.cannot_mask[0].reason, /NOT NULL/);
        assert.match(customer.cannot_mask[1].reason, /UNIQUE/);
        assert.deepEqual(
          customer.unindexed.map((u: { field: string }) => u.field),
          ['github_id'],
        );
        assert.ok(customer.unindexed[0].estimated_rows === null || Number.isInteger(customer.unindexed[0].estimated_rows));
        const login = res.json().collections.find((c: { name: string }) => c.name === 'login');
        assert.deepEqual([login.cannot_mask, login.unindexed], [[], []]);
      });

      it("preview shows the same warnings for what the request does: a deletion's masked fields in scope, every search", async () => {
        const deletion = await call(`/api/v1/data-systems/${id}/preview`, {
          subject_provider: 'github',
          subject_id: '583231',
          request_type: 'deletion',
          scope: ['user.contact'],
        });
        assert.equal(deletion.statusCode, 200, deletion.body);
        assert.deepEqual(
          deletion
            .json()
            .warnings.map((w: { collection: string; cannot_mask: { field: string }[]; unindexed: { field: string }[] }) => [
              w.collection,
              w.cannot_mask.map((c) => c.field),
              w.unindexed.map((u) => u.field),
            ]),
          [['customer', ['email'], ['github_id']]],
          'username is outside user.contact',
        );
        const access = await call(`/api/v1/data-systems/${id}/preview`, {
          subject_provider: 'github',
          subject_id: '583231',
          request_type: 'access',
        });
        assert.deepEqual(access.json().warnings, [
          { collection: 'customer', cannot_mask: [], unindexed: access.json().warnings[0].unindexed },
        ]);
        assert.deepEqual(
          access.json().warnings[0].unindexed.map((u: { field: string }) => u.field),
          ['github_id'],
        );
      });

      it('a deletion the database refuses fails the task at once naming system, collection and column, never the value', async () => {
        const filed = await fileRequest(f, {
          request_type: 'deletion',
          scope: ['user.contact.email'],
          subject_provider: 'github',
          subject_id: '583231',
        });
        const options = { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 };
        const keys = {
          secretBox: f.t.services.secretBox,
          connectors: f.t.services.connectors,
          pseudonymKey: f.t.services.keys.pseudonymKey,
        };
        const common = { database: f.t.services.database, clock: f.time.clock, log: silentLog, options };
        const worker = createWorker({ ...common, pseudonymKey: keys.pseudonymKey, secretBox: keys.secretBox });
        const runner = createTaskRunner({ ...common, taskResults: f.t.services.taskResults, keys });
        for (;;) if (!((await worker.runOnce()) || (await runner.runOnce()))) break;
        const [task] = await tasksOf(f.t.services.database.db, filed.id);
        assert.deepEqual([task?.status, task?.attempts], ['failed', 1]);
        const note = (JSON.parse(task?.result ?? '{}') as { note: string }).note;
        assert.match(note, /^system shop-db, collection customer, column email: the column is NOT NULL/);
        assert.ok(!note.includes('ada@example.com') && !note.includes(target.password) && !note.includes('://'));
        const [ada] = await target.admin('SELECT email FROM customer WHERE id = 1');
        assert.equal(ada?.email, 'ada@example.com', 'nothing was written');
      });
    });
  }
}
