/**
 * Commands that only read never create or migrate a database (issue 11 item 14): `audit verify`
 * on a path that does not exist used to create the folder and an empty database and report
 * "intact: 0 entries", exit 0. Run as the operator runs them (the built bin, a child process).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase } from '../../../src/db/database.js';
import { type BuiltCli, buildPrivacyctl, words } from '../../helpers/privacyctl.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const READ_ONLY_COMMANDS = ['audit verify', 'token list', 'policy get --workspace acme', 'integration list'];

/** The tables a database holds (SQLite: the file's; PostgreSQL: the URL's schema). */
async function tableCount(url: string): Promise<number> {
  const database = createDatabase(url);
  try {
    const query =
      database.dialect === 'sqlite'
        ? sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table'`
        : sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = current_schema()`;
    return Number((await query.execute(database.db)).rows[0]?.n);
  } finally {
    await database.close();
  }
}

describe('read-only commands on a database that does not exist', () => {
  let cli: BuiltCli;
  let dir: string;
  before(() => {
    cli = buildPrivacyctl();
    dir = mkdtempSync(join(tmpdir(), 'cli-missing-'));
  });
  after(() => {
    cli.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const command of READ_ONLY_COMMANDS) {
    it(`${command}: exit 1 naming the missing file, nothing created`, () => {
      const missing = join(dir, 'nonexistent', 'dir', 'x.db');
      const result = cli.run({ DATABASE_URL: `sqlite:${missing}` }, words(command));
      assert.equal(result.status, 1, result.stdout + result.stderr);
      assert.match(result.stderr, /does not exist/);
      assert.equal(result.stdout, '');
      assert.equal(existsSync(join(dir, 'nonexistent')), false, 'no folder created');
    });
  }
});

for (const dialect of dialects()) {
  describe(`read-only commands on a database never migrated (${dialect.name})`, () => {
    let cli: BuiltCli;
    let database: TestDatabase;
    before(async () => {
      cli = buildPrivacyctl();
      database = await dialect.create();
      // An existing but empty database: SQLite's file made by opening it, PostgreSQL's schema.
      await createDatabase(database.url).close();
    });
    after(async () => {
      cli.remove();
      await database.drop();
    });

    it('refuses each with exit 1 and creates no table; after migrate, audit verify passes', async () => {
      for (const command of READ_ONLY_COMMANDS) {
        const result = cli.run({ DATABASE_URL: database.url }, words(command));
        assert.equal(result.status, 1, `${command}: ${result.stdout}${result.stderr}`);
        assert.match(result.stderr, /never migrated/, command);
      }
      assert.equal(await tableCount(database.url), 0, 'no table created');
      assert.equal(cli.run({ DATABASE_URL: database.url }, ['migrate']).status, 0);
      const verified = cli.run({ DATABASE_URL: database.url }, words('audit verify'));
      assert.equal(verified.status, 0, verified.stderr);
      assert.match(verified.stdout, /audit chain intact/);
    });
  });
}
