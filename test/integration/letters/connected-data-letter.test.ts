/**
 * The person's answer for connected data (issue 32 item 8, PRODUCT §2.17): what the letter and
 * the package say of a database system. Two systems read the same shop database: "Shop database"
 * declares nothing, "Shop ledger" declares its purposes, recipients, retention and source. One
 * access request; then: the package states each system's declarations (`system_processing`,
 * nulls where none), each collection's rows found with the categories of its fields, counts that
 * are rows (three financial columns of one row count once), and numbers as JSON numbers (a
 * `bigint` that fits a double exactly, a `numeric`; a `bigint` beyond 2^53 stays a string with all
 * its digits); the letter names each collection by its categories' plain names, says of each
 * undeclared field that the controller has not declared it (exact sentences), shows the declared
 * lists, and carries no scope key and none of the code-host texts in the systems' parts. On the
 * service's SQLite and PostgreSQL stores, against PostgreSQL and MariaDB targets.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createTaskRunner } from '../../../src/jobs/task-runner.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { createShopTarget, SHOP_DATASET_YAML, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';
import { dialects } from '../../helpers/databases.js';
import { assertValidHtml } from '../../helpers/letters.js';
import { type Fixture, fileRequest, openFixture, requestRow, silentLog } from '../../helpers/worker.js';

const kinds = await targetKinds();

/** 2^53 − 1: the largest integer every double holds exactly. */
const SAFE = '9007199254740991';
/** The largest `bigint`: beyond a double, so it stays a string. */
const HUGE = '9223372036854775807';

/** The wallet collection, appended to the shop dataset: three financial columns of one row. */
const WALLET_YAML = `
      - name: wallet
        fields:
          - name: customer_id
            fides_meta:
              primary_key: true
              references: [{ dataset: shop, field: customer.id, direction: from }]
          - name: points
            data_categories: [user.financial]
          - name: lifetime_points
            data_categories: [user.financial]
          - name: balance
            data_categories: [user.financial]
`;

const DECLARED = {
  purposes: ['Delivering your orders', 'Answering your questions about an order'],
  recipients: ['The parcel service that delivers your order'],
  retention: ['Ten years after the order, as tax law requires'],
  source: ['You, when you ordered', 'Your bank, for the payment'],
};

/** What these tests read of an access package. */
interface Package {
  system_processing: Record<string, unknown>;
  system_answers: Record<
    string,
    { records: Record<string, number>; collections: Record<string, { rows: number; fields: Record<string, string[]> }> }
  >;
  systems: Record<string, Record<string, Record<string, unknown>[]>>;
}

/** The letter's text without markup, entities decoded, spaces collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ');

/** The part of the letter about one system: from its heading to the next system's (or the rights). */
function systemSection(html: string, heading: string): string {
  const start = html.indexOf(`<h3>${heading}</h3>`);
  assert.ok(start >= 0, `no section ${heading}`);
  const rest = html.slice(start + 4);
  const end = Math.min(...['<h3>', '<h2>'].map((tag) => rest.indexOf(tag)).filter((i) => i >= 0));
  return rest.slice(0, Number.isFinite(end) ? end : undefined);
}

for (const dialect of dialects()) {
  for (const { kind, skip } of kinds) {
    describe(`the answer for connected data (${dialect.name} store, ${kind} target)`, { skip }, () => {
      let f: Fixture;
      let target: ShopTarget;
      let admin: string;
      let requestId: string;
      let pkgText: string;
      let pkg: Package;
      let html: string;

      async function processAll() {
        const options = { pollMs: 10, leaseMs: 60_000, maxAttempts: 2 };
        const deps = { database: f.t.services.database, clock: f.time.clock, log: silentLog, options };
        const worker = createWorker({
          ...deps,
          pseudonymKey: f.t.services.keys.pseudonymKey,
          secretBox: f.t.services.secretBox,
        });
        const runner = createTaskRunner({
          ...deps,
          taskResults: f.t.services.taskResults,
          keys: {
            secretBox: f.t.services.secretBox,
            connectors: f.t.services.connectors,
            pseudonymKey: f.t.services.keys.pseudonymKey,
          },
        });
        while ((await worker.runOnce()) || (await runner.runOnce()));
      }

      async function addSystem(key: string, name: string, fidesKey: string, more: Record<string, unknown> = {}) {
        const dataset = `${SHOP_DATASET_YAML.trimEnd()}\n${WALLET_YAML}`
          .replaceAll('dataset: shop', `dataset: ${fidesKey}`)
          .replaceAll('shop.', `${fidesKey}.`)
          .replace('fides_key: shop', `fides_key: ${fidesKey}`);
        const res = await f.t.app.inject({
          method: 'POST',
          url: '/api/v1/data-systems',
          headers: { authorization: admin },
          payload: { workspace_id: 'acme', key, name, kind, connection: { url: target.url }, dataset, ...more },
        });
        assert.equal(res.statusCode, 201, res.body);
        return res.json();
      }

      before(async () => {
        target = await createShopTarget(kind);
        const money = kind === 'postgres' ? 'numeric(20,2)' : 'decimal(20,2)';
        await target.admin(
          `CREATE TABLE wallet (customer_id integer PRIMARY KEY REFERENCES customer (id), points bigint, lifetime_points bigint, balance ${money})`,
        );
        await target.admin(`INSERT INTO wallet VALUES (1, ${SAFE}, ${HUGE}, 1234.50), (2, 7, 8, 0.10)`);
        if (kind === 'postgres') await target.admin(`GRANT SELECT ON wallet TO ${new URL(target.url).username}`);
        f = await openFixture(dialect.create, { env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
        admin = await f.t.bearer(['admin', 'privacy:read'], ['acme']);
        await f.t.services.controllers.put('acme', { name: 'Acme Shop GmbH', contact_email: 'privacy@shop.example' }, 'test');
        const plain = await addSystem('shop-db', 'Shop database', 'shop');
        assert.deepEqual(
          [plain.purposes, plain.recipients, plain.retention, plain.source],
          [null, null, null, null],
          'nothing declared: null in the resource',
        );
        const declared = await addSystem('shop-ledger', 'Shop ledger', 'ledger', DECLARED);
        assert.deepEqual(
          {
            purposes: declared.purposes,
            recipients: declared.recipients,
            retention: declared.retention,
            source: declared.source,
          },
          DECLARED,
        );
        const filed = await fileRequest(f, {
          request_type: 'access',
          scope: ['user'],
          subject_provider: 'github',
          subject_id: '583231',
        });
        requestId = filed.id;
        await processAll();
        assert.equal((await requestRow(f, requestId)).status, 'completed');
        const json = await f.t.app.inject({
          url: `/api/v1/privacy/requests/${requestId}/package`,
          headers: { authorization: admin },
        });
        assert.equal(json.statusCode, 200, json.body);
        pkgText = json.body;
        pkg = json.json();
        const letter = await f.t.app.inject({
          url: `/api/v1/privacy/requests/${requestId}/package?format=html`,
          headers: { authorization: admin },
        });
        assert.equal(letter.statusCode, 200, letter.body);
        html = letter.body;
        // For a look in a browser (.scratch/ is not committed).
        const scratch = new URL('../../../.scratch/letters/', import.meta.url);
        mkdirSync(scratch, { recursive: true });
        writeFileSync(new URL(`connected-data-${dialect.name}-${kind}.html`, scratch), html);
      });
      after(async () => {
        await f?.close();
        await target?.drop();
      });

      it('the package states what each system declared: the lists, or null for each field not declared', () => {
        assert.deepEqual(pkg.system_processing['shop-db'], { purposes: null, recipients: null, retention: null, source: null });
        assert.deepEqual(pkg.system_processing['shop-ledger'], DECLARED);
      });

      it('the package records per collection the rows found and the categories of each field; counts are rows', () => {
        const answer = pkg.system_answers['shop-db']!;
        assert.deepEqual(answer.collections.customer, {
          rows: 1,
          fields: {
            id: ['user.unique_id'],
            email: ['user.contact.email'],
            github_id: ['user.unique_id.pseudonymous'],
            username: ['user.account.username'],
            full_name: ['user.name'],
          },
        });
        assert.equal(answer.collections.login?.rows, 2);
        assert.equal(answer.collections.wallet?.rows, 1);
        // One wallet row with three financial columns: one row holds financial data, not three.
        assert.equal(answer.records['user.financial'], 1);
        assert.equal(answer.records['user.device.ip_address'], 2, 'two logins, two rows');
        assert.equal(answer.records['user.contact.email'], 1);
        assert.equal(answer.records['user.content.private'], 2, 'the order lines with a gift message');
        for (const [name, rows] of Object.entries(pkg.systems['shop-db']!))
          assert.equal(answer.collections[name]?.rows, rows.length, name);
        assert.deepEqual(pkg.system_answers['shop-ledger'], answer, 'the same database, the same answer');
      });

      it('bigint and numeric columns round-trip as JSON numbers when exact, as strings with every digit when not', () => {
        const [wallet] = pkg.systems['shop-db']!.wallet!;
        assert.deepEqual(wallet, { points: Number(SAFE), lifetime_points: HUGE, balance: 1234.5 });
        assert.equal(typeof wallet!.points, 'number');
        assert.match(pkgText, new RegExp(`"points":${SAFE}[,}]`), 'written as a JSON number');
        assert.match(pkgText, new RegExp(`"lifetime_points":"${HUGE}"`), 'written as a string, no digit lost');
        assert.equal(BigInt(wallet!.lifetime_points as string), 2n ** 63n - 1n);
        const [order] = pkg.systems['shop-db']!.orders!;
        assert.equal(typeof order!.total_cents, 'number');
        const letterText = textOf(html);
        for (const shown of [SAFE, HUGE, '1234.5']) assert.ok(letterText.includes(shown), shown);
      });

      it('the letter says of each field a system did not declare that the controller has not declared it (exact sentences)', async () => {
        await assertValidHtml(html);
        const plain = textOf(systemSection(html, 'Shop database (shop-db)'));
        for (const sentence of [
          'Acme Shop GmbH has not declared why this system holds your data.',
          'Acme Shop GmbH has not declared who receives data from this system.',
          'Acme Shop GmbH has not declared how long this system keeps your data.',
          'Acme Shop GmbH has not declared where this system’s data came from.',
        ])
          assert.ok(plain.includes(sentence), sentence);
        assert.match(plain, /How this system uses your data/);
      });

      it('the letter shows what a system declared, and no "not declared" sentence for it', () => {
        const declared = textOf(systemSection(html, 'Shop ledger (shop-ledger)'));
        for (const item of Object.values(DECLARED).flat()) assert.ok(declared.includes(item), item);
        assert.ok(declared.includes('Why it holds your data Delivering your orders Answering your questions about an order'));
        assert.ok(declared.includes('How long it is kept Ten years after the order, as tax law requires'));
        assert.doesNotMatch(declared, /has not declared/);
      });

      it('each collection shows under its categories’ plain names, with the rows found; no scope key, no code-host text', () => {
        const section = systemSection(html, 'Shop database (shop-db)');
        assert.ok(section.includes('<h4>Identifiers, E-mail address, Pseudonymous identifiers, Username, Name</h4>'), section);
        assert.ok(section.includes('<h4>IP addresses</h4>'));
        assert.ok(section.includes('<h4>Financial data</h4>'));
        assert.ok(section.includes('<h4>Street address, City, Postal code</h4>'));
        assert.ok(section.includes('2 records found in “login”.'));
        assert.ok(section.includes('1 record found in “customer”.'));
        assert.ok(
          section.includes('<dt>E-mail address</dt><dd><span>ada@example.com</span></dd>'),
          'a field by its category’s name',
        );
        assert.ok(
          section.includes('<th scope="col">Street address</th><th scope="col">City</th>'),
          'columns by their categories’ names',
        );
        assert.ok(
          section.includes('<th scope="col">Points</th><th scope="col">Lifetime points</th>'),
          'shared: by their own names',
        );
        assert.match(
          section,
          /Records it holds about you: Identifiers: 1, E-mail address: 1, [^<]*IP addresses: 2, [^<]*Financial data: 1\./,
        );
        const text = textOf(section);
        for (const words of ['webhook', 'Pull and merge', 'pull request', 'GitHub', 'GitLab', 'sign-in provider'])
          assert.ok(!text.includes(words), `"${words}" in the system's part: ${text}`);
        assert.doesNotMatch(textOf(html), /\b(user|system)(\.[a-z_]+)+/, 'no category key anywhere in the letter');
        assert.match(textOf(html), /Where the data of each other system came from is said in its part above\./);
      });
    });
  }
}
