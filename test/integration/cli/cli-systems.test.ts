/**
 * `privacyctl system add|list|remove` and `token create --system` (PRODUCT.md §2.9, §3), run as an
 * operator runs them: the built bin/privacyctl.js in a child process, on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { createDatabase } from '../../../src/db/database.js';
import { openServices } from '../../../src/services.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { insertEndpoint } from '../../helpers/data-systems.js';
import { type BuiltCli, buildPrivacyctl, words } from '../../helpers/privacyctl.js';

let privacyctl: BuiltCli;
before(() => {
  privacyctl = buildPrivacyctl();
});
after(() => privacyctl.remove());

for (const dialect of dialects()) {
  describe(`privacyctl system (${dialect.name})`, () => {
    let database: TestDatabase;
    const cli = (...args: string[]) => privacyctl.run({ DATABASE_URL: database.url }, args);
    const count = async () => {
      const db = createDatabase(database.url);
      try {
        return (await db.db.selectFrom('data_systems').select(['key', 'deleted_at']).orderBy('key').execute()).map((r) => [
          r.key,
          r.deleted_at !== null,
        ]);
      } finally {
        await db.close();
      }
    };

    before(async () => {
      database = await dialect.create();
      assert.equal(cli('migrate').status, 0);
    });
    after(() => database.drop());

    it('add prints the system as JSON (lists repeatable or comma-separated); the same key again exits 1', async () => {
      const added = cli(
        ...words(
          'system add --workspace acme --key crm --name Sales --categories user.contact,user.name --request-types access --request-types deletion --due-days 14',
        ),
      );
      assert.equal(added.status, 0, added.stderr);
      const body = JSON.parse(added.stdout);
      assert.deepEqual(
        [body.key, body.categories, body.request_types, body.due_days, body.endpoint_id],
        ['crm', ['user.contact', 'user.name'], ['access', 'deletion'], 14, null],
      );
      const again = cli(...words('system add --workspace acme --key crm --name Other --categories user --request-types access'));
      assert.equal(again.status, 1);
      assert.match(again.stderr, /already has a data system with key crm/);
      assert.deepEqual(await count(), [['crm', false]]);
    });

    it('bad flags exit 2 naming each one; an endpoint of another workspace exits 2; nothing is written', async () => {
      const bad = cli(
        ...words('system add --workspace acme --key Bad_Key --categories user.ssn --request-types erase --due-days soon'),
      );
      assert.equal(bad.status, 2);
      assert.equal(bad.stdout, '');
      for (const line of [
        /--key: String should match pattern/,
        /--name is required/,
        /--categories: Input should be/,
        /--request-types: Input should be/,
        /--due-days: Input should be a valid integer/,
      ])
        assert.match(bad.stderr, line);
      const db = createDatabase(database.url);
      const foreign = await insertEndpoint(db.db, 'globex').finally(() => db.close());
      const hooked = cli(
        ...words(
          `system add --workspace acme --key hooked --name H --categories user --request-types access --endpoint-id ${foreign}`,
        ),
      );
      assert.equal(hooked.status, 2);
      assert.match(hooked.stderr, /--endpoint-id: not a webhook endpoint of this workspace/);
      assert.deepEqual(await count(), [['crm', false]]);
    });

    it('list shows live systems (table and --json); remove deletes softly and a second remove exits 1', () => {
      const table = cli('system', 'list');
      assert.equal(table.status, 0, table.stderr);
      assert.match(table.stdout, /^ID\s+WORKSPACE\s+KEY\s+NAME\s+CATEGORIES\s+REQUEST_TYPES\s+ENDPOINT\s+DUE_DAYS\n/);
      assert.match(table.stdout, /acme\s+crm\s+Sales\s+user\.contact,user\.name\s+access,deletion\s+-\s+14/);
      const listed = JSON.parse(cli('system', 'list', '--workspace', 'acme', '--json').stdout) as {
        id: string;
        key: string;
      }[];
      assert.deepEqual(
        listed.map((s) => s.key),
        ['crm'],
      );
      assert.deepEqual(cli('system', 'remove', listed[0]!.id), { status: 0, stdout: `removed ${listed[0]!.id}\n`, stderr: '' });
      assert.deepEqual(JSON.parse(cli('system', 'list', '--json').stdout), []);
      const again = cli('system', 'remove', listed[0]!.id);
      assert.equal(again.status, 1);
      assert.match(again.stderr, /no data system/);
      assert.equal(cli('system', '--help').status, 0);
    });

    it('token create --system limits the token to those systems; a bad key exits 2', async () => {
      const created = cli(
        ...words('token create --workspace acme --scope tasks:write --system crm --system billing --name crm-bot'),
      );
      assert.equal(created.status, 0, created.stderr);
      const token = created.stdout.trim();
      const db = createDatabase(database.url);
      try {
        const services = await openServices({ config: loadConfig({ DATABASE_URL: database.url }), database: db });
        const principal = await services.tokens.authenticate(token);
        assert.deepEqual([...(principal?.systems ?? [])].sort(), ['billing', 'crm']);
      } finally {
        await db.close();
      }
      const listed = (JSON.parse(cli('token', 'list', '--json').stdout) as { name: string; systems: string[] | null }[]).find(
        (t) => t.name === 'crm-bot',
      );
      assert.deepEqual(listed?.systems, ['crm', 'billing']);
      const bad = cli(...words('token create --workspace acme --scope tasks:write --system Not_A_Key'));
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /not a data system key: Not_A_Key/);
    });
  });
}
