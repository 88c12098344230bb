/**
 * The traversal with Ethyca Fides' semantics (PRODUCT §2.17; issue 32 item 2): Fides' own graph
 * tests (`tests/ops/graph/test_graph_traversal.py` at ethyca/fides 96aa40cb) re-stated on this
 * traversal, Fides' PostgreSQL example dataset as shipped, and the shop dataset with a second path
 * to `address`. A collection several collections reference runs after all of them with all their
 * values; the erasure plan masks every row found on any path.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { checkDataset } from '../../src/modules/connectors/dataset-check.fns.js';
import { parseDataset } from '../../src/modules/connectors/dataset-parse.fns.js';
import type { Dataset } from '../../src/modules/connectors/dataset.types.js';
import type { ReadResult } from '../../src/modules/connectors/read-pass.js';
import { DIALECTS } from '../../src/modules/connectors/sql-dialect.fns.js';
import { selectRows } from '../../src/modules/connectors/statements.fns.js';
import { buildTraversal, type Traversal, TraversalCycleError } from '../../src/modules/connectors/traversal.fns.js';
import { planErasure } from '../../src/modules/connectors/write-plan.fns.js';

type Dir = 'from' | 'to' | undefined;
const col = (name: string, fields: unknown[], meta?: Record<string, unknown>) => ({
  name,
  fields,
  ...(meta ? { fides_meta: meta } : {}),
});
const fld = (name: string, meta: Record<string, unknown> = {}, categories: string[] = []) => ({
  name,
  data_categories: categories,
  fides_meta: meta,
});
const refs = (...to: [string, Dir][]) => ({
  references: to.map(([field, direction]) => ({ dataset: 'd', field, ...(direction ? { direction } : {}) })),
});
function ds(collections: unknown[], key = 'd'): Dataset {
  const parsed = parseDataset({ fides_key: key, collections });
  assert.deepEqual(parsed.problems, []);
  return parsed.dataset!;
}
const only =
  (...names: string[]) =>
  (identity: string) =>
    names.includes(identity);
const order = (t: Traversal) => t.access.map((s) => s.collection.name);
/** Each collection's criteria as `field<-parent.field` or `field<-identity`. */
const criteria = (t: Traversal) =>
  Object.fromEntries(
    t.access.map((s) => [
      s.collection.name,
      s.criteria.map((c) =>
        'identity' in c.source ? `${c.field}<-${c.source.identity}` : `${c.field}<-${c.source.collection}.${c.source.field}`,
      ),
    ]),
  );

describe("traversal: Fides' graph tests", () => {
  it('test_traversal_ordering: addresses come from customers and orders, never orders from addresses; Address runs after both', () => {
    const d = ds([
      col('Customer', [
        fld('customer_id'),
        fld('name'),
        fld('email', { identity: 'email' }),
        fld('contact_address_id', refs(['Address.id', 'to'])),
      ]),
      col('Address', [fld('id'), fld('street'), fld('city'), fld('state'), fld('zip')]),
      col('Order', [
        fld('order_id'),
        fld('customer_id', refs(['Customer.customer_id', undefined])),
        fld('shipping_address_id', refs(['Address.id', 'to'])),
        fld('billing_address_id', refs(['Address.id', 'to'])),
      ]),
    ]);
    const t = buildTraversal(d, only('email'));
    assert.deepEqual(order(t), ['Customer', 'Order', 'Address']);
    assert.deepEqual(criteria(t), {
      Customer: ['email<-email'],
      Order: ['customer_id<-Customer.customer_id'],
      Address: ['id<-Customer.contact_address_id', 'id<-Order.shipping_address_id', 'id<-Order.billing_address_id'],
    });
    assert.deepEqual(t.erase, ['Address', 'Order', 'Customer']);
  });

  it('test_traversal_ordering (first part): 1 -> 2 <- 3, directed: 3 is unreachable, refused at registration', () => {
    const d = ds([
      col('c1', [fld('f1', { identity: 'email', ...refs(['c2.f1', 'to']) })]),
      col('c2', [fld('f1'), fld('f3')]),
      col('c3', [fld('f3', refs(['c2.f3', 'to']))]),
    ]);
    assert.deepEqual(
      checkDataset(d, []).map((p) => [p.loc, p.msg]),
      [[['collections', 2], 'collection c3 is not reachable from any identity field through references']],
    );
  });

  it('test_variant_traversals: the seed decides the traversal; a collection seeded and referenced is found both ways', () => {
    const d = ds([
      col('customer', [fld('id'), fld('email', { identity: 'email' }), fld('user_id', refs(['user.id', 'to']))]),
      col('user', [fld('id'), fld('ssn', { identity: 'ssn' })]),
    ]);
    assert.deepEqual(criteria(buildTraversal(d, only('email'))), {
      customer: ['email<-email'],
      user: ['id<-customer.user_id'],
    });
    assert.deepEqual(criteria(buildTraversal(d, only('email', 'ssn'))), {
      customer: ['email<-email'],
      user: ['ssn<-ssn', 'id<-customer.user_id'],
    });
    assert.deepEqual(criteria(buildTraversal(d, only('ssn'))), { user: ['ssn<-ssn'] });
  });

  it('test_tree_1: seed -> t1 -> t2 -> t3 through a `to` and a `from` reference', () => {
    const d = ds([
      col('t1', [fld('f1'), fld('f2', { identity: 'email' }), fld('f3', refs(['t2.f1', 'to']))]),
      col('t2', [fld('f1'), fld('f2'), fld('f3')]),
      col('t3', [fld('f1'), fld('f2'), fld('f3', refs(['t2.f1', 'from']))]),
    ]);
    assert.deepEqual(criteria(buildTraversal(d, only('email'))), {
      t1: ['f2<-email'],
      t2: ['f1<-t1.f3'],
      t3: ['f3<-t2.f1'],
    });
  });

  it('test_multiple_field_links: every reference between two collections is a criterion of the later one', () => {
    const d = ds([
      col('c1', [
        fld('f1', { identity: 'email', ...refs(['c2.f1', undefined]) }),
        fld('f2', refs(['c2.f1', undefined])),
        fld('f3', refs(['c2.f3', undefined])),
      ]),
      col('c2', [fld('f1'), fld('f3')]),
    ]);
    assert.deepEqual(criteria(buildTraversal(d, only('email'))), {
      c1: ['f1<-email'],
      c2: ['f1<-c1.f1', 'f1<-c1.f2', 'f3<-c1.f3'],
    });
  });

  it('test_tree_linear: an undirected chain points away from the seed', () => {
    const d = ds([
      col('c1', [fld('f1', { identity: 'email', ...refs(['c2.f1', undefined]) })]),
      col('c2', [fld('f1', refs(['c3.f1', undefined]))]),
      col('c3', [fld('f1', refs(['c4.f1', undefined]))]),
      col('c4', [fld('f1', refs(['c5.f1', undefined]))]),
      col('c5', [fld('f1')]),
    ]);
    const t = buildTraversal(d, only('email'));
    assert.deepEqual(order(t), ['c1', 'c2', 'c3', 'c4', 'c5']);
    assert.deepEqual(criteria(t).c5, ['f1<-c4.f1']);
  });

  it('test_circular_reference: a directed cycle A -> B -> C -> A; Fides traverses it but its task graph cannot run it: refused', () => {
    const d = ds([
      col('c1', [fld('f1', refs(['c2.f1', 'to'])), fld('f2', { identity: 'email' }), fld('f3')]),
      col('c2', [fld('f1'), fld('f2', refs(['c3.f2', 'to']))]),
      col('c3', [fld('f2'), fld('f3', refs(['c1.f3', 'to']))]),
    ]);
    assert.throws(
      () => buildTraversal(d, only('email')),
      (e: unknown) => e instanceof TraversalCycleError && e.kind === 'references',
    );
    assert.deepEqual(
      checkDataset(d, ['dataset', 0]).map((p) => p.loc),
      [['dataset', 0, 'collections', 0, 'fields', 0, 'fides_meta', 'references', 0]],
    );
  });

  it('test_after_collection: `after` changes which end of an undirected reference is the parent', () => {
    const base = (bMeta?: Record<string, unknown>) =>
      ds([
        col('a', [fld('email', { identity: 'email' }), fld('id', refs(['b.a_id', undefined], ['c.a_id', undefined]))]),
        col('b', [fld('a_id'), fld('c_id', refs(['c.id', undefined]))], bMeta),
        col('c', [fld('a_id'), fld('id')]),
      ]);
    const plain = buildTraversal(base(), only('email'));
    assert.deepEqual(order(plain), ['a', 'b', 'c']);
    assert.deepEqual(criteria(plain).c, ['a_id<-a.id', 'id<-b.c_id']);
    const after = buildTraversal(base({ after: ['d.c'] }), only('email'));
    assert.deepEqual(order(after), ['a', 'c', 'b']);
    assert.deepEqual(criteria(after).b, ['a_id<-a.id', 'c_id<-c.id']);
  });
});

const fidesFile = (path: string) => readFileSync(new URL(`../fixtures/fides/${path}`, import.meta.url), 'utf8');

describe("traversal: Fides' PostgreSQL example dataset, as shipped", () => {
  const parsed = parseDataset(fidesFile('dataset/postgres_example_test_dataset.yml'));
  const dataset = parsed.dataset!;

  it('reads and passes every check', () => {
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(checkDataset(dataset, parsed.prefix), []);
  });

  it('address is read after customer, employee, orders and payment_card, by all their values; service_request by both e-mails and the employee', () => {
    const t = buildTraversal(dataset, only('email'));
    assert.deepEqual(order(t), [
      'customer',
      'employee',
      'report',
      'service_request',
      'visit',
      'login',
      'orders',
      'payment_card',
      'address',
      'order_item',
      'product',
    ]);
    const c = criteria(t);
    assert.deepEqual(c.address, [
      'id<-customer.address_id',
      'id<-employee.address_id',
      'id<-orders.shipping_address_id',
      'id<-payment_card.billing_address_id',
    ]);
    assert.deepEqual(c.service_request, ['alt_email<-email', 'email<-email', 'employee_id<-employee.id']);
    assert.deepEqual(c.order_item, ['order_id<-orders.id']);
    assert.deepEqual(c.product, ['id<-order_item.product_id']);
  });

  it('one SELECT per collection carries all its criteria, placeholders only', () => {
    const step = buildTraversal(dataset, only('email')).access.find((s) => s.collection.name === 'address')!;
    const select = selectRows(
      DIALECTS.postgres,
      dataset,
      step.collection,
      step.criteria.map((c, i) => ({ column: c.field, values: i === 1 ? [] : [1, 2] })),
      10,
    )!;
    assert.equal(
      select.sql,
      'SELECT "city", "house", "id", "state", "street", "zip" FROM "address" WHERE "id" IN ($1, $2) OR "id" IN ($3, $4) OR "id" IN ($5, $6) LIMIT 11',
    );
    assert.deepEqual(select.params, [1, 2, 1, 2, 1, 2]);
  });
});

describe('traversal: the shop dataset with a second path to address', () => {
  const shopFile = parseYaml(readFileSync(new URL('../fixtures/connectors/shop-dataset.yml', import.meta.url), 'utf8')) as {
    dataset: [{ collections: unknown[] }];
  };
  const twoPaths = structuredClone(shopFile);
  twoPaths.dataset[0].collections.push(
    col('payment_card', [
      fld('id', { primary_key: true }),
      fld('customer_id', { references: [{ dataset: 'shop', field: 'customer.id', direction: 'from' }] }),
      fld('billing_address_id', { references: [{ dataset: 'shop', field: 'address.id', direction: 'to' }] }),
      fld('ccn', {}, ['user.financial.bank_account']),
    ]),
  );
  const parsed = parseDataset(twoPaths);
  const shop = parsed.dataset!;

  it('address runs after orders and payment_card, found by both', () => {
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(checkDataset(shop, parsed.prefix), []);
    const t = buildTraversal(shop, only('email'));
    const names = order(t);
    assert.ok(names.indexOf('address') > names.indexOf('orders') && names.indexOf('address') > names.indexOf('payment_card'));
    assert.deepEqual(criteria(t).address, ['id<-orders.address_id', 'id<-payment_card.billing_address_id']);
    assert.ok(t.erase.indexOf('address') < t.erase.indexOf('payment_card'), 'erased before the collections that lead to it');
    assert.equal(t.erase.at(-1), 'customer', 'identities erased last');
  });

  it('the erasure plan masks every address found, whichever path found it', () => {
    const t = buildTraversal(shop, only('email'));
    const read: ReadResult = {
      rows: new Map([
        ['customer', [{ id: 1, email: 'ada@example.com', github_id: null, username: null, full_name: null, note: null }]],
        ['orders', [{ id: 10, customer_id: 1, address_id: 1, total_cents: 5 }]],
        ['payment_card', [{ id: 7, customer_id: 1, billing_address_id: 2, ccn: '4111' }]],
        [
          'address',
          [
            { id: 1, street: 'a', city: 'b', postal_code: 'c' },
            { id: 2, street: 'd', city: 'e', postal_code: 'f' },
          ],
        ],
      ]),
      conditions: new Map(),
      statements: [],
    };
    const plan = planErasure(DIALECTS.postgres, shop, t, read, ['user.contact'], 'k');
    const address = plan.find((w) => w.collection === 'address')!;
    assert.equal(address.rows, 2);
    assert.deepEqual(
      address.statements.map((s) => [s.sql, s.params]),
      [
        [
          'UPDATE "address" SET "street" = $1, "city" = $2, "postal_code" = $3 WHERE ("id" = $4) OR ("id" = $5)',
          [null, null, null, 1, 2],
        ],
      ],
    );
  });
});
