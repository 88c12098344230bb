/**
 * `--help` and `-h` on every privacyctl command and subcommand (issue 11, item 13), run as real
 * processes of the built CLI: usage on stdout, nothing on stderr, exit 0, and the database left
 * untouched (help never opens it). Unknown options exit 2 with a message whose quotes balance.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

/** Every command and subcommand, and the first usage line each must print. */
const COMMANDS: [args: string[], usage: RegExp][] = [
  [['migrate'], /^usage: privacyctl migrate\n$/],
  [['serve'], /^usage: privacyctl serve\n$/],
  [['worker'], /^usage: privacyctl worker\n$/],
  [['token'], /^usage: privacyctl token create .*\n {7}privacyctl token list .*\n {7}privacyctl token revoke ID\n$/],
  [['token', 'create'], /^usage: privacyctl token create --workspace W\|'\*' .*--scope S .*\n$/],
  [['token', 'list'], /^usage: privacyctl token list \[--json\]\n$/],
  [['token', 'revoke'], /^usage: privacyctl token revoke ID\n$/],
  [['policy'], /^usage: privacyctl policy get .*\n {7}privacyctl policy set .*\n$/],
  [['policy', 'get'], /^usage: privacyctl policy get --workspace W \[--repository R\]\n$/],
  [['policy', 'set'], /^usage: privacyctl policy set --workspace W .*--json '\{…\}'\n$/],
  [
    ['integration'],
    /^usage: privacyctl integration add .*\n {7}privacyctl integration list .*\n {7}privacyctl integration remove ID\n$/,
  ],
  [['integration', 'add'], /^usage: privacyctl integration add --kind github\|gitlab\|identity .*\n$/],
  [['integration', 'list'], /^usage: privacyctl integration list \[--workspace-id W\] \[--json\]\n$/],
  [['integration', 'remove'], /^usage: privacyctl integration remove ID\n$/],
  [['audit'], /^usage: privacyctl audit verify\n$/],
  [['audit', 'verify'], /^usage: privacyctl audit verify\n$/],
];

/** Quotes in a message come in pairs (Node's own parseArgs message did not: `'-- "--x"`). */
function assertBalancedQuotes(text: string): void {
  for (const quote of ["'", '"']) assert.equal(text.split(quote).length % 2, 1, `unbalanced ${quote} in: ${text}`);
}

let cli: BuiltCli;
before(() => {
  cli = buildPrivacyctl();
});
after(() => cli?.remove());

for (const dialect of dialects()) {
  describe(`privacyctl COMMAND --help (${dialect.name})`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await dialect.create();
    });
    after(async () => {
      await database.drop();
    });
    const run = (args: string[]) => cli.run({ DATABASE_URL: database.url }, args);

    /** The database is as it was: no SQLite file, no table in the PostgreSQL schema. */
    async function assertUntouched(): Promise<void> {
      if (database.dialect === 'sqlite') {
        assert.equal(existsSync(database.url.slice('sqlite:'.length)), false, 'help created the SQLite file');
        return;
      }
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query('select count(*)::int as n from pg_tables where schemaname = current_schema()');
        assert.equal(rows[0].n, 0, 'help created tables');
      } finally {
        await client.end();
      }
    }

    for (const [command, usage] of COMMANDS) {
      it(`${command.join(' ')} --help and -h: its usage on stdout, exit 0`, async () => {
        for (const args of [
          [...command, '--help'],
          [...command, '-h'],
          // Wherever it stands, even where a flag's value was expected.
          ...(command.length === 2 ? [[...command, '--workspace', '--help']] : []),
        ]) {
          const result = run(args);
          assert.deepEqual({ status: result.status, stderr: result.stderr }, { status: 0, stderr: '' }, args.join(' '));
          assert.match(result.stdout, usage, args.join(' '));
        }
        await assertUntouched();
      });
    }

    it('the top-level help promises `COMMAND --help` and lists every command', () => {
      const result = run(['--help']);
      assert.equal(result.status, 0);
      assert.match(result.stdout, /`COMMAND --help` shows one command/);
      for (const [command] of COMMANDS) assert.match(result.stdout, new RegExp(`privacyctl ${command.join(' ')}`));
    });

    it('an unknown option, a missing value, a value on a switch: exit 2, our message with balanced quotes, usage', async () => {
      for (const [args, message] of [
        [['token', 'create', '--frobnicate'], "privacyctl token: unknown option '--frobnicate'"],
        [['token', 'create', '-z'], "privacyctl token: unknown option '-z'"],
        [['token', 'list', '--json=yes'], 'privacyctl token: --json takes no value'],
        [['policy', 'get', '--workspace'], 'privacyctl policy: --workspace needs a value'],
        [
          ['policy', 'get', '--workspace', '-acme'],
          "privacyctl policy: --workspace needs a value (for one that starts with '-', write --workspace=VALUE)",
        ],
        [['audit', 'verify', '--fast'], "privacyctl audit: unknown option '--fast'"],
        [['migrate', '--dry-run'], "privacyctl migrate: unknown option '--dry-run'"],
      ] as const) {
        const result = run([...args]);
        assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.equal(result.stdout, '');
        const [first] = result.stderr.split('\n');
        assert.equal(first, message);
        assertBalancedQuotes(first ?? '');
        assert.match(result.stderr, /\nusage: privacyctl /);
      }
      await assertUntouched();
    });

    it('after `--`, --help is a value, not a request for help', () => {
      const result = run(['token', 'revoke', '--', '--help']);
      assert.notEqual(result.status, 0);
      assert.doesNotMatch(result.stdout, /usage:/);
    });
  });
}
