/**
 * privacyctl (PRODUCT.md §3), run as an operator runs it: the built bin/privacyctl.js in a child
 * process, on a real database (SQLite always; PostgreSQL when TEST_DATABASE_URL is set).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../../src/config.js';
import { createDatabase } from '../../../src/db/database.js';
import type { Principal } from '../../../src/modules/principals/principal.js';
import { openServices } from '../../../src/services.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** The built bin/privacyctl.js (a private build, or the one `npm test` made for the run). */
let bin: string;
let built: BuiltCli;

interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

function runBin(script: string, env: Record<string, string>, args: string[]): CliResult {
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** What the service makes of a token, read through its own connection. */
async function authenticate(url: string, token: string): Promise<Principal | null> {
  const database = createDatabase(url);
  try {
    return await (await openServices({ config: loadConfig({ DATABASE_URL: url }), database })).tokens.authenticate(token);
  } finally {
    await database.close();
  }
}

before(() => {
  built = buildPrivacyctl();
  bin = built.bin;
});
after(() => built.remove());

describe('privacyctl without a database', () => {
  const cli = (...args: string[]) => runBin(bin, {}, args);

  it('prints usage for help and --help, exit 0', () => {
    for (const args of [['help'], ['--help'], ['token', '--help']]) {
      const result = cli(...args);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /privacyctl token create --workspace/);
    }
  });

  it('exits 2 with a usage line for a missing or unknown command', () => {
    for (const args of [[], ['frobnicate'], ['token'], ['token', 'rotate'], ['integration']]) {
      const result = cli(...args);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /usage: privacyctl /);
      assert.equal(result.stdout, '');
    }
  });

  it('exits 2 for bad usage of worker and audit', () => {
    for (const args of [['worker', 'extra'], ['audit'], ['audit', 'rewrite']]) {
      const result = cli(...args);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /usage: privacyctl /);
    }
  });

  it('exits 2 naming the variable when the configuration is invalid', () => {
    const result = runBin(bin, { DATABASE_URL: 'mysql://db/x' }, ['token', 'list']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /DATABASE_URL must be/);
  });

  it('says so when dist is missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'privacyctl-unbuilt-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(bin, join(dir, 'bin', 'privacyctl.js'));
      const result = runBin(join(dir, 'bin', 'privacyctl.js'), {}, ['migrate']);
      assert.deepEqual(result, { status: 1, stdout: '', stderr: 'privacyctl: not built; run npm run build\n' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const dialect of dialects()) {
  describe(`privacyctl on ${dialect.name}`, () => {
    let database: TestDatabase;
    const cli = (...args: string[]) => runBin(bin, { DATABASE_URL: database.url }, args);
    const createToken = (...args: string[]) => {
      const result = cli('token', 'create', ...args);
      assert.equal(result.status, 0, result.stderr);
      return result.stdout;
    };

    before(async () => {
      database = await dialect.create();
    });
    after(async () => {
      await database.drop();
    });

    it('migrate applies the migrations, then is up to date', () => {
      const first = cli('migrate');
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stdout, /^applied \S+/);
      assert.deepEqual(cli('migrate'), { status: 0, stdout: 'up to date\n', stderr: '' });
    });

    it('token create prints exactly one pcs_ line, and that token authenticates', async () => {
      const stdout = createToken(
        '--workspace',
        'acme',
        '--workspace',
        'globex',
        '--scope',
        'privacy:read',
        '--scope',
        'policy:write',
        '--name',
        'ci',
      );
      assert.match(stdout, /^pcs_[A-Za-z0-9_-]{43}\n$/);
      const principal = await authenticate(database.url, stdout.trim());
      assert.ok(principal);
      assert.deepEqual([...principal.scopes], ['privacy:read', 'policy:write']);
      assert.deepEqual(principal.workspaces, new Set(['acme', 'globex']));
      const all = await authenticate(database.url, createToken('--workspace', '*', '--scope', 'admin').trim());
      assert.equal(all?.workspaces, '*');
    });

    it('token list shows the token without its secret; revoke makes it fail to authenticate', async () => {
      const token = createToken('--workspace', 'acme', '--scope', 'admin', '--name', 'to-revoke').trim();
      const table = cli('token', 'list');
      assert.equal(table.status, 0, table.stderr);
      assert.match(table.stdout, /^ID\s+NAME\s+SCOPES\s+WORKSPACES\s+CREATED\s+REVOKED\n/);
      assert.match(table.stdout, /to-revoke\s+admin\s+acme/);
      const listed = cli('token', 'list', '--json');
      assert.equal(listed.status, 0, listed.stderr);
      assert.ok(!table.stdout.includes('pcs_') && !listed.stdout.includes('pcs_'), 'no secret in the listing');
      const entry = (JSON.parse(listed.stdout) as { id: string; name: string }[]).find((t) => t.name === 'to-revoke');
      assert.ok(entry);
      assert.deepEqual(Object.keys(entry).sort(), ['created_at', 'id', 'name', 'revoked_at', 'scopes', 'systems', 'workspaces']);
      assert.equal((entry as { systems?: unknown }).systems, null, 'not limited to data systems');

      assert.deepEqual(cli('token', 'revoke', entry.id), { status: 0, stdout: `revoked ${entry.id}\n`, stderr: '' });
      assert.equal(await authenticate(database.url, token), null);
      const again = cli('token', 'revoke', entry.id);
      assert.equal(again.status, 1);
      assert.match(again.stderr, new RegExp(`no active token ${entry.id}`));
    });

    it('bad usage exits 2 with a usage line and prints no token', () => {
      for (const args of [
        ['token', 'create', '--scope', 'admin'],
        ['token', 'create', '--workspace', 'acme'],
        ['token', 'create', '--workspace', 'acme', '--scope', 'admin', '--colour', 'red'],
        ['token', 'create', '--workspace', 'acme', '--scope'],
        ['token', 'revoke'],
        ['policy', 'get'],
        ['policy', 'set', '--workspace', 'acme'],
        ['migrate', 'now'],
      ]) {
        const result = cli(...args);
        assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, /usage: privacyctl /);
        assert.equal(result.stdout, '');
      }
    });

    it('an unknown scope exits 2 naming the valid scopes', () => {
      const result = cli('token', 'create', '--workspace', 'acme', '--scope', 'privacy:everything');
      assert.equal(result.status, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /privacy:everything/);
      assert.match(result.stderr, /privacy:write, privacy:read, policy:read, policy:write, tasks:write, admin/);
    });

    it('policy set writes layers; policy get shows the stricter-wins merge', () => {
      const workspace = cli('policy', 'set', '--workspace', 'acme', '--json', '{"retention_days": 30, "regulations": ["gdpr"]}');
      assert.equal(workspace.status, 0, workspace.stderr);
      assert.equal(JSON.parse(workspace.stdout).repository, null);
      const repository = cli(
        'policy',
        'set',
        '--workspace',
        'acme',
        '--repository',
        'Octo/App',
        '--json',
        '{"retention_days": 60, "regulations": ["ccpa"], "require_approval": true}',
      );
      assert.equal(repository.status, 0, repository.stderr);

      const got = cli('policy', 'get', '--workspace', 'acme', '--repository', 'octo/app');
      assert.equal(got.status, 0, got.stderr);
      const effective = JSON.parse(got.stdout);
      assert.equal(effective.policy.retention_days, 30);
      assert.deepEqual(effective.policy.regulations, ['gdpr', 'ccpa']);
      assert.equal(effective.policy.require_approval, true);
      assert.equal(effective.sources.retention_days, 'workspace');
      assert.equal(effective.sources.require_approval, 'repository');

      const workspaceOnly = JSON.parse(cli('policy', 'get', '--workspace', 'acme').stdout);
      assert.equal(workspaceOnly.policy.require_approval, false);
    });

    it('policy set validates as the API does: exit 2 with each loc: msg, nothing written', () => {
      const zero = cli('policy', 'set', '--workspace', 'zero', '--json', '{"retention_days": 0}');
      assert.equal(zero.status, 2);
      assert.match(zero.stderr, /body\.retention_days: Input should be greater than or equal to 1/);
      const several = cli('policy', 'set', '--workspace', 'zero', '--json', '{"retention_days": 5.0, "author_identity": "anon"}');
      assert.equal(several.status, 2);
      assert.match(several.stderr, /body\.retention_days: Input should be a valid integer/);
      assert.match(several.stderr, /body\.author_identity: Input should be 'full', 'pseudonymous' or 'none'/);
      const malformed = cli('policy', 'set', '--workspace', 'zero', '--json', '{"retention_days": ');
      assert.equal(malformed.status, 2);
      assert.match(malformed.stderr, /not valid JSON/);
      assert.match(JSON.parse(cli('policy', 'get', '--workspace', 'zero').stdout).version, /\.w0\.r0$/);
    });

    it('policy set refuses unknown fields and empty or duplicated sets (exit 2): a typo changes nothing', () => {
      const before = JSON.parse(cli('policy', 'get', '--workspace', 'acme').stdout);
      assert.equal(before.policy.retention_days, 30);
      const typo = cli('policy', 'set', '--workspace', 'acme', '--json', '{"retension_days":7}');
      assert.equal(typo.status, 2, typo.stdout);
      assert.equal(typo.stdout, '');
      assert.match(typo.stderr, /body\.retension_days: Extra inputs are not permitted/);
      const sets = cli('policy', 'set', '--workspace', 'acme', '--json', '{"regulations":[],"excluded_paths":["a","a"]}');
      assert.equal(sets.status, 2, sets.stdout);
      assert.match(sets.stderr, /body\.excluded_paths: List should have unique items/);
      assert.match(sets.stderr, /body\.regulations: List should have at least 1 item after validation, not 0/);
      const after = JSON.parse(cli('policy', 'get', '--workspace', 'acme').stdout);
      assert.equal(after.version, before.version);
      assert.deepEqual(after.policy, before.policy);
    });
  });
}
