/**
 * `privacyctl endpoint add|list|remove|rotate` (PRODUCT §2.8, §3), run as an operator runs it:
 * the built bin/privacyctl.js in a child process, on SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL. The secret is printed by `add` and `rotate` only, and stored encrypted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { createDatabase } from '../../../src/db/database.js';
import { openServices } from '../../../src/services.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { type BuiltCli, buildPrivacyctl, words } from '../../helpers/privacyctl.js';

let privacyctl: BuiltCli;
before(() => {
  privacyctl = buildPrivacyctl();
});
after(() => privacyctl.remove());

/** The endpoint's current and previous secrets as the deliverer opens them, and the audit actions. */
async function inspect(url: string, id: string) {
  const database = createDatabase(url);
  try {
    const services = await openServices({ config: loadConfig({ DATABASE_URL: url }), database });
    const row = await database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    const audit = await database.db
      .selectFrom('audit_events')
      .select(['action', 'actor'])
      .where('target_id', '=', id)
      .orderBy('seq')
      .execute();
    const open = (sealed: string | null | undefined) => (sealed ? services.secretBox.open(sealed) : null);
    return { current: open(row?.secret_ciphertext), previous: open(row?.previous_secret_ciphertext), audit };
  } finally {
    await database.close();
  }
}

describe('privacyctl endpoint without a database', () => {
  it('documents its forms and checks flags with the API schema before opening the database (exit 2)', () => {
    const help = privacyctl.run({}, ['endpoint', '--help']);
    assert.equal(help.status, 0, help.stderr);
    for (const form of ['endpoint add --workspace W --url URL', 'endpoint list', 'endpoint remove ID', 'endpoint rotate ID'])
      assert.ok(help.stdout.includes(form), help.stdout);
    const cli = (args: string[]) => privacyctl.run({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }, args);
    const cases: [string[], RegExp][] = [
      [words('endpoint add --url https://hooks.example.com/x'), /--workspace is required/],
      [words('endpoint add --workspace acme'), /--url is required/],
      [
        words('endpoint add --workspace acme --url https://h.example.com --event-types privacy_request.lost'),
        /--event-types: Input should be/,
      ],
      [words('endpoint rotate'), /ID is required/],
      [words('endpoint frobnicate'), /usage: privacyctl endpoint add/],
    ];
    for (const [args, reason] of cases) {
      const result = cli(args);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, reason);
    }
  });
});

for (const dialect of dialects()) {
  describe(`privacyctl endpoint (${dialect.name})`, () => {
    let database: TestDatabase;
    let env: Record<string, string>;
    before(async () => {
      database = await dialect.create();
      env = { DATABASE_URL: database.url };
      assert.equal(privacyctl.run(env, ['migrate']).status, 0);
    });
    after(() => database.drop());

    it('adds, lists, rotates and removes; the secret is printed only by add and rotate', async () => {
      const refused = privacyctl.run(env, words('endpoint add --workspace acme --url http://127.0.0.1:9/x'));
      assert.equal(refused.status, 2, refused.stderr);
      assert.match(refused.stderr, /--url: the URL must use https:\/\//);
      const added = privacyctl.run(
        env,
        words(
          'endpoint add --workspace acme --url https://hooks.example.com/p --event-types privacy_request.created,privacy_request.completed --event-types data_task.created',
        ),
      );
      assert.equal(added.status, 0, added.stderr);
      const created = JSON.parse(added.stdout) as { id: string; secret: string; event_types: string[] };
      assert.match(created.secret, /^whsec_/);
      assert.deepEqual(created.event_types, ['privacy_request.created', 'privacy_request.completed', 'data_task.created']);
      const listed = privacyctl.run(env, words('endpoint list --workspace acme'));
      assert.equal(listed.status, 0, listed.stderr);
      assert.match(listed.stdout, new RegExp(`${created.id}\\s+acme\\s+https://hooks.example.com/p`));
      assert.ok(!listed.stdout.includes(created.secret));
      const json = privacyctl.run(env, words('endpoint list --json'));
      assert.deepEqual(
        (JSON.parse(json.stdout) as { id: string }[]).map((e) => e.id),
        [created.id],
      );
      assert.ok(!json.stdout.includes('whsec_'));
      const rotated = privacyctl.run(env, words(`endpoint rotate ${created.id}`));
      assert.equal(rotated.status, 0, rotated.stderr);
      const secret = rotated.stdout.trim();
      assert.match(secret, /^whsec_/);
      const seen = await inspect(database.url, created.id);
      assert.deepEqual([seen.current, seen.previous], [secret, created.secret]);
      assert.equal(privacyctl.run(env, words('endpoint remove ep_nope')).status, 1);
      const removed = privacyctl.run(env, words(`endpoint remove ${created.id}`));
      assert.equal(removed.status, 0, removed.stderr);
      const after = await inspect(database.url, created.id);
      assert.equal(after.current, null);
      assert.deepEqual(
        after.audit.map((a) => [a.action, a.actor]),
        [
          ['webhook_endpoint.created', 'cli'],
          ['webhook_endpoint.secret_rotated', 'cli'],
          ['webhook_endpoint.deleted', 'cli'],
        ],
      );
    });
  });
}
