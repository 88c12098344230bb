/**
 * `privacyctl dataset generate` (PRODUCT §2.14) through the built bin script, on a PostgreSQL and
 * a MariaDB shop target: a draft Fides dataset in YAML that the service accepts as it is (after
 * its categories are chosen), never the URL or password on stdout or stderr; a database that
 * does not answer exits 1, a bad URL exits 2.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readDataset } from '../../../src/modules/connectors/connectors.js';
import { createShopTarget, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';

// Awaited before any suite is declared: node:test drops suites declared after the first one starts.
const kinds = await targetKinds();

describe('privacyctl dataset generate', () => {
  let cli: BuiltCli;
  before(() => {
    cli = buildPrivacyctl();
  });
  after(() => cli.remove());

  it('refuses a URL of another scheme (exit 2) without echoing it, and needs exactly one of --url and --url-stdin', () => {
    const bad = cli.run({}, ['dataset', 'generate', '--url', 'https://user:Secret-1@db.example/x']);
    assert.equal(bad.status, 2);
    assert.ok(!bad.stderr.includes('Secret-1'));
    assert.equal(cli.run({}, ['dataset', 'generate']).status, 2);
  });

  it('a database that does not answer exits 1 naming the reason, never the URL', () => {
    const down = cli.run({}, ['dataset', 'generate', '--url-stdin'], 'postgres://app:Secret-2@127.0.0.1:1/shop\n');
    assert.equal(down.status, 1);
    assert.match(down.stderr, /could not be reached/);
    assert.ok(!down.stderr.includes('Secret-2') && !down.stderr.includes('127.0.0.1'));
  });
});

for (const { kind, skip } of kinds) {
  describe(`privacyctl dataset generate on ${kind}`, { skip }, () => {
    let cli: BuiltCli;
    let target: ShopTarget;
    before(async () => {
      cli = buildPrivacyctl();
      target = await createShopTarget(kind);
    });
    after(async () => {
      cli?.remove();
      await target?.drop();
    });

    it('prints a draft whose keys, references and identity the service reads back', () => {
      const out = cli.run({}, [
        'dataset',
        'generate',
        '--url',
        target.url,
        ...(kind === 'postgres' ? ['--schema', 'public'] : []),
      ]);
      assert.equal(out.status, 0, out.stderr);
      assert.ok(!out.stdout.includes(target.password) && !out.stderr.includes(target.password));
      assert.match(out.stdout, /^# Draft dataset/);
      const read = readDataset(out.stdout);
      assert.ok('dataset' in read, JSON.stringify('problems' in read && read.problems));
      assert.deepEqual(read.dataset.collections.map((c) => c.name).sort(), [
        'address',
        'customer',
        'login',
        'order_line',
        'orders',
        'preference',
      ]);
      const orders = read.dataset.collections.find((c) => c.name === 'orders');
      assert.deepEqual(orders?.fields.find((f) => f.name === 'customer_id')?.references, [
        { collection: 'customer', field: 'id', direction: null },
      ]);
    });
  });
}
