/**
 * The database's own rules (PRODUCT §2.17) on real targets, PostgreSQL and MariaDB alike, with the
 * shop schema's NOT NULL UNIQUE CHECK e-mail plus a UNIQUE username and a NOT NULL nickname added
 * here: `generate` proposes a masking each column accepts and says why in a YAML comment; `test`
 * lists per collection the fields whose masking the column refuses (`cannot_mask`) and the searched
 * columns without an index (`unindexed`, with the row estimate); a refused write names system,
 * collection and column, never the value or the URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import {
  type ConnectorTaskInput,
  ConnectorError,
  type Dataset,
  generateDataset,
  parseAllowedHosts,
  readDataset,
  runConnectorTask,
  testConnection,
} from '../../../src/modules/connectors/connectors.js';
import { createShopTarget, SHOP_DATASET_YAML, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';

type Json = Record<string, unknown>;
type FieldJson = { name: string; fides_meta?: Json; data_categories?: string[] };
const SHOP = (parse(SHOP_DATASET_YAML) as { dataset: Json[] }).dataset[0] as {
  collections: { name: string; fields: FieldJson[] }[];
};

/** The shop dataset with each `collection.field`'s masking replaced (null: the default, `null`). */
function withMasking(changes: Record<string, Json | null>): Dataset {
  const copy = structuredClone(SHOP);
  for (const [address, masking] of Object.entries(changes)) {
    const [collection, field] = address.split('.');
    const f = copy.collections.find((c) => c.name === collection)?.fields.find((x) => x.name === field) as FieldJson;
    const meta = { ...(f.fides_meta ?? {}) };
    delete meta.masking_strategy_override;
    delete meta.length;
    f.fides_meta = masking === null ? meta : { ...meta, masking_strategy_override: masking };
  }
  const read = readDataset(copy);
  if (!('dataset' in read)) throw new Error(JSON.stringify(read));
  return read.dataset;
}

const REWRITE = (value: string) => ({ strategy: 'string_rewrite', configuration: { rewrite_value: value } });
const TOO_LONG = 'a postal code far longer than twenty';

for (const { kind, skip } of await targetKinds()) {
  describe(`the database's own rules (${kind})`, { skip }, () => {
    let target: ShopTarget;
    const input = (over: Partial<ConnectorTaskInput> = {}): ConnectorTaskInput => ({
      kind,
      url: target.url,
      system: 'shop-db',
      dataset: withMasking({}),
      requestType: 'deletion',
      categories: ['user'],
      identities: { email: ['ada@example.com'] },
      hmacKey: 'workspace-key-0123456789abcdef',
      limits: { statementTimeoutMs: 5000, maxRows: 100 },
      allowedHosts: parseAllowedHosts('127.0.0.1:3306,127.0.0.1:5432').hosts,
      ...over,
    });
    /** Runs the task expecting the database to refuse it. @returns the error. */
    async function refused(over: Partial<ConnectorTaskInput>): Promise<ConnectorError> {
      const error = await runConnectorTask(input(over)).then(
        () => assert.fail('the database took the write'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ConnectorError, String(error));
      assert.equal(error.retryable, false, 'a column rule fails the same way again');
      assert.ok(!error.message.includes(target.password) && !error.message.includes('://'), error.message);
      return error;
    }

    before(async () => {
      target = await createShopTarget(kind);
      await target.admin('ALTER TABLE customer ADD CONSTRAINT customer_username_key UNIQUE (username)');
      await target.admin(`ALTER TABLE customer ADD COLUMN nickname varchar(4) NOT NULL DEFAULT 'n'`);
      await target.admin(
        'CREATE TABLE line_note (id integer PRIMARY KEY, order_id integer, line_no integer, FOREIGN KEY (order_id, line_no) REFERENCES order_line (order_id, line_no))',
      );
      // The login sees a table in information_schema only with a privilege on it (MySQL's grant is database-wide).
      if (kind === 'postgres') await target.admin(`GRANT SELECT ON line_note TO ${new URL(target.url).username}`);
      await target.admin(kind === 'postgres' ? 'ANALYZE customer' : 'ANALYZE TABLE customer');
    });
    after(() => target?.drop());

    it('generate proposes what each column accepts, with the rule that chose it as a comment on the field', async () => {
      const yaml = await generateDataset({ kind, url: target.url, allowedHosts: parseAllowedHosts('0.0.0.0/0').hosts });
      const draft = readDataset(yaml);
      assert.ok('dataset' in draft, JSON.stringify('problems' in draft && draft.problems));
      const field = (c: string, f: string) =>
        draft.dataset.collections.find((x) => x.name === c)?.fields.find((x) => x.name === f);
      // The masking as written in the draft (Fides' own format).
      const file = parse(yaml) as { dataset: { collections: { name: string; fields: FieldJson[] }[] }[] };
      const meta = (c: string, f: string) =>
        file.dataset[0]?.collections.find((x) => x.name === c)?.fields.find((x) => x.name === f)?.fides_meta ?? {};
      assert.deepEqual(meta('customer', 'email').masking_strategy_override, {
        strategy: 'random_string_rewrite',
        configuration: { length: 16, format_preservation: { suffix: '@masked.invalid' } },
      });
      assert.equal(meta('customer', 'email').length, 120, 'length from varchar(120)');
      assert.match(yaml, /# email: NOT NULL, UNIQUE, CHECK .*'%@%'.*: random_string_rewrite with @masked\.invalid/);
      assert.deepEqual(meta('customer', 'nickname').masking_strategy_override, REWRITE('eras'), 'cut to varchar(4)');
      assert.match(yaml, /# nickname: NOT NULL: null would be refused, string_rewrite writes 'eras'/);
      assert.equal(meta('customer', 'username').masking_strategy_override, undefined, 'nullable UNIQUE: null is accepted');
      assert.equal(field('customer', 'id')?.read_only, true);
      assert.match(yaml, /# id: primary key: names the rows, never written \(read_only\)/);
      assert.equal(field('login', 'customer_id')?.read_only, true);
      assert.match(yaml, /# customer_id: foreign key to customer\.id: masking it would break the reference \(read_only\)/);
      assert.equal(field('orders', 'total_cents')?.read_only, true, 'NOT NULL integer: no strategy writes one');
      assert.deepEqual(
        ['order_id', 'line_no'].map((c) => field('line_note', c)?.references[0]),
        [
          { collection: 'order_line', field: 'order_id', direction: null },
          { collection: 'order_line', field: 'line_no', direction: null },
        ],
        'each column of a composite foreign key references its own column',
      );
      assert.equal(field('address', 'street')?.read_only, false, 'a nullable column keeps the default');
    });

    it('test lists per collection what the columns refuse (NOT NULL + null, UNIQUE + fixed value, too long) and the searched columns without an index', async () => {
      const dataset = withMasking({
        'customer.email': null,
        'customer.username': REWRITE('erased'),
        'address.postal_code': REWRITE(TOO_LONG),
      });
      const probe = await testConnection(input({ dataset }));
      assert.equal(probe.reachable, true, probe.error);
      const of = (name: string) => probe.collections.find((c) => c.name === name);
      assert.deepEqual(
        of('customer')?.cannot_mask?.map((c) => c.field),
        ['email', 'username'],
      );
      assert.match(of('customer')?.cannot_mask?.[0]?.reason ?? '', /NOT NULL.*null/);
      assert.match(of('customer')?.cannot_mask?.[1]?.reason ?? '', /UNIQUE.*one fixed value/);
      assert.deepEqual(of('address')?.cannot_mask, [
        {
          field: 'postal_code',
          reason: `the masked value has ${TOO_LONG.length} characters and the column holds at most 20 (set the field's length to 20)`,
        },
      ]);
      for (const name of ['login', 'orders', 'order_line', 'preference']) assert.deepEqual(of(name)?.cannot_mask, [], name);
      // Customers are searched by email (UNIQUE), username (UNIQUE now) and github_id (no index).
      assert.deepEqual(of('customer')?.unindexed, [{ field: 'github_id', estimated_rows: 3 }]);
      for (const name of ['login', 'orders', 'address', 'order_line', 'preference'])
        assert.deepEqual(of(name)?.unindexed, [], `${name} is searched by indexed columns`);
      const shop = await testConnection(input());
      assert.deepEqual(
        shop.collections.flatMap((c) =>
          c.cannot_mask === null ? [`${c.name}: unknown`] : c.cannot_mask.map((m) => `${c.name}.${m.field}`),
        ),
        [],
        "the shop dataset's own masking fits",
      );
    });

    it('a NOT NULL column masked with null: the refused write names system, collection and column', async () => {
      const error = await refused({ dataset: withMasking({ 'customer.email': null }), categories: ['user.contact.email'] });
      assert.equal(error.reason, 'not_null');
      assert.equal(error.column, 'email');
      assert.match(error.message, /^system shop-db, collection customer, column email: the column is NOT NULL/);
      assert.ok(!error.message.includes('ada@example.com'));
      const [ada] = await target.admin('SELECT email FROM customer WHERE id = 1');
      assert.equal(ada?.email, 'ada@example.com', 'the collection rolled back');
    });

    it('a UNIQUE column rewritten to one value: the second erased row is refused, naming the column, never the value', async () => {
      const dataset = withMasking({ 'customer.username': REWRITE('fixed-name') });
      const categories = ['user.account.username'];
      await runConnectorTask(input({ dataset, categories }));
      const error = await refused({ dataset, categories, identities: { email: ['bob@example.com'] } });
      assert.equal(error.reason, 'unique');
      assert.equal(error.column, 'username');
      assert.match(error.message, /^system shop-db, collection customer, column username: the column is UNIQUE/);
      assert.ok(!error.message.includes('fixed-name') && !error.message.includes('bob'));
    });

    it('a CHECK constraint and a value longer than the column: each names its column', async () => {
      const check = await refused({
        dataset: withMasking({ 'customer.email': REWRITE('no-at-sign') }),
        categories: ['user.contact.email'],
        identities: { email: ['cy@example.com'] },
      });
      assert.equal(check.reason, 'check');
      assert.equal(check.column, 'email');
      assert.match(
        check.message,
        /^system shop-db, collection customer, column email: a CHECK constraint refused the written value/,
      );
      assert.ok(!check.message.includes('no-at-sign'));
      const long = await refused({
        dataset: withMasking({ 'address.postal_code': REWRITE(TOO_LONG) }),
        categories: ['user.contact.address.postal_code'],
        identities: { email: ['bob@example.com'] },
      });
      assert.equal(long.reason, 'too_long');
      assert.match(long.message, /^system shop-db, collection address, column postal_code: the written value is longer/);
      assert.ok(!long.message.includes(TOO_LONG));
    });
  });
}
