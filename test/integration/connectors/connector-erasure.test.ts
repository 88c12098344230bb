/**
 * Erasure, correction, test and dataset generation on real targets (PRODUCT §2.14), PostgreSQL and
 * MariaDB alike: masking strategies (the e-mail column stays a valid unique address, hmac is
 * deterministic), row delete by collection override, primary keys and read_only fields never
 * written, other people untouched, a rerun after a crash half-way finishing the work, counts per
 * collection; correction of one category; the test probe; a draft dataset from information_schema.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  type ConnectorTaskInput,
  generateDataset,
  parseAllowedHosts,
  readDataset,
  runConnectorTask,
  testConnection,
} from '../../../src/modules/connectors/connectors.js';
import { createShopTarget, SHOP_DATASET_YAML, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';

const shop = readDataset(SHOP_DATASET_YAML);
if (!('dataset' in shop)) throw new Error('shop dataset');
const KEY = 'workspace-key-0123456789abcdef';

for (const { kind, skip } of await targetKinds()) {
  describe(`connector erasure, correction, test, generate (${kind})`, { skip }, () => {
    let target: ShopTarget;
    const input = (over: Partial<ConnectorTaskInput> = {}): ConnectorTaskInput => ({
      kind,
      url: target.url,
      system: 'shop-db',
      dataset: shop.dataset,
      requestType: 'deletion',
      categories: ['user'],
      identities: { email: ['ada@example.com'] },
      hmacKey: KEY,
      limits: { statementTimeoutMs: 5000, maxRows: 100 },
      allowedHosts: parseAllowedHosts('127.0.0.1:3306,127.0.0.1:5432').hosts,
      ...over,
    });
    const rows = (sql: string) => target.admin(sql);
    before(async () => {
      target = await createShopTarget(kind);
    });
    after(() => target?.drop());

    it('correction sets the corrected category only, in the subject rows only', async () => {
      const result = await runConnectorTask(input({ requestType: 'correction', corrections: { 'user.name': 'Ada King' } }));
      assert.deepEqual(result.type === 'correction' && result.collections, { customer: { updated: 1 } });
      assert.deepEqual(await rows('SELECT id, full_name FROM customer ORDER BY id'), [
        { id: 1, full_name: 'Ada King' },
        { id: 2, full_name: 'Bob Other' },
        { id: 3, full_name: 'Cy Many' },
      ]);
    });

    it('erases: masks in-scope fields by strategy, deletes where the collection says so, keeps keys, read_only and system fields; counts per collection', async () => {
      const bobBefore = await rows('SELECT * FROM customer WHERE id = 2');
      const result = await runConnectorTask(input());
      assert.equal(result.type, 'erasure');
      if (result.type !== 'erasure') return;
      assert.deepEqual(result.collections, {
        order_line: { masked: 2, deleted: 0 },
        address: { masked: 1, deleted: 0 },
        preference: { masked: 0, deleted: 1 },
        login: { masked: 2, deleted: 0 },
        customer: { masked: 1, deleted: 0 },
      });
      const [ada] = await rows('SELECT * FROM customer WHERE id = 1');
      assert.match(String(ada?.email), /^[a-z0-9]{16}@masked\.invalid$/, 'still a valid, unique address');
      assert.equal(ada?.username, createHmac('sha256', KEY).update('ada').digest('hex'), 'hmac: deterministic per workspace key');
      assert.equal(ada?.full_name, 'erased');
      assert.equal(ada?.github_id, null);
      assert.equal(ada?.note, 'vip', 'system.operations is never written');
      assert.deepEqual(await rows('SELECT ip_address FROM login WHERE customer_id = 1'), [
        { ip_address: null },
        { ip_address: null },
      ]);
      assert.deepEqual(
        await rows('SELECT total_cents FROM orders WHERE customer_id = 1 ORDER BY id'),
        [{ total_cents: 1200 }, { total_cents: 800 }],
        'read_only stays',
      );
      assert.deepEqual(await rows('SELECT street, city FROM address WHERE id = 1'), [{ street: null, city: null }]);
      assert.deepEqual(await rows('SELECT customer_id FROM preference ORDER BY customer_id'), [{ customer_id: 2 }]);
      assert.deepEqual(await rows('SELECT order_id, line_no, gift_message FROM order_line ORDER BY order_id, line_no'), [
        { order_id: 1, line_no: 1, gift_message: null },
        { order_id: 1, line_no: 2, gift_message: null },
        { order_id: 2, line_no: 1, gift_message: null },
        { order_id: 3, line_no: 1, gift_message: 'Bob gift' },
      ]);
      assert.deepEqual(await rows('SELECT * FROM customer WHERE id = 2'), bobBefore, 'another person is untouched');
      assert.ok(result.erased['user.contact.email'] === 1 && result.erased['user.device.ip_address'] === 2);
    });

    it('run again after a crash half-way: the identities were erased last, so the rerun finds and finishes the rest', async () => {
      // Bob: a first run that stopped after its first collections (order lines, address), as a crash would leave it.
      const bob = input({ identities: { email: ['bob@example.com'] } });
      const partial = {
        ...shop.dataset,
        collections: shop.dataset.collections.map((c) =>
          ['order_line', 'address'].includes(c.name)
            ? c
            : {
                ...c,
                fields: c.fields.map((f) => ({ ...f, data_categories: f.data_categories.filter((k) => k.startsWith('system')) })),
              },
        ),
      };
      const first = await runConnectorTask({ ...bob, dataset: partial });
      assert.deepEqual(Object.keys(first.type === 'erasure' ? first.collections : {}).sort(), ['address', 'order_line']);
      const again = await runConnectorTask(bob);
      if (again.type !== 'erasure') return assert.fail('erasure');
      assert.equal(again.collections.customer?.masked, 1);
      assert.equal(again.collections.preference?.deleted, 1);
      assert.deepEqual(await rows('SELECT gift_message FROM order_line WHERE order_id = 3'), [{ gift_message: null }]);
      const [b] = await rows('SELECT email, full_name FROM customer WHERE id = 2');
      assert.match(String(b?.email), /@masked\.invalid$/);
      const third = await runConnectorTask(bob);
      assert.deepEqual(third.type === 'erasure' && third.collections, {}, 'nothing left to find: a third run changes nothing');
    });

    it('test: reachable with latency, each collection exists / can read / can write; a read-only login cannot write; a missing table does not exist', async () => {
      const ok = await testConnection(input());
      assert.equal(ok.reachable, true);
      assert.ok(typeof ok.latency_ms === 'number' && ok.latency_ms >= 0);
      assert.ok(
        ok.collections.every((c) => c.exists && c.can_read && c.can_write),
        JSON.stringify(ok.collections),
      );
      const readOnly = await testConnection(input({ url: await target.readOnlyUrl() }));
      // The access answers only: cannot_mask and unindexed have their own tests (connector-constraints).
      const access = (c: { name: string; exists: boolean; can_read: boolean; can_write: boolean } | undefined) =>
        c && { name: c.name, exists: c.exists, can_read: c.can_read, can_write: c.can_write };
      assert.deepEqual(access(readOnly.collections.find((c) => c.name === 'customer')), {
        name: 'customer',
        exists: true,
        can_read: true,
        can_write: false,
      });
      assert.deepEqual(access(readOnly.collections.find((c) => c.name === 'login')), {
        name: 'login',
        exists: true,
        can_read: false,
        can_write: false,
      });
      const ghost = {
        ...shop.dataset,
        collections: [...shop.dataset.collections, { ...shop.dataset.collections[5]!, name: 'ghost_table' }],
      };
      const missing = await testConnection(input({ dataset: ghost }));
      assert.deepEqual(missing.collections.at(-1), {
        name: 'ghost_table',
        exists: false,
        can_read: false,
        can_write: false,
        cannot_mask: null,
        unindexed: null,
      });
      const down = await testConnection(input({ url: target.url.replace(/:(3306|5432)\//, ':1/') }));
      assert.equal(down.reachable, false);
      assert.ok(down.error && !down.error.includes(target.password) && !down.error.includes('127.0.0.1'));
    });

    it('the least-privilege login of docs/connectors.md tests all-writable and erases (column grants only)', async () => {
      const url = await target.leastPrivilegeUrl();
      const probe = await testConnection(input({ url }));
      assert.ok(
        probe.collections.every((c) => c.exists && c.can_read && c.can_write),
        JSON.stringify(probe.collections),
      );
      const result = await runConnectorTask(input({ url, identities: { email: ['cy@example.com'] } }));
      assert.deepEqual(result.type === 'erasure' && result.collections, { customer: { masked: 1, deleted: 0 } });
    });

    it('generate: a draft from information_schema with primary keys, foreign keys as references and the e-mail column as identity', async () => {
      const yaml = await generateDataset({ kind, url: target.url, allowedHosts: parseAllowedHosts('0.0.0.0/0').hosts });
      const draft = readDataset(yaml);
      assert.ok('dataset' in draft, JSON.stringify('problems' in draft && draft.problems));
      const customer = draft.dataset.collections.find((c) => c.name === 'customer');
      assert.equal(customer?.fields.find((f) => f.name === 'email')?.identity, 'email');
      assert.equal(customer?.fields.find((f) => f.name === 'id')?.primary_key, true);
      const line = draft.dataset.collections.find((c) => c.name === 'order_line');
      assert.deepEqual(
        line?.fields
          .filter((f) => f.primary_key)
          .map((f) => f.name)
          .sort(),
        ['line_no', 'order_id'],
      );
      assert.deepEqual(line?.fields.find((f) => f.name === 'order_id')?.references, [
        { collection: 'orders', field: 'id', direction: null },
      ]);
      assert.ok(!yaml.includes(target.password));
    });
  });
}
