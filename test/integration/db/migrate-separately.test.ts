/**
 * Migrations as a separate deploy step (docs/operations.md, "Running on many machines"): with
 * `MIGRATE_ON_START=false`, `serve`, `worker` and the admin commands refuse a schema that is
 * behind the release, change nothing, and start once `privacyctl migrate` has run.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { createDatabase } from '../../../src/db/database.js';
import { pendingMigrations, prepareSchema, SchemaNotCurrentError } from '../../../src/db/migrator.js';
import { migrations } from '../../../src/db/migrations/index.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';

describe('MIGRATE_ON_START', () => {
  let cli: BuiltCli;
  before(() => {
    cli = buildPrivacyctl();
  });
  after(() => cli.remove());

  it('is validated with the other variables', () => {
    assert.throws(() => loadConfig({ MIGRATE_ON_START: 'no' }), /MIGRATE_ON_START must be true or false/);
    assert.equal(loadConfig({}).migrateOnStart, true);
    assert.equal(loadConfig({ MIGRATE_ON_START: 'false' }).migrateOnStart, false);
  });

  for (const dialect of dialects()) {
    describe(dialect.name, () => {
      let database: TestDatabase;
      before(async () => {
        database = await dialect.create();
      });
      after(() => database.drop());

      it('prepareSchema(false) names every pending migration and creates nothing', async () => {
        const db = createDatabase(database.url);
        try {
          const error = await prepareSchema(db.db, false).then(
            () => null,
            (e: unknown) => e,
          );
          assert.ok(error instanceof SchemaNotCurrentError);
          assert.deepEqual(error.pending, Object.keys(migrations).sort());
          assert.match(error.message, /run `privacyctl migrate`/);
          // Read through the connection's own schema (PostgreSQL: the test's search_path); other
          // test files' schemas on the same database hold their own tables meanwhile.
          const created = await db.db
            .selectFrom('privacy_requests')
            .select('id')
            .limit(1)
            .execute()
            .then(
              () => true,
              () => false,
            );
          assert.equal(created, false, 'no table was created');
        } finally {
          await db.close();
        }
      });

      it('worker and token create refuse (exit 1, the reason on stderr) until `privacyctl migrate` ran', async () => {
        const env = { DATABASE_URL: database.url, MIGRATE_ON_START: 'false' };
        const token = cli.run(env, ['token', 'create', '--workspace', 'acme', '--scope', 'privacy:read']);
        assert.equal(token.status, 1);
        assert.match(token.stderr, /schema is not current: \d+ migration\(s\) pending; run `privacyctl migrate` first/);
        assert.equal(token.stdout, '');

        const worker = cli.run(env, ['worker']);
        assert.equal(worker.status, 1);
        assert.match(worker.stderr, /run `privacyctl migrate` first/);

        const migrate = cli.run({ DATABASE_URL: database.url }, ['migrate']);
        assert.equal(migrate.status, 0, migrate.stderr);
        const db = createDatabase(database.url);
        try {
          assert.deepEqual(await pendingMigrations(db.db), []);
        } finally {
          await db.close();
        }
        const created = cli.run(env, ['token', 'create', '--workspace', 'acme', '--scope', 'privacy:read']);
        assert.equal(created.status, 0, created.stderr);
        assert.match(created.stdout, /^pcs_/);
      });

      it('serve exits 1 on a schema behind the release, with one line on stderr', async () => {
        const fresh = await dialect.create();
        try {
          const child = spawn(process.execPath, [cli.bin, 'serve'], {
            env: { ...process.env, DATABASE_URL: fresh.url, MIGRATE_ON_START: 'false', PORT: '0', LOG_LEVEL: 'silent' },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let stderr = '';
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
          assert.equal(code, 1);
          assert.match(stderr, /run `privacyctl migrate` first/);
        } finally {
          await fresh.drop();
        }
      });
    });
  }
});
