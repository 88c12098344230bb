/**
 * `/readyz` tells a database that cannot take writes from one that can (issue 11 item 12):
 * SQLite whose folder was remounted read-only under the running service, and PostgreSQL whose
 * session is read-only (`default_transaction_read_only`, as on a hot standby). `/healthz` stays 200.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { createDatabase } from '../../src/db/database.js';
import { createMetrics } from '../../src/metrics.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';
import { mountSkipReason } from './mounts.js';

function mount(args: string[]): void {
  const result = spawnSync('mount', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`mount ${args.join(' ')} failed: ${result.stderr}`);
}

/** Remounts `dir` read-only in place (a bind mount over itself): open files stay open, new writes fail. */
function remountReadOnly(dir: string): () => void {
  mount(['--bind', dir, dir]);
  mount(['-o', 'remount,ro,bind', dir]);
  return () => void spawnSync('umount', [dir]);
}

/** The same PostgreSQL URL with every session read-only. */
function readOnlyUrl(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `${parsed.searchParams.get('options') ?? ''} -c default_transaction_read_only=on`.trim());
  return parsed.toString();
}

for (const dialect of dialects()) {
  const skip = dialect.name === 'sqlite' ? mountSkipReason() : undefined;
  describe(`readiness of a database that cannot take writes (${dialect.name})`, { skip }, () => {
    let database: TestDatabase;
    let t: TestApp;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('answers /readyz 503 with Retry-After while writes cannot succeed, 200 again after', async () => {
      assert.equal((await t.app.inject('/readyz')).statusCode, 200);
      if (dialect.name === 'sqlite') {
        const undo = remountReadOnly(dirname(database.url.slice('sqlite:'.length)));
        try {
          const res = await t.app.inject('/readyz');
          assert.equal(res.statusCode, 503);
          assert.deepEqual(res.json(), { detail: 'Database is read-only or its disk is full' });
          assert.ok(res.headers['retry-after']);
          assert.equal((await t.app.inject('/healthz')).statusCode, 200);
        } finally {
          undo();
        }
        assert.equal((await t.app.inject('/readyz')).statusCode, 200);
        return;
      }
      // PostgreSQL: the same schema (migrated above) through sessions that are read-only. The
      // services' start writes (service keys), so only their database is swapped.
      const readOnly = createDatabase(readOnlyUrl(database.url));
      try {
        const services = { ...t.services, database: readOnly };
        const app = await buildApp({
          services,
          metrics: createMetrics({ db: readOnly.db, clock: services.clock }),
          logLevel: 'silent',
          bodyLimitBytes: 1024 * 1024,
        });
        const res = await app.inject('/readyz');
        assert.equal(res.statusCode, 503);
        assert.deepEqual(res.json(), { detail: 'Database is read-only or its disk is full' });
        assert.equal((await app.inject('/healthz')).statusCode, 200);
        await app.close();
      } finally {
        await readOnly.close();
      }
    });
  });
}
