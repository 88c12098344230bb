/**
 * `privacyctl integration add|list|remove` (PRODUCT.md §2.5, §3), run as an operator runs it: the
 * built bin/privacyctl.js in a child process, on SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { createDatabase } from '../../../src/db/database.js';
import { openServices } from '../../../src/services.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { type BuiltCli, buildPrivacyctl, type CliResult, words } from '../../helpers/privacyctl.js';

const GITHUB_SECRET = 'gh-cli-secret-4b1d9e77';
const STANDARD_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const BAD_SECRET = 'plainly not base64 !!';
const SECRETS = [GITHUB_SECRET, STANDARD_SECRET, BAD_SECRET];
const RESOURCE_KEYS = ['created_at', 'format', 'id', 'kind', 'namespace', 'subject_provider', 'webhook_path', 'workspace_id'];

/** `integration add` with the flags in `text` (space-separated) and then `rest`. */
const add = (text: string, ...rest: string[]) => words(`integration add ${text}`, ...rest);

/** Neither stream may carry a secret. */
function assertNoSecret(result: CliResult): void {
  const output = `${result.stdout}${result.stderr}`;
  for (const secret of SECRETS) assert.ok(!output.includes(secret), `output leaks a secret:\n${output}`);
}

/** Exit 2, nothing on stdout, the reason and the usage on stderr, no secret anywhere. */
function assertUsage(result: CliResult, reason: RegExp): void {
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, reason);
  assert.match(result.stderr, /usage: privacyctl integration add/);
  assertNoSecret(result);
}

/** Through the service's own connection: the secret as a delivery recovers it, and the audit trail. */
async function inspect(url: string, id: string) {
  const database = createDatabase(url);
  try {
    const services = await openServices({ config: loadConfig({ DATABASE_URL: url }), database });
    const target = await services.integrations.forDelivery('identity', { integrationId: id });
    const audit = await database.db
      .selectFrom('audit_events')
      .select(['action', 'actor', 'target_id'])
      .where('target_type', '=', 'integration')
      .orderBy('id')
      .execute();
    return { secret: target?.secret, audit };
  } finally {
    await database.close();
  }
}

let privacyctl: BuiltCli;
before(() => {
  privacyctl = buildPrivacyctl();
});
after(() => privacyctl.remove());

describe('privacyctl integration without a database', () => {
  it('documents both ways to pass the secret', () => {
    const help = privacyctl.run({}, ['integration', '--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(
      help.stdout,
      /^usage: privacyctl integration add --kind github\|gitlab\|identity --workspace W .*--secret S\|--secret-stdin$/m,
    );
    assert.match(help.stdout, /privacyctl integration list \[--workspace W\] \[--json\]/);
    assert.match(help.stdout, /privacyctl integration remove ID/);
    assert.match(privacyctl.run({}, ['help']).stdout, /--secret-stdin/);
  });

  it('exits 2 for a missing or unknown subcommand', () => {
    for (const args of [['integration'], ['integration', 'rotate']]) {
      const result = privacyctl.run({}, args);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /usage: privacyctl integration add/);
    }
  });

  it('checks the flags with the API schema before opening the database: exit 2 naming each flag', () => {
    // A database that refuses connections: a case that got as far as opening it would exit 1, not 2.
    const cli = (args: string[], input = '') =>
      privacyctl.run({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }, args, input);
    assert.equal(cli(['integration', 'list']).status, 1);
    const cases: [string[], RegExp][] = [
      [add('--workspace acme --namespace a --secret', GITHUB_SECRET), /--kind is required/],
      [add('--kind jira --workspace acme --secret', GITHUB_SECRET), /--kind: Input should be 'github', 'gitlab' or 'identity'/],
      [add('--kind github --namespace a --secret', GITHUB_SECRET), /--workspace is required/],
      [add('--kind github --workspace acme --namespace a'), /--secret or --secret-stdin is required/],
      [add('--kind github --workspace acme --namespace a --secret short'), /--secret: String should have at least 8 characters/],
      [
        add('--kind github --workspace acme --namespace n --secret-stdin --secret', GITHUB_SECRET),
        /either --secret or --secret-stdin/,
      ],
      [
        add('--kind identity --workspace acme --format okta --secret', STANDARD_SECRET),
        /--format: Input should be 'standard', 'clerk' or 'workos'/,
      ],
      [add('--kind github --workspace acme --namespace a --colour red --secret', GITHUB_SECRET), /unknown flag --colour/],
      [add('--kind github --workspace acme --namespace a extra --secret', GITHUB_SECRET), /unexpected argument 'extra'/],
      [words('integration list --workspace', ''), /--workspace must be 1–200 characters/],
      [words('integration remove'), /ID is required/],
      [words('integration remove int_a int_b'), /unexpected argument 'int_b'/],
    ];
    for (const [args, reason] of cases) assertUsage(cli(args), reason);
    const emptyStdin = cli(add('--kind gitlab --workspace acme --namespace g --secret-stdin'));
    assertUsage(emptyStdin, /--secret-stdin: String should have at least 8 characters/);
    // Every problem at once, as the API's 422 lists them; a repeated flag's last value counts.
    const several = cli(add('--kind github --kind x --secret y --workspace', ''));
    assertUsage(
      several,
      /invalid flags:\n {2}--kind: .*\n {2}--workspace: String should have at least 1 character\n {2}--secret: String should/,
    );
  });
});

for (const dialect of dialects()) {
  describe(`privacyctl integration on ${dialect.name}`, () => {
    let database: TestDatabase;
    const ids: Record<string, string> = {};
    const cli = (args: string[], input = '') => privacyctl.run({ DATABASE_URL: database.url }, args, input);
    const listed = () => {
      const result = cli(['integration', 'list', '--json']);
      assert.equal(result.status, 0, result.stderr);
      return (JSON.parse(result.stdout) as { id: string }[]).map((i) => i.id);
    };
    /** Runs a create that must succeed; returns the printed integration. */
    const created = (args: string[], input = '') => {
      const result = cli(args, input);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stderr, '');
      assertNoSecret(result);
      const body = JSON.parse(result.stdout);
      assert.deepEqual(Object.keys(body).sort(), RESOURCE_KEYS);
      assert.match(body.id, /^int_/);
      return body;
    };

    before(async () => {
      database = await dialect.create();
    });
    after(async () => {
      await database.drop();
    });

    it('add with --secret prints the integration as JSON, without the secret', () => {
      const body = created(add('--kind github --workspace acme --namespace Octo-Org --secret', GITHUB_SECRET));
      const shown = [body.kind, body.workspace_id, body.namespace, body.format, body.webhook_path];
      assert.deepEqual(shown, ['github', 'acme', 'octo-org', null, '/webhook/prhost']);
      ids.github = body.id;
    });

    it('add with --secret-stdin reads the secret from stdin, dropping the trailing newline', async () => {
      const args = add('--kind identity --workspace acme --format standard --subject-provider clerk --secret-stdin');
      const body = created(args, `${STANDARD_SECRET}\n`);
      const shown = [body.kind, body.namespace, body.format, body.subject_provider, body.webhook_path];
      // Issue 11: the path the docs tell users to configure, with ?integration=.
      assert.deepEqual(shown, ['identity', null, 'standard', 'clerk', `/webhook/identity?integration=${body.id}`]);
      ids.identity = body.id;
      assert.equal((await inspect(database.url, body.id)).secret, STANDARD_SECRET);
    });

    it('add for gitlab, in another workspace', () => {
      const body = created(
        add('--kind gitlab --workspace globex --namespace Platform/Backend --secret-stdin'),
        'gl-token-0123456789',
      );
      assert.deepEqual([body.namespace, body.webhook_path], ['platform/backend', '/webhook/mrhost']);
      ids.gitlab = body.id;
    });

    it('list shows them as a table or JSON, filtered by --workspace, never a secret', () => {
      const table = cli(['integration', 'list']);
      assert.equal(table.status, 0, table.stderr);
      assertNoSecret(table);
      assert.match(table.stdout, /^ID\s+KIND\s+WORKSPACE\s+NAMESPACE\s+FORMAT\s+SUBJECT_PROVIDER\s+WEBHOOK_PATH\s+CREATED\n/);
      assert.match(table.stdout, new RegExp(`${ids.github}\\s+github\\s+acme\\s+octo-org\\s+-\\s+-\\s+/webhook/prhost`));
      assert.match(
        table.stdout,
        new RegExp(`${ids.identity}\\s+identity\\s+acme\\s+-\\s+standard\\s+clerk\\s+/webhook/identity`),
      );
      assert.deepEqual(listed(), [ids.github, ids.identity, ids.gitlab]);
      const json = cli(words('integration list --workspace acme --json'));
      assertNoSecret(json);
      assert.ok(!json.stdout.includes('secret'));
      assert.deepEqual(
        (JSON.parse(json.stdout) as { id: string }[]).map((i) => i.id),
        [ids.github, ids.identity],
      );
      assert.deepEqual(JSON.parse(cli(words('integration list --workspace nobody --json')).stdout), []);
    });

    it('a namespace the workspace already has an integration of the kind for exits 1, in any case', () => {
      for (const namespace of ['octo-org', 'OCTO-ORG']) {
        const result = cli(add(`--kind github --workspace acme --namespace ${namespace} --secret`, GITHUB_SECRET));
        assert.equal(result.status, 1, result.stderr);
        assert.equal(result.stdout, '');
        assert.equal(
          result.stderr,
          'privacyctl integration: workspace acme already has an integration of kind github for namespace octo-org\n',
        );
      }
      assert.equal(listed().length, 3);
    });

    it('a field the kind needs, or an unusable secret, exits 2 naming the flag and writes nothing', () => {
      const cases: [string[], RegExp][] = [
        [add('--kind github --workspace acme --secret', GITHUB_SECRET), /--namespace is required for --kind github/],
        [
          add('--kind identity --workspace acme --subject-provider p --secret', STANDARD_SECRET),
          /--format is required for --kind identity/,
        ],
        [
          add('--kind identity --workspace acme --format clerk --secret', STANDARD_SECRET),
          /--subject-provider is required for --kind identity/,
        ],
        [
          add('--kind identity --workspace acme --format standard --subject-provider p --secret', BAD_SECRET),
          /--secret: Value error, .*base64/,
        ],
      ];
      for (const [args, reason] of cases) assertUsage(cli(args), reason);
      const stdin = cli(
        add('--kind identity --workspace acme --format clerk --subject-provider p --secret-stdin'),
        `${BAD_SECRET}\n`,
      );
      assertUsage(stdin, /--secret-stdin: Value error/);
      assert.equal(listed().length, 3);
    });

    it('remove deletes one integration and frees its namespace; an unknown id exits 1', async () => {
      const remove = () => cli(['integration', 'remove', ids.github ?? '']);
      assert.deepEqual(remove(), { status: 0, stdout: `removed ${ids.github}\n`, stderr: '' });
      assert.deepEqual(listed(), [ids.identity, ids.gitlab]);
      assert.deepEqual(remove(), { status: 1, stdout: '', stderr: `privacyctl integration: no integration ${ids.github}\n` });
      const again = created(add('--kind github --workspace acme --namespace octo-org --secret', GITHUB_SECRET));
      const { audit } = await inspect(database.url, ids.identity ?? '');
      assert.deepEqual(
        audit.map((e) => [e.action, e.actor, e.target_id]),
        [
          ['integration.created', 'cli', ids.github],
          ['integration.created', 'cli', ids.identity],
          ['integration.created', 'cli', ids.gitlab],
          ['integration.removed', 'cli', ids.github],
          ['integration.created', 'cli', again.id],
        ],
      );
    });
  });
}
