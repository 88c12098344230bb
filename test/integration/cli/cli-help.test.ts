/**
 * `--help` and `-h` on every privacyctl command and subcommand (issue 11, item 13), run as real
 * processes of the built CLI: usage on stdout, nothing on stderr, exit 0, and the database left
 * untouched (help never opens it). Unknown options exit 2 with a message whose quotes balance.
 * Issue 23, item 11: the help says what each form does and explains every flag of its usage
 * with its allowed values; an unknown flag names the nearest known one; `--workspace` is the one
 * spelling, the old `--workspace-id` still read with a note.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

/** Every command and subcommand, and the first usage line each must print. */
const COMMANDS: [args: string[], usage: RegExp][] = [
  [['migrate'], /^usage: privacyctl migrate\n\n/],
  [['serve'], /^usage: privacyctl serve\n\n/],
  [['worker'], /^usage: privacyctl worker\n\n/],
  [['token'], /^usage: privacyctl token create .*\n {7}privacyctl token list .*\n {7}privacyctl token revoke ID\n\n/],
  [['token', 'create'], /^usage: privacyctl token create --workspace W\|'\*' .*--scope S .*\n\n/],
  [['token', 'list'], /^usage: privacyctl token list \[--json\]\n\n/],
  [['token', 'revoke'], /^usage: privacyctl token revoke ID\n\n/],
  [['policy'], /^usage: privacyctl policy get .*\n {7}privacyctl policy set .*\n\n/],
  [['policy', 'get'], /^usage: privacyctl policy get --workspace W \[--repository R\]\n\n/],
  [['policy', 'set'], /^usage: privacyctl policy set --workspace W .*--json '\{…\}'\n\n/],
  [
    ['integration'],
    /^usage: privacyctl integration add .*\n {7}privacyctl integration list .*\n {7}privacyctl integration remove ID\n\n/,
  ],
  [['integration', 'add'], /^usage: privacyctl integration add --kind github\|gitlab\|identity .*\n\n/],
  [['integration', 'list'], /^usage: privacyctl integration list \[--workspace W\] \[--json\]\n\n/],
  [['integration', 'remove'], /^usage: privacyctl integration remove ID\n\n/],
  [['audit'], /^usage: privacyctl audit verify\n\n/],
  [['audit', 'verify'], /^usage: privacyctl audit verify\n\n/],
  [
    ['endpoint'],
    /^usage: privacyctl endpoint add .*\n {7}privacyctl endpoint list .*\n {7}privacyctl endpoint remove ID\n {7}privacyctl endpoint rotate ID\n\n/,
  ],
  [['endpoint', 'add'], /^usage: privacyctl endpoint add --workspace W --url URL .*\n\n/],
  [['system'], /^usage: privacyctl system add .*\n {7}privacyctl system list .*\n {7}privacyctl system remove ID\n\n/],
  [['system', 'add'], /^usage: privacyctl system add --workspace W --key K .*\n\n/],
  [['system', 'list'], /^usage: privacyctl system list \[--workspace W\] \[--json\]\n\n/],
  [
    ['drp'],
    /^usage: privacyctl drp agent add .*\n {7}privacyctl drp agent list .*\n {7}privacyctl drp agent remove ID\n {7}privacyctl drp directory-entry --workspace W\n\n/,
  ],
  [['drp', 'agent', 'add'], /^usage: privacyctl drp agent add --workspace W --agent-id A .*\n\n/],
  [['drp', 'agent', 'list'], /^usage: privacyctl drp agent list \[--workspace W\] \[--json\]\n\n/],
  [['drp', 'directory-entry'], /^usage: privacyctl drp directory-entry --workspace W\n\n/],
  [['dataset'], /^usage: privacyctl dataset generate .*\n\n/],
  [['dataset', 'generate'], /^usage: privacyctl dataset generate \(--url URL \| --url-stdin\) \[--schema S\]\n\n/],
];

/** Quotes in a message come in pairs (Node's own parseArgs message did not: `'-- "--x"`). */
function assertBalancedQuotes(text: string): void {
  for (const quote of ["'", '"']) assert.equal(text.split(quote).length % 2, 1, `unbalanced ${quote} in: ${text}`);
}

/**
 * The help under the usage says what each form of the usage does (`token create: …`) and
 * explains every flag the form names (`    --scope S   what it may do …`).
 */
function assertExplained(stdout: string, what: string): void {
  const [usage = '', help = ''] = stdout.split(/\n\n(.*)/s);
  const forms = usage.split('\n').map((line) => line.replace(/^(usage: | {7})privacyctl /, ''));
  for (const form of forms) {
    // The form's words before its flags and arguments: `token create`, `drp agent add`, `migrate`.
    const name = /^[a-z][a-z-]*(?: [a-z][a-z-]*)*/.exec(form)?.[0] ?? form;
    assert.match(help, new RegExp(`^${name}: \\w`, 'm'), `${what}: no summary for ${name}`);
    for (const flag of new Set(form.match(/--[a-z-]+/g) ?? []))
      // A long flag's meaning starts on the line under it.
      assert.match(help, new RegExp(`^ {4}${flag}\\b(.* \\S|\\n {28}\\S)`, 'm'), `${what}: ${flag} is not explained`);
  }
}

let cli: BuiltCli;
before(() => {
  cli = buildPrivacyctl();
});
after(() => cli?.remove());

// Help reads no database: each spelling of it runs once, `--help` against the first database and
// `-h` against the second (both when there is one), and each database is checked untouched; the
// checks of help texts that no database can change run once.
const [firstDialect, ...otherDialects] = dialects();
for (const dialect of dialects()) {
  const first = dialect === firstDialect;
  const spellings = otherDialects.length === 0 ? ['--help', '-h'] : first ? ['--help'] : ['-h'];
  /** A test of help texts alone: on the first database only. */
  const once = (name: string, fn: () => void | Promise<void>) => (first ? it(name, fn) : undefined);
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
      it(`${command.join(' ')} ${spellings.join(' and ')}: its usage on stdout, exit 0`, async () => {
        for (const args of [
          ...spellings.map((spelling) => [...command, spelling]),
          // Wherever it stands, even where a flag's value was expected.
          ...(command.length === 2 && first ? [[...command, '--workspace', '--help']] : []),
        ]) {
          const result = run(args);
          assert.deepEqual({ status: result.status, stderr: result.stderr }, { status: 0, stderr: '' }, args.join(' '));
          assert.match(result.stdout, usage, args.join(' '));
          assertExplained(result.stdout, args.join(' '));
        }
        await assertUntouched();
      });
    }

    once('COMMAND --help gives the allowed values: scopes, categories, request types, kinds, formats, event types', () => {
      const token = run(['token', 'create', '--help']).stdout;
      for (const scope of ['privacy:write', 'privacy:read', 'policy:read', 'policy:write', 'tasks:write', 'admin'])
        assert.ok(token.includes(scope), `token create --help lacks scope ${scope}`);
      const system = run(['system', 'add', '--help']).stdout.replace(/\s+/g, ' ');
      for (const value of ['user.contact.email', 'user.name', 'user.device.ip_address', 'access, export, correction, deletion'])
        assert.ok(system.includes(value), `system add --help lacks ${value}`);
      const integration = run(['integration', 'add', '--help']).stdout.replace(/\s+/g, ' ');
      for (const value of ['github, gitlab, identity', 'standard, clerk, workos']) assert.ok(integration.includes(value), value);
      assert.ok(run(['endpoint', 'add', '--help']).stdout.replace(/\s+/g, ' ').includes('data_task.created'));
    });

    it('--workspace everywhere; the old --workspace-id is read as it, with a one-line note on stderr', () => {
      for (const group of ['integration', 'endpoint', 'system']) {
        const usage = run([group, '--help']).stdout.split('\n\n')[0] ?? '';
        assert.doesNotMatch(usage, /--workspace-id/, group);
        // `list` reads only: the database does not exist, so both spellings reach the same refusal.
        const now = run([group, 'list', '--workspace', 'acme']);
        const old = run([group, 'list', '--workspace-id=acme']);
        assert.equal(old.status, now.status, group);
        // The same refusal past the note (its wording may differ: the first read-only run on a
        // fresh PostgreSQL schema finds no schema, later ones an unmigrated one).
        const note = 'note: --workspace-id is now --workspace (the old spelling still works)\n';
        assert.ok(old.stderr.startsWith(note), old.stderr);
        assert.equal(old.stderr.slice(note.length).split('\n')[0]?.startsWith(`privacyctl ${group}: `), true, old.stderr);
        assert.doesNotMatch(old.stderr, /unknown flag/);
      }
      // A flag's value is checked under its new name.
      const empty = run([
        'system',
        'add',
        '--workspace-id',
        '',
        '--key',
        'k',
        '--name',
        'n',
        '--categories',
        'user',
        '--request-types',
        'access',
      ]);
      assert.equal(empty.status, 2);
      assert.match(empty.stderr, /\n {2}--workspace: String should have at least 1 character\n/);
    });

    once('the top-level help promises `COMMAND --help` and lists every command', () => {
      const result = run(['--help']);
      assert.equal(result.status, 0);
      assert.match(result.stdout, /`COMMAND --help` shows one command/);
      for (const [command] of COMMANDS) assert.match(result.stdout, new RegExp(`privacyctl ${command.join(' ')}`));
    });

    it('an unknown option, a missing value, a value on a switch: exit 2, our message with balanced quotes, usage', async () => {
      for (const [args, message] of [
        [['token', 'create', '--frobnicate'], 'privacyctl token: unknown flag --frobnicate'],
        [['token', 'create', '-z'], 'privacyctl token: unknown flag -z'],
        [['token', 'create', '--workspce', 'acme'], 'privacyctl token: unknown flag --workspce; did you mean --workspace?'],
        [['system', 'list', '--jsno'], 'privacyctl system: unknown flag --jsno; did you mean --json?'],
        [['endpoint', 'add', '--work=acme'], 'privacyctl endpoint: unknown flag --work; did you mean --workspace?'],
        [
          ['integration', 'add', '--secret-stdn'],
          'privacyctl integration: unknown flag --secret-stdn; did you mean --secret-stdin?',
        ],
        [['token', 'list', '--json=yes'], 'privacyctl token: --json takes no value'],
        [['policy', 'get', '--workspace'], 'privacyctl policy: --workspace needs a value'],
        [
          ['policy', 'get', '--workspace', '-acme'],
          "privacyctl policy: --workspace needs a value (for one that starts with '-', write --workspace=VALUE)",
        ],
        [['audit', 'verify', '--fast'], 'privacyctl audit: unknown flag --fast'],
        [['migrate', '--dry-run'], 'privacyctl migrate: unknown flag --dry-run'],
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

    once('help, a usage error and dataset generate load neither the services nor the database layer', () => {
      // A module hook (its own thread) appends the URL of every module loaded to a file.
      const dir = mkdtempSync(join(tmpdir(), 'privacyctl-modules-'));
      const log = join(dir, 'loaded.txt');
      const hooks = `import { appendFileSync } from 'node:fs'; export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
      const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
      try {
        for (const args of [
          ['--help'],
          ['token', 'create', '--help'],
          ['system', 'add', '--frobnicate'],
          ['dataset', 'generate', '--url', 'http://x'],
        ]) {
          rmSync(log, { force: true });
          const result = spawnSync(
            process.execPath,
            ['--import', `data:text/javascript,${encodeURIComponent(register)}`, cli.bin, ...args],
            {
              encoding: 'utf8',
              env: { ...process.env, DATABASE_URL: database.url },
            },
          );
          assert.notEqual(result.status, 1, `${args.join(' ')}: ${result.stderr}`);
          const loaded = readFileSync(log, 'utf8').split('\n');
          assert.ok(
            loaded.some((url) => url.endsWith('/dist/cli/main.js')),
            `${args.join(' ')}: the hook saw no module`,
          );
          for (const heavy of ['/dist/services.js', '/dist/db/database.js', '/dist/modules/connectors/connectors.js'])
            assert.ok(!loaded.some((url) => url.endsWith(heavy)), `${args.join(' ')} loaded ${heavy}`);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    once('after `--`, --help is a value, not a request for help', () => {
      const result = run(['token', 'revoke', '--', '--help']);
      assert.notEqual(result.status, 0);
      assert.doesNotMatch(result.stdout, /usage:/);
    });
  });
}
