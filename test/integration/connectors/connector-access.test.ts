/**
 * The connectors on real targets (PRODUCT §2.14), PostgreSQL and MariaDB alike: the access pass
 * (traversal two hops out, scope filtering, system.* never returned), nothing written by access
 * or preview (checksums of every table), an SQL-shaped identity as a bound value, the row cap,
 * and failures that name system and collection but never the URL or password.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type ConnectorTaskInput,
  ConnectorError,
  parseAllowedHosts,
  previewConnectorTask,
  readDataset,
  runConnectorTask,
} from '../../../src/modules/connectors/connectors.js';
import { createShopTarget, SHOP_DATASET_YAML, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';

const shop = readDataset(SHOP_DATASET_YAML);
if (!('dataset' in shop)) throw new Error(`shop dataset: ${JSON.stringify(shop.problems)}`);

for (const { kind, skip } of await targetKinds()) {
  describe(`connector access and preview (${kind})`, { skip }, () => {
    let target: ShopTarget;
    const input = (over: Partial<ConnectorTaskInput> = {}): ConnectorTaskInput => ({
      kind,
      url: target.url,
      system: 'shop-db',
      dataset: shop.dataset,
      requestType: 'access',
      categories: ['user'],
      identities: { email: ['ada@example.com'] },
      hmacKey: 'workspace-key-0123456789abcdef',
      limits: { statementTimeoutMs: 5000, maxRows: 100 },
      allowedHosts: parseAllowedHosts('127.0.0.1').hosts,
      ...over,
    });
    before(async () => {
      target = await createShopTarget(kind);
    });
    after(() => target?.drop());

    it('finds the subject two hops out (addresses through orders, order lines), only in-scope fields, never system.*; writes nothing', async () => {
      const before = await target.checksums();
      const result = await runConnectorTask(input());
      assert.equal(result.type, 'access');
      if (result.type !== 'access') return;
      const c = result.collections;
      assert.deepEqual(c.customer, [
        { id: 1, email: 'ada@example.com', github_id: '583231', username: 'ada', full_name: 'Ada Lovelace' },
      ]);
      assert.deepEqual((c.login ?? []).map((r) => r.ip_address).sort(), ['192.0.2.1', '192.0.2.2']);
      assert.deepEqual(c.login?.[0] && Object.keys(c.login[0]), ['ip_address']);
      assert.deepEqual((c.orders ?? []).map((r) => r.total_cents).sort(), [1200, 800].sort());
      assert.deepEqual(c.address, [{ street: '12 Analytical St', city: 'London', postal_code: 'N1' }]);
      assert.deepEqual((c.order_line ?? []).map((r) => r.gift_message).sort(), ['For Charles', 'Happy birthday', null].sort());
      assert.equal(c.preference?.length, 1);
      assert.ok(!JSON.stringify(c).includes('vip'), 'system.operations never leaves');
      assert.equal(result.records['user.contact.email'], 1);
      assert.equal(result.records['user.device.ip_address'], 2);
      assert.equal(result.records['user.content.private'], 2);
      assert.deepEqual(await target.checksums(), before);
    });

    it('a narrower scope returns only its fields; a linked account id finds the same person', async () => {
      const result = await runConnectorTask(input({ categories: ['user.contact'], identities: { github_id: ['583231'] } }));
      if (result.type !== 'access') return assert.fail('access');
      assert.deepEqual(result.collections.customer, [{ email: 'ada@example.com' }]);
      assert.deepEqual(result.collections.address, [{ street: '12 Analytical St', city: 'London', postal_code: 'N1' }]);
      assert.equal(result.collections.login, undefined);
    });

    it('an SQL-shaped identity is a bound value: it matches nothing and changes nothing', async () => {
      const before = await target.checksums();
      const hostile = "x'); DROP TABLE customer;--";
      const result = await runConnectorTask(input({ identities: { email: [hostile], username: [`${hostile}" OR 1=1 --`] } }));
      if (result.type !== 'access') return assert.fail('access');
      assert.deepEqual(result.collections.customer, []);
      const preview = await previewConnectorTask(input({ requestType: 'deletion', identities: { email: [hostile] } }));
      assert.ok(preview.statements.every((s) => !s.sql.includes('DROP')));
      assert.deepEqual(await target.checksums(), before);
      assert.equal((await target.admin('SELECT COUNT(*) AS n FROM customer'))[0]?.n !== undefined, true);
    });

    it('preview lists every planned statement with placeholders, never values, and the rows each touches; writes nothing', async () => {
      const before = await target.checksums();
      const { statements } = await previewConnectorTask(input({ requestType: 'deletion' }));
      assert.ok(statements.length >= 6);
      assert.ok(
        statements.every((s) => !/ada|583231|Lovelace|example\.com/.test(s.sql)),
        'no value in a statement',
      );
      const placeholder = kind === 'postgres' ? '$1' : '?';
      assert.ok(statements.every((s) => s.sql.includes(placeholder)));
      const select = statements.find((s) => s.collection === 'customer' && s.operation === 'select');
      assert.equal(select?.rows, 1);
      assert.equal(statements.find((s) => s.collection === 'login' && s.operation === 'update')?.rows, 2);
      assert.equal(statements.find((s) => s.collection === 'preference')?.operation, 'select');
      assert.ok(statements.some((s) => s.collection === 'preference' && s.operation === 'delete' && s.rows === 1));
      assert.ok(
        !statements.some((s) => s.operation === 'update' && /"id" =|`id` =/.test(s.sql.split(' WHERE ')[0] ?? '')),
        'never sets a primary key',
      );
      assert.deepEqual(await target.checksums(), before);
    });

    it('more rows than the cap fails naming the collection, permanently', async () => {
      const error = await runConnectorTask(
        input({ identities: { email: ['cy@example.com'] }, limits: { statementTimeoutMs: 5000, maxRows: 2 } }),
      ).catch((e: unknown) => e);
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.reason, 'row_cap');
      assert.equal(error.collection, 'orders');
      assert.equal(error.retryable, false);
      assert.match(error.message, /system shop-db, collection orders/);
    });

    it('a down database is a retryable error that names the system, never the URL or password', async () => {
      const down = target.url.replace(/:(3306|5432)\//, ':1/');
      const error = await runConnectorTask(input({ url: down })).catch((e: unknown) => e);
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.reason, 'unreachable');
      assert.equal(error.retryable, true);
      for (const secret of [target.password, target.url, '127.0.0.1', target.database])
        assert.ok(!error.message.includes(secret), 'no secret in the message');
      assert.ok(!JSON.stringify(error).includes(target.password));
    });

    it('a slow statement is cancelled by the database at CONNECTOR_STATEMENT_TIMEOUT_MS: retryable, naming the collection', async () => {
      const sleep = kind === 'postgres' ? 'pg_sleep(3)::text' : 'SLEEP(3)';
      await target.admin(`CREATE VIEW slow_notes AS SELECT id AS customer_id, ${sleep} AS note FROM customer`);
      if (kind === 'postgres') await target.admin(`GRANT SELECT ON slow_notes TO ${new URL(target.url).username}`);
      else await target.admin(`GRANT SELECT ON ${target.database}.slow_notes TO '${new URL(target.url).username}'@'%'`);
      const slow = readDataset({
        fides_key: 'slow',
        collections: [
          {
            name: 'customer',
            fields: [
              { name: 'id', fides_meta: { primary_key: true } },
              { name: 'email', fides_meta: { identity: 'email' } },
            ],
          },
          {
            name: 'slow_notes',
            fields: [
              { name: 'customer_id', fides_meta: { references: [{ dataset: 'slow', field: 'customer.id', direction: 'from' }] } },
              { name: 'note', data_categories: ['user.content'] },
            ],
          },
        ],
      });
      assert.ok('dataset' in slow);
      const started = Date.now();
      const error = await runConnectorTask(
        input({ dataset: slow.dataset, limits: { statementTimeoutMs: 500, maxRows: 100 } }),
      ).catch((e: unknown) => e);
      assert.ok(error instanceof ConnectorError, String(error));
      assert.equal(error.reason, 'timeout');
      assert.equal(error.collection, 'slow_notes');
      assert.equal(error.retryable, true);
      assert.ok(Date.now() - started < 2500, 'cancelled, not waited out');
    });

    it('a missing privilege is retryable and names the collection; a host not allowed at connect time is refused', async () => {
      const readOnly = await target.readOnlyUrl();
      const error = await runConnectorTask(input({ url: readOnly })).catch((e: unknown) => e);
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.reason, 'permission_denied');
      assert.equal(error.collection, 'login');
      assert.equal(error.retryable, true);
      assert.ok(!error.message.includes(target.password));
      const refused = await runConnectorTask(input({ allowedHosts: parseAllowedHosts('db.internal, 10.0.0.0/8').hosts })).catch(
        (e: unknown) => e,
      );
      assert.ok(refused instanceof ConnectorError);
      assert.equal(refused.reason, 'host_not_allowed');
    });
  });
}
