/** The connectors' pure parts (PRODUCT §2.14): dataset reading and checks, traversal, allowed hosts, URLs, masking, SQL text, error classes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressAllowed, hostAllowed, parseAllowedHosts } from '../../src/lib/allowed-hosts.js';
import { checkConnectionUrl, parseConnectionUrl } from '../../src/modules/connectors/connection-url.fns.js';
import { classifyDriverError, ConnectorError } from '../../src/modules/connectors/connector.errors.js';
import { checkDataset } from '../../src/modules/connectors/dataset-check.fns.js';
import { parseDataset } from '../../src/modules/connectors/dataset-parse.fns.js';
import type { Field } from '../../src/modules/connectors/dataset.types.js';
import { maskValue } from '../../src/modules/connectors/masking.fns.js';
import { DIALECTS } from '../../src/modules/connectors/sql-dialect.fns.js';
import { selectRows, updateRows } from '../../src/modules/connectors/statements.fns.js';
import { buildTraversal } from '../../src/modules/connectors/traversal.fns.js';

const field = (name: string, meta: Record<string, unknown> = {}, categories: string[] = []) => ({
  name,
  data_categories: categories,
  fides_meta: meta,
});
const ref = (to: string, direction?: string) => ({
  references: [{ dataset: 'd', field: to, ...(direction ? { direction } : {}) }],
});
const dataset = (collections: unknown[]) => ({ fides_key: 'd', collections });

describe('parseDataset', () => {
  it('reads a bare object, a YAML string and a Fides file alike; the file prefixes locs with dataset.0', () => {
    const bare = dataset([{ name: 'a', fields: [field('email', { identity: 'email' })] }]);
    assert.equal(parseDataset(bare).dataset?.collections[0]?.fields[0]?.identity, 'email');
    const yaml =
      'fides_key: d\ncollections:\n  - name: a\n    fields:\n      - name: email\n        fides_meta: { identity: email }\n';
    assert.deepEqual(parseDataset(yaml).dataset, parseDataset(bare).dataset);
    const file = parseDataset({ dataset: [{ ...bare, collections: [{ name: 'a', fields: [{ name: 'x', nested: 1 }] }] }] });
    assert.deepEqual(
      file.problems.map((p) => p.loc),
      [['dataset', 0, 'collections', 0, 'fields', 0, 'nested']],
    );
  });

  it('names every unsupported key, bad masking configuration and reference form at its loc', () => {
    const parsed = parseDataset({
      fides_key: 'd',
      fides_meta: { after: [] },
      collections: [
        {
          name: 'a',
          fides_meta: { masking_strategy_override: { strategy: 'hash' } },
          fields: [
            field('x', { masking_strategy_override: { strategy: 'string_rewrite', configuration: {} } }),
            field('y', { references: [{ dataset: 'other', field: 'a.b.c', direction: 'sideways' }] }),
          ],
        },
      ],
    });
    assert.deepEqual(
      parsed.problems.map((p) => p.loc.join('.')),
      [
        'fides_meta.after',
        'collections.0.fides_meta.masking_strategy_override.strategy',
        'collections.0.fields.0.fides_meta.masking_strategy_override.configuration.rewrite_value',
        'collections.0.fields.1.fides_meta.references.0.dataset',
        'collections.0.fields.1.fides_meta.references.0.field',
        'collections.0.fields.1.fides_meta.references.0.direction',
      ],
    );
    assert.equal(parsed.dataset, null);
    assert.deepEqual(
      parseDataset('a: [').problems.map((p) => p.loc),
      [[]],
    );
  });
});

describe('checkDataset and the traversal', () => {
  const shop = parseDataset(
    dataset([
      {
        name: 'customer',
        fields: [field('id', { primary_key: true }), field('email', { identity: 'email' }, ['user.contact.email'])],
      },
      {
        name: 'orders',
        fields: [
          field('id', { primary_key: true }),
          field('customer_id', ref('customer.id', 'from')),
          field('address_id', ref('address.id', 'to')),
        ],
      },
      { name: 'address', fields: [field('id'), field('city', {}, ['user.contact.address.city'])] },
      { name: 'audit', fides_meta: { after: ['d.address'] }, fields: [field('customer_id', ref('customer.id'))] },
    ]),
  ).dataset!;

  it('orders access by distance from the identities and `after`; erases children first, identities last', () => {
    assert.deepEqual(checkDataset(shop, []), []);
    const t = buildTraversal(shop);
    assert.deepEqual(
      t.access.map((s) => s.collection.name),
      ['customer', 'orders', 'address', 'audit'],
    );
    assert.deepEqual(t.access.find((s) => s.collection.name === 'address')?.criteria, [
      { field: 'id', source: { collection: 'orders', field: 'address_id' } },
    ]);
    assert.deepEqual(t.erase, ['audit', 'address', 'orders', 'customer']);
  });

  it('reports unknown categories, missing references, unreachable collections and cycles at their locs', () => {
    const bad = parseDataset(
      dataset([
        { name: 'a', fields: [field('email', { identity: 'email' }, ['user.bogus'])] },
        { name: 'b', fields: [field('a_id', ref('a.nope'))] },
      ]),
    ).dataset!;
    assert.deepEqual(
      checkDataset(bad, ['x']).map((p) => p.loc),
      [
        ['x', 'collections', 0, 'fields', 0, 'data_categories', 0],
        ['x', 'collections', 1, 'fields', 0, 'fides_meta', 'references', 0],
      ],
    );
    const lonely = parseDataset(
      dataset([
        { name: 'a', fields: [field('email', { identity: 'email' })] },
        { name: 'b', fields: [field('x')] },
      ]),
    ).dataset!;
    assert.deepEqual(
      checkDataset(lonely, []).map((p) => p.loc),
      [['collections', 1]],
    );
    // A request by phone supplies phone_number (PRODUCT §2.17); a name no request supplies seeds nothing.
    const phoneOnly = parseDataset(dataset([{ name: 'a', fields: [field('phone', { identity: 'phone_number' })] }])).dataset!;
    assert.deepEqual(checkDataset(phoneOnly, []), []);
    const faxOnly = parseDataset(dataset([{ name: 'a', fields: [field('fax', { identity: 'fax' })] }])).dataset!;
    assert.match(checkDataset(faxOnly, [])[0]?.msg ?? '', /no field has an identity the service supplies/);
    const cycle = parseDataset(
      dataset([
        { name: 'a', fides_meta: { erase_after: ['d.b'] }, fields: [field('email', { identity: 'email' })] },
        { name: 'b', fides_meta: { erase_after: ['d.a'] }, fields: [field('a', ref('a.email'))] },
      ]),
    ).dataset!;
    assert.deepEqual(
      checkDataset(cycle, []).map((p) => p.loc),
      [['collections', 0, 'fides_meta', 'erase_after', 0]],
    );
  });
});

describe('allowed hosts and connection URLs', () => {
  const { hosts, problems } = parseAllowedHosts(' db.internal , 10.0.0.0/8, 192.0.2.5:5432, [::1]:3306, bad host!, ');
  it('parses names, CIDRs, host:port and [v6]:port; names a bad entry by position without echoing it', () => {
    assert.equal(hosts.length, 4);
    assert.deepEqual(problems, ['CONNECTOR_ALLOWED_HOSTS entry 5 is not a host, host:port, address or CIDR']);
    assert.ok(hostAllowed(hosts, 'DB.internal', 1234));
    assert.ok(hostAllowed(hosts, '10.1.2.3', 5432));
    assert.ok(hostAllowed(hosts, '192.0.2.5', 5432) && !hostAllowed(hosts, '192.0.2.5', 5433));
    assert.ok(hostAllowed(hosts, '::1', 3306) && !hostAllowed(hosts, '::1', 5432));
    assert.ok(!hostAllowed(hosts, 'evil.example', 5432) && !hostAllowed(parseAllowedHosts('').hosts, 'db.internal', 5432));
  });
  it('at connect time: a CIDR covers the address; a name entry accepts its addresses, but never link-local or unspecified ones', () => {
    assert.ok(addressAllowed(hosts, 'anything', '10.9.9.9', 5432));
    assert.ok(addressAllowed(hosts, 'db.internal', '172.16.0.4', 5432));
    assert.ok(!addressAllowed(hosts, 'db.internal', '169.254.169.254', 5432));
    assert.ok(!addressAllowed(hosts, 'db.internal', '0.0.0.0', 5432));
    assert.ok(!addressAllowed(hosts, 'other.internal', '172.16.0.4', 5432));
  });
  it('reads URLs per kind; problems never contain the URL', () => {
    const ok = parseConnectionUrl('mysql', 'mariadb://u:p%40ss@db.internal/shop?ssl=true');
    assert.ok('target' in ok && ok.target.password === 'p@ss' && ok.target.port === 3306 && ok.target.tls === 'require');
    const url = 'mysql://u:Secret@db.internal/shop';
    const problems = checkConnectionUrl('postgres', url, hosts);
    assert.ok(problems.length === 1 && !problems[0]!.includes('Secret'));
    assert.match(checkConnectionUrl('postgres', 'postgres://u:Secret@evil.example/db', hosts)[0] ?? '', /not allowed/);
  });
});

describe('masking, SQL text, errors', () => {
  const f = (masking: Field['masking'], length: number | null = null): Field => ({
    name: 'x',
    data_categories: [],
    identity: null,
    references: [],
    primary_key: false,
    data_type: null,
    length,
    read_only: false,
    masking,
  });
  it('masks by strategy: null, rewrite cut to length, random with its suffix kept within length, hmac deterministic per key', () => {
    assert.equal(maskValue(f(null), 'a@b.c', 'k'), null);
    assert.equal(
      maskValue(f({ strategy: 'string_rewrite', rewrite_value: 'erased-value', suffix: null }, 6), 'x', 'k'),
      'erased',
    );
    const random = String(
      maskValue(f({ strategy: 'random_string_rewrite', length: 30, suffix: '@masked.invalid' }, 24), 'a@b.c', 'k'),
    );
    assert.match(random, /^[a-z0-9]{9}@masked\.invalid$/);
    const h = f({ strategy: 'hmac' });
    assert.equal(maskValue(h, 'ada', 'k1'), maskValue(h, 'ada', 'k1'));
    assert.notEqual(maskValue(h, 'ada', 'k1'), maskValue(h, 'ada', 'k2'));
    assert.equal(maskValue(h, null, 'k1'), null);
  });
  it('quotes identifiers per dialect (the quote doubled) and binds every value', () => {
    const ds = { fides_key: 'd', schema: 'sales"x', collections: [], skipped: [] };
    const c = { name: 'we`ird"', position: 0, fields: [f(null)], after: [], erase_after: [], delete_rows: false };
    const pg = selectRows(DIALECTS.postgres, ds, c, [{ column: 'x', values: ["x'); DROP TABLE t;--", 2] }], 10);
    assert.equal(pg?.sql, 'SELECT "x" FROM "sales""x"."we`ird""" WHERE "x" IN ($1, $2) LIMIT 11');
    assert.deepEqual(pg?.params, ["x'); DROP TABLE t;--", 2]);
    const my = updateRows(DIALECTS.mysql, { ...ds, schema: null }, 'we`ird', [['x', null]], {
      columns: ['a', 'b'],
      rows: [
        [1, 2],
        [3, 4],
      ],
    });
    assert.equal(my.sql, 'UPDATE `we``ird` SET `x` = ? WHERE (`a` = ? AND `b` = ?) OR (`a` = ? AND `b` = ?)');
    assert.equal(selectRows(DIALECTS.mysql, ds, c, [{ column: 'x', values: [] }], 10), null);
  });
  it('classifies driver failures: down, slow, busy and permission retry; missing tables, constraints and the cap do not', () => {
    const reason = (e: unknown) => classifyDriverError(e).reason;
    assert.equal(reason({ code: 'ECONNREFUSED' }), 'unreachable');
    assert.equal(reason({ code: '57014' }), 'timeout');
    assert.equal(reason({ errno: 1969, sqlState: '70100' }), 'timeout');
    assert.equal(reason({ code: '42501' }), 'permission_denied');
    assert.equal(reason({ code: 'ER_TABLEACCESS_DENIED_ERROR' }), 'permission_denied');
    assert.equal(reason({ code: '23505' }), 'unique');
    assert.equal(reason({ code: '23P01' }), 'constraint');
    assert.equal(reason({ code: 'ER_NO_SUCH_TABLE' }), 'missing_table');
    assert.equal(new ConnectorError('timeout', 's', 'c').retryable, true);
    assert.equal(new ConnectorError('row_cap', 's', 'c').retryable, false);
    assert.equal(
      new ConnectorError('missing_table', 's', 'c', '42P01').message,
      'system s, collection c: the table does not exist (42P01)',
    );
  });
});
