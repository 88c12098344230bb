/**
 * Database data systems through the API (PRODUCT §2.14), on the service's SQLite and PostgreSQL
 * stores: registration with a Fides dataset (YAML or JSON) and a sealed, never-shown connection;
 * every check a 422 whose `loc` points into the dataset, storing nothing; `fides_key` unique per
 * workspace; PATCH checks again; the per-workspace cap; preview and test against real PostgreSQL
 * and MariaDB targets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { dialects } from '../../helpers/databases.js';
import { createShopTarget, SHOP_DATASET_YAML, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';
import { type Fixture, openFixture } from '../../helpers/worker.js';

const SHOP = (parse(SHOP_DATASET_YAML) as { dataset: Record<string, unknown>[] }).dataset[0] as Record<string, unknown>;
const kinds = await targetKinds();
/** The shop dataset under another fides_key (its references and erase_after follow). */
const renamed = (key: string) =>
  (
    parse(
      SHOP_DATASET_YAML.replaceAll('dataset: shop', `dataset: ${key}`)
        .replaceAll('shop.', `${key}.`)
        .replace('fides_key: shop', `fides_key: ${key}`),
    ) as {
      dataset: Record<string, unknown>[];
    }
  ).dataset[0] as Record<string, unknown>;

for (const dialect of dialects()) {
  describe(`database data systems API (${dialect.name})`, () => {
    let f: Fixture;
    let admin: string;
    const targets: Partial<Record<'postgres' | 'mysql', ShopTarget>> = {};
    const db = () => f.t.services.database.db;
    const count = async () => (await db().selectFrom('data_systems').select('id').execute()).length;
    const call = (method: 'POST' | 'PATCH' | 'GET' | 'DELETE', url: string, payload?: unknown) =>
      f.t.app.inject({
        method,
        url,
        headers: { authorization: admin },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    const body = (over: Record<string, unknown> = {}) => ({
      workspace_id: 'acme',
      key: 'shop-db',
      name: 'Shop database',
      kind: 'postgres',
      connection: { url: 'postgres://app:S3cret-pass@127.0.0.1:5432/shop' },
      dataset: SHOP_DATASET_YAML,
      ...over,
    });

    before(async () => {
      f = await openFixture(dialect.create, {
        env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1, db.internal:5432', MAX_DATA_SYSTEMS_PER_WORKSPACE: '3' },
      });
      admin = await f.t.bearer(['admin'], ['acme']);
      for (const { kind, skip } of kinds) if (!skip) targets[kind] = await createShopTarget(kind);
    });
    after(async () => {
      for (const t of Object.values(targets)) await t.drop();
      await f.close();
    });

    it('registers a postgres system from a YAML Fides file: kind, dataset summary, default categories and request types; the connection is sealed and never shown or audited', async () => {
      const res = await call('POST', '/api/v1/data-systems', body());
      assert.equal(res.statusCode, 201, res.body);
      const system = res.json();
      assert.equal(system.kind, 'postgres');
      assert.deepEqual(system.request_types, ['access', 'export', 'correction', 'deletion']);
      assert.deepEqual(system.dataset.collections, ['customer', 'login', 'orders', 'address', 'order_line', 'preference']);
      assert.deepEqual(system.dataset.identities, ['email', 'github_id', 'username']);
      assert.ok(
        system.categories.includes('user.contact.email') && !system.categories.some((c: string) => c.startsWith('system')),
      );
      assert.equal(system.connection, undefined);
      const read = await call('GET', `/api/v1/data-systems/${system.id}`);
      assert.ok(!read.body.includes('S3cret') && !read.body.includes('postgres://'));
      const row = await db().selectFrom('data_systems').selectAll().where('id', '=', system.id).executeTakeFirstOrThrow();
      assert.ok(row.connection_ciphertext?.startsWith('v1.') && !row.connection_ciphertext.includes('S3cret'));
      assert.equal(f.t.services.secretBox.open(row.connection_ciphertext ?? ''), body().connection.url);
      const audit = await db().selectFrom('audit_events').select('details').where('target_id', '=', system.id).execute();
      assert.ok(audit.length === 1 && !JSON.stringify(audit).includes('S3cret'));
    });

    it('a second system with the same fides_key is a 409; deleting the first frees it', async () => {
      const first = (await call('GET', '/api/v1/data-systems')).json().items.find((s: { key: string }) => s.key === 'shop-db');
      const again = await call(
        'POST',
        '/api/v1/data-systems',
        body({ key: 'shop-copy', kind: 'mysql', connection: { url: 'mysql://app:x@127.0.0.1:3306/shop' }, dataset: SHOP }),
      );
      assert.equal(again.statusCode, 409);
      assert.match(again.json().detail, /fides_key shop/);
      assert.equal((await call('DELETE', `/api/v1/data-systems/${first.id}`)).statusCode, 204);
      const now = await call(
        'POST',
        '/api/v1/data-systems',
        body({
          key: 'shop-copy',
          kind: 'mysql',
          connection: { url: 'mysql://app:x@127.0.0.1:3306/shop' },
          dataset: { dataset: [SHOP] },
        }),
      );
      assert.equal(now.statusCode, 201, now.body);
      assert.equal(now.json().kind, 'mysql');
    });

    it('every dataset problem is a 422 whose loc points into the dataset; the connection is never echoed; nothing is stored', async () => {
      const before = await count();
      const broken = structuredClone(SHOP) as {
        collections: { name: string; fields: Record<string, unknown>[]; fides_meta?: Record<string, unknown> }[];
      };
      broken.collections[0]!.fields[4]!.data_categories = ['user.nonsense'];
      (broken.collections[2]!.fields[2]!.fides_meta as { references: unknown[] }).references = [
        { dataset: 'shop', field: 'address.nowhere', direction: 'to' },
      ];
      broken.collections[1]!.fides_meta = { after: ['shop.orders'] };
      broken.collections[2]!.fides_meta = { after: ['shop.login'] };
      broken.collections[0]!.fields[0]!.tags = ['x'];
      const res = await call(
        'POST',
        '/api/v1/data-systems',
        body({ key: 'broken', dataset: broken, connection: { url: 'postgres://app:S3cret-pass@10.9.8.7:5432/shop' } }),
      );
      assert.equal(res.statusCode, 422);
      assert.ok(!res.body.includes('S3cret') && !res.body.includes('10.9.8.7'));
      const detail = res.json().detail as { type: string; loc: unknown[]; msg: string; input: unknown }[];
      const locs = detail.map((d) => d.loc);
      assert.deepEqual(locs[0], ['body', 'connection', 'url']);
      assert.equal(detail[0]?.input, '[redacted]');
      assert.match(detail[0]?.msg ?? '', /CONNECTOR_ALLOWED_HOSTS/);
      assert.deepEqual(locs[1], ['body', 'dataset', 'collections', 0, 'fields', 0, 'tags']);
      assert.equal(detail.length, 2, 'shape problems first: the checks need a readable dataset');
      delete broken.collections[0]!.fields[0]!.tags;
      const checks = await call('POST', '/api/v1/data-systems', body({ key: 'broken', dataset: broken }));
      assert.deepEqual(
        (checks.json().detail as { loc: unknown[] }[]).map((d) => d.loc),
        [
          ['body', 'dataset', 'collections', 0, 'fields', 4, 'data_categories', 0],
          ['body', 'dataset', 'collections', 2, 'fields', 2, 'fides_meta', 'references', 0],
        ],
      );
      (broken.collections[2]!.fields[2]!.fides_meta as { references: unknown[] }).references = [
        { dataset: 'shop', field: 'address.id', direction: 'to' },
      ];
      broken.collections[0]!.fields[4]!.data_categories = ['user.name'];
      const cycle = await call('POST', '/api/v1/data-systems', body({ key: 'broken', dataset: broken }));
      assert.deepEqual(cycle.json().detail[0].loc, ['body', 'dataset', 'collections', 1, 'fides_meta', 'after', 0]);
      assert.match(cycle.json().detail[0].msg, /cycle/);
      const lonely = renamed('lonely') as { collections: { fields: { fides_meta?: Record<string, unknown> }[] }[] };
      lonely.collections[1]!.fields[1]!.fides_meta = {};
      const unreachable = await call('POST', '/api/v1/data-systems', body({ key: 'broken', dataset: lonely }));
      assert.deepEqual(
        unreachable.json().detail.map((d: { loc: unknown[] }) => d.loc),
        [['body', 'dataset', 'collections', 1]],
      );
      const yaml = await call('POST', '/api/v1/data-systems', body({ key: 'broken', dataset: 'dataset: [ {fides_key: x' }));
      assert.deepEqual(
        yaml.json().detail.map((d: { loc: unknown[] }) => d.loc),
        [['body', 'dataset']],
      );
      assert.equal(await count(), before);
    });

    it('kind rules: a database needs a connection and a dataset and takes no endpoint; webhook and manual take neither', async () => {
      const before = await count();
      const res = await call(
        'POST',
        '/api/v1/data-systems',
        body({ key: 'x1', connection: undefined, dataset: undefined, endpoint_id: 'ep_1' }),
      );
      assert.deepEqual(
        res.json().detail.map((d: { type: string; loc: unknown[] }) => [d.type, d.loc]),
        [
          ['value_error', ['body', 'endpoint_id']],
          ['missing', ['body', 'connection']],
          ['missing', ['body', 'dataset']],
        ],
      );
      const manual = await call('POST', '/api/v1/data-systems', {
        workspace_id: 'acme',
        key: 'x2',
        name: 'X',
        kind: 'manual',
        dataset: SHOP,
      });
      assert.deepEqual(
        manual.json().detail.map((d: { type: string; loc: unknown[] }) => [d.type, d.loc]),
        [
          ['missing', ['body', 'categories']],
          ['missing', ['body', 'request_types']],
          ['value_error', ['body', 'dataset']],
        ],
      );
      assert.equal(await count(), before);
    });

    it('PATCH checks a new dataset and connection again (422, unchanged); a good dataset updates the summary', async () => {
      const system = (await call('GET', '/api/v1/data-systems')).json().items.find((s: { key: string }) => s.key === 'shop-copy');
      const bad = await call('PATCH', `/api/v1/data-systems/${system.id}`, { dataset: { fides_key: 'shop', collections: [] } });
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(bad.json().detail[0].loc, ['body', 'dataset', 'collections']);
      const host = await call('PATCH', `/api/v1/data-systems/${system.id}`, {
        connection: { url: 'mysql://app:pw@db.internal:3306/shop' },
      });
      assert.equal(host.statusCode, 422, 'db.internal is allowed on 5432 only');
      const smaller = structuredClone(SHOP) as { collections: { name: string }[] };
      smaller.collections = smaller.collections.filter((c) => ['customer', 'login'].includes(c.name));
      const ok = await call('PATCH', `/api/v1/data-systems/${system.id}`, { dataset: smaller, name: 'Shop (small)' });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(ok.json().dataset.collections, ['customer', 'login']);
    });

    it('refuses a registration past MAX_DATA_SYSTEMS_PER_WORKSPACE with a 409 naming the limit', async () => {
      const manual = (key: string) =>
        call('POST', '/api/v1/data-systems', {
          workspace_id: 'acme',
          key,
          name: key,
          categories: ['user'],
          request_types: ['access'],
        });
      let res = await manual('m-1');
      for (let i = 2; res.statusCode === 201 && i < 10; i++) res = await manual(`m-${i}`);
      assert.equal(res.statusCode, 409);
      assert.match(res.json().detail, /3 data systems.*MAX_DATA_SYSTEMS_PER_WORKSPACE/);
      const manualSystem = (await call('GET', '/api/v1/data-systems')).json().items.find((s: { key: string }) => s.key === 'm-1');
      const preview = await call('POST', `/api/v1/data-systems/${manualSystem.id}/preview`, {
        subject_provider: 'github',
        subject_id: '1',
        request_type: 'access',
      });
      assert.equal(preview.statusCode, 409);
      for (const s of (await call('GET', '/api/v1/data-systems')).json().items)
        await call('DELETE', `/api/v1/data-systems/${s.id}`);
    });

    for (const { kind, skip } of kinds)
      it(
        `preview and test on a real ${kind} target: placeholders and row counts, nothing written; per collection exists/read/write`,
        { skip },
        async () => {
          const target = targets[kind] as ShopTarget;
          const created = await call(
            'POST',
            '/api/v1/data-systems',
            body({ key: `live-${kind}`, kind, connection: { url: target.url }, dataset: renamed(`live_${kind}`) }),
          );
          assert.equal(created.statusCode, 201, created.body);
          const id = created.json().id;
          const sums = await target.checksums();
          const preview = await call('POST', `/api/v1/data-systems/${id}/preview`, {
            subject_provider: 'github',
            subject_id: '583231',
            request_type: 'deletion',
            scope: ['user.contact'],
          });
          assert.equal(preview.statusCode, 200, preview.body);
          const statements = preview.json().statements as { collection: string; operation: string; sql: string; rows: number }[];
          assert.deepEqual(
            preview.json().categories,
            [
              'user.contact.email',
              'user.contact.address.city',
              'user.contact.address.postal_code',
              'user.contact.address.street',
            ],
            'the overlap: the narrower keys',
          );
          assert.equal(
            statements.find((s) => s.collection === 'customer' && s.operation === 'select')?.rows,
            1,
            'github_id found the customer',
          );
          assert.ok(statements.some((s) => s.collection === 'address' && s.operation === 'update' && s.rows === 1));
          assert.ok(!preview.body.includes('583231') && !preview.body.includes(target.password));
          const test = await call('POST', `/api/v1/data-systems/${id}/test`);
          assert.equal(test.statusCode, 200);
          assert.equal(test.json().reachable, true);
          assert.ok(
            test
              .json()
              .collections.every(
                (c: { exists: boolean; can_read: boolean; can_write: boolean }) => c.exists && c.can_read && c.can_write,
              ),
          );
          assert.deepEqual(await target.checksums(), sums);
          const down = await call('PATCH', `/api/v1/data-systems/${id}`, {
            connection: { url: target.url.replace(/:(3306|5432)\//, ':1/') },
          });
          assert.equal(down.statusCode, 200);
          const failed = await call('POST', `/api/v1/data-systems/${id}/preview`, {
            subject_provider: 'github',
            subject_id: '583231',
            request_type: 'access',
          });
          assert.equal(failed.statusCode, 502);
          assert.match(failed.json().detail, new RegExp(`system live-${kind}: the database could not be reached`));
          assert.ok(!failed.body.includes(target.password) && !failed.body.includes(':1/'));
        },
      );
  });
}
