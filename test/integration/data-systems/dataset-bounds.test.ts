/**
 * A dataset's bounds (PRODUCT §2.17, "Bounds"), on the service's SQLite and PostgreSQL stores:
 * at most 500 collections and 5 000 fields once YAML aliases are expanded (beyond: 413 naming the
 * limit, nothing stored), YAML nested at most 64 deep (beyond: 422), a dataset 422's `input` cut
 * to 1 KiB; a 72 KB alias bomb that expands to 50 000 fields is refused over real HTTP while a
 * second client's `/healthz` keeps being answered (the event loop is not blocked for seconds: not
 * a speed claim); a stored dataset is read once per system version, and a row stored before the
 * bounds (6 000 fields) still loads.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { storedDataset } from '../../../src/modules/data-systems/stored-dataset.js';
import { SHOP_DATASET_YAML } from '../../helpers/connector-targets.js';
import { dialects } from '../../helpers/databases.js';
import { type Fixture, openFixture } from '../../helpers/worker.js';

const SHOP = (parse(SHOP_DATASET_YAML) as { dataset: Record<string, unknown>[] }).dataset[0] as Record<string, unknown>;

/** A Fides dataset of ~72 KB: one collection's 500 fields anchored, 99 collections aliasing them: 50 000 fields. */
function aliasBomb(): string {
  let fields = '';
  for (let i = 0; i < 499; i++)
    fields += `      - name: customer_field_${String(i).padStart(5, '0')}\n        data_categories: [user.contact.email]\n        fides_meta: { data_type: string, length: 120 }\n`;
  let text = `fides_key: bomb\ncollections:\n  - name: t0\n    fields: &fields\n      - name: email\n        fides_meta: { identity: email }\n${fields.slice(0, -1)}\n`;
  for (let i = 1; i < 100; i++) text += `  - name: t${i}\n    fields: *fields\n`;
  return text;
}

/** A dataset with `n` collections of one field each, all reachable from `email`. */
function wide(n: number): Record<string, unknown> {
  const collections = [
    { name: 'c0', fields: [{ name: 'email', data_categories: ['user.contact.email'], fides_meta: { identity: 'email' } }] },
  ];
  for (let i = 1; i < n; i++)
    collections.push({
      name: `c${i}`,
      fields: [{ name: 'email', data_categories: ['user.contact.email'], fides_meta: { identity: 'email' } }],
    });
  return { fides_key: `wide_${n}`, collections };
}

for (const dialect of dialects()) {
  describe(`dataset bounds (${dialect.name})`, () => {
    let f: Fixture;
    let admin: string;
    const count = async () => (await f.t.services.database.db.selectFrom('data_systems').select('id').execute()).length;
    const post = (body: Record<string, unknown>) =>
      f.t.app.inject({
        method: 'POST',
        url: '/api/v1/data-systems',
        headers: { authorization: admin },
        payload: {
          workspace_id: 'acme',
          key: 'shop-db',
          name: 'Shop database',
          kind: 'postgres',
          connection: { url: 'postgres://app:S3cret-pass@127.0.0.1:5432/shop' },
          ...body,
        },
      });

    before(async () => {
      f = await openFixture(dialect.create, { env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
      admin = await f.t.bearer(['admin'], ['acme']);
    });
    after(() => f?.close());

    it('500 collections register; 501 are a 413 naming the limit; nothing is stored', async () => {
      const ok = await post({ key: 'wide-500', dataset: wide(500) });
      assert.equal(ok.statusCode, 201, ok.body.slice(0, 500));
      const before = await count();
      const res = await post({ key: 'wide-501', dataset: wide(501) });
      assert.equal(res.statusCode, 413);
      assert.equal(
        res.json().detail,
        'The dataset holds 501 collections once its YAML aliases are expanded; at most 500 are allowed',
      );
      assert.equal(await count(), before);
    });

    it('a 72 KB alias bomb (50 000 fields once expanded) is a 413 naming the limit, on create and PATCH', async () => {
      const bomb = aliasBomb();
      assert.ok(bomb.length > 70_000 && bomb.length < 80_000, String(bomb.length));
      const before = await count();
      const res = await post({ key: 'bomb', dataset: bomb });
      assert.equal(res.statusCode, 413);
      assert.equal(
        res.json().detail,
        'The dataset holds 50000 fields once its YAML aliases are expanded; at most 5000 are allowed',
      );
      assert.equal(await count(), before);
      const shop = await post({ key: 'shop-bounds', dataset: SHOP_DATASET_YAML });
      assert.equal(shop.statusCode, 201, shop.body);
      const patch = await f.t.app.inject({
        method: 'PATCH',
        url: `/api/v1/data-systems/${shop.json().id}`,
        headers: { authorization: admin },
        payload: { dataset: bomb },
      });
      assert.equal(patch.statusCode, 413);
      assert.match(patch.json().detail, /5000/);
    });

    it('YAML nested deeper than 64 levels (directly or through aliases) and a JSON object as deep are 422 at the dataset', async () => {
      const flow = await post({ key: 'deep', dataset: `${'['.repeat(100_000)}${']'.repeat(100_000)}` });
      assert.equal(flow.statusCode, 422);
      const item = flow.json().detail[0];
      assert.deepEqual(item.loc, ['body', 'dataset']);
      assert.match(item.msg, /nests deeper than 64 levels/);
      let chain = 'a0: &a0 [x]\n';
      for (let i = 1; i < 70; i++) chain += `a${i}: &a${i} [*a${i - 1}]\n`;
      const aliases = await post({ key: 'deep', dataset: chain });
      assert.match(aliases.json().detail[0].msg, /nests deeper than 64 levels/);
      const object: Record<string, unknown> = { fides_key: 'deep' };
      let at = object;
      for (let i = 0; i < 70; i++) at = (at.meta = {}) as Record<string, unknown>;
      const json = await post({ key: 'deep', dataset: object });
      assert.equal(json.statusCode, 422);
      assert.match(json.json().detail[0].msg, /nests deeper than 64 levels/);
    });

    it("a dataset 422's input is cut to 1 KiB: the YAML text, and the body a missing field echoes", async () => {
      const broken = `${SHOP_DATASET_YAML}${'#'.repeat(200_000)}\n  - [unclosed`;
      const res = await post({ key: 'cut', dataset: broken, name: undefined });
      assert.equal(res.statusCode, 422);
      const detail = res.json().detail as { type: string; loc: unknown[]; input: unknown }[];
      assert.ok(res.body.length < 5_000, `the answer is small: ${res.body.length} bytes`);
      for (const d of detail) {
        assert.equal(typeof d.input, 'string', JSON.stringify(d.loc));
        assert.ok(Buffer.byteLength(d.input as string) <= 1024);
        assert.ok((d.input as string).endsWith('…'));
      }
      assert.deepEqual(
        detail.map((d) => d.type),
        ['missing'],
      );
      assert.ok((detail[0]?.input as string).startsWith('{"workspace_id":"acme"'), 'the body as JSON, cut');
      const invalid = await post({ key: 'cut', dataset: broken });
      assert.deepEqual(invalid.json().detail[0].loc, ['body', 'dataset']);
      assert.ok((invalid.json().detail[0].input as string).startsWith('# The shop dataset'), 'the text itself, cut');
      const short = await post({ key: 'Not A Key', dataset: SHOP });
      assert.equal(short.json().detail[0].input, 'Not A Key', 'a short input stays as it is');
    });

    it('a stored dataset is read once per system version; a row stored before the bounds (6 000 fields) still loads', async () => {
      const created = await post({ key: 'once', dataset: wide(3) });
      assert.equal(created.statusCode, 201, created.body);
      const row = await f.t.services.database.db
        .selectFrom('data_systems')
        .selectAll()
        .where('id', '=', created.json().id)
        .executeTakeFirstOrThrow();
      const first = storedDataset(row);
      assert.ok(first !== null);
      assert.equal(storedDataset({ ...row }), first, 'the same version: the same read');
      assert.notEqual(storedDataset({ ...row, updated_at: '2030-01-01T00:00:00.000Z' }), first, 'a new version is read again');
      // Before the bounds a dataset could hold 200 collections of 500 fields: 12 × 500 here.
      const legacy = wide(12) as { collections: { name: string; fields: unknown[] }[] };
      for (const c of legacy.collections)
        for (let i = 1; i < 500; i++) c.fields.push({ name: `f${i}`, data_categories: ['user.name'] });
      await f.t.services.database.db
        .insertInto('data_systems')
        .values({ ...row, id: 'sys_legacy_bounds', key: 'legacy', fides_key: 'wide_12', dataset: JSON.stringify(legacy) })
        .execute();
      const read = await f.t.app.inject({
        method: 'GET',
        url: '/api/v1/data-systems/sys_legacy_bounds',
        headers: { authorization: admin },
      });
      assert.equal(read.statusCode, 200, read.body.slice(0, 300));
      assert.equal(read.json().dataset.collections.length, 12);
    });
  });
}

describe('an alias bomb over real HTTP with /healthz measured from a second client', () => {
  let f: Fixture;
  let admin: string;
  let origin: string;
  before(async () => {
    f = await openFixture(dialects()[0]!.create, { env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
    admin = await f.t.bearer(['admin'], ['acme']);
    await f.t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(f.t.app.server.address() as AddressInfo).port}`;
  });
  after(() => f?.close());

  it('the bomb is refused (413) and /healthz stays answered during it (each under 1 s: the event loop was not blocked for seconds)', async () => {
    const body = JSON.stringify({
      workspace_id: 'acme',
      key: 'bomb',
      name: 'Bomb',
      kind: 'postgres',
      connection: { url: 'postgres://app:pw@127.0.0.1:5432/shop' },
      dataset: aliasBomb(),
    });
    let done = false;
    const latencies: number[] = [];
    const probe = (async () => {
      while (!done) {
        const started = performance.now();
        const res = await fetch(`${origin}/healthz`);
        await res.arrayBuffer();
        assert.equal(res.status, 200);
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    // Two registrations back to back, so the probe is sure to run while one is being read.
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${origin}/api/v1/data-systems`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': 'application/json' },
        body,
      });
      assert.equal(res.status, 413, await res.text());
    }
    done = true;
    await probe;
    assert.ok(latencies.length >= 2, `the probe answered ${latencies.length} times during the registrations`);
    assert.ok(Math.max(...latencies) < 1000, `slowest /healthz ${Math.round(Math.max(...latencies))} ms`);
  });
});
