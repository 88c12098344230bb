/**
 * An erasure leaves no copy in SQLite's WAL, even while another process reads (issue 11 item 4):
 * a reader holding an older snapshot makes the checkpoint busy; the worker retries it on timers
 * and reports the deletion complete only once the WAL is clean. On PostgreSQL the deletion
 * completes at once (no WAL file of ours to clean; docs/operations.md, "Erasure and storage").
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { addSources, fileRequest, requestRow, sendIdentityEvent, unique } from '../../helpers/subject-data.js';

/** Another process that opens the file and holds a read snapshot until told to let go. */
async function startReader(path: string): Promise<{ child: ChildProcess; release: () => Promise<void> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN');
    db.prepare('select count(*) from subjects').get();
    process.stdout.write('holding\\n');
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ['-e', script, path], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => (d.toString().includes('holding') ? resolve() : undefined));
    child.once('exit', (code) => reject(new Error(`reader exited ${code}`)));
  });
  return {
    child,
    release: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.write('release\n');
      await exited;
    },
  };
}

/** Whether `needle` (UTF-8) occurs in the file at `path` (absent file: false). */
const fileHolds = (path: string, needle: string) => existsSync(path) && readFileSync(path).includes(Buffer.from(needle, 'utf8'));

for (const dialect of dialects()) {
  describe(`erasure and the WAL (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let auth: string;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      auth = await t.bearer(['privacy:write', 'privacy:read'], ['*']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('completes a deletion only once no copy of the erased data remains', async () => {
      const s = await addSources(t, `ws-${unique()}`);
      const userId = `user_${unique()}`;
      const email = `walter.${unique()}@example.com`;
      const name = `Walter Wal-${unique()}`;
      await sendIdentityEvent(t, s, 'user.created', new Date().toISOString(), { user_id: userId, email, name });
      const id = await fileRequest(t, auth, {
        request_type: 'deletion',
        scope: ['user'],
        subject_provider: s.idp,
        subject_id: userId,
        workspace_id: s.workspace,
      });
      const worker = createWorker({
        database: t.services.database,
        clock: t.services.clock,
        log: pino({ level: 'silent' }),
        pseudonymKey: t.services.keys.pseudonymKey,
        handlers: REQUEST_HANDLERS,
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 },
      });

      if (dialect.name === 'postgres') {
        assert.equal(await worker.runOnce(), true);
        assert.equal((await requestRow(t, id)).status, 'completed');
        const left = await t.services.database.db.selectFrom('subjects').select('id').where('subject_id', '=', userId).execute();
        assert.deepEqual(left, [], 'no live row of the subject');
        return;
      }

      const path = database.url.slice('sqlite:'.length);
      const reader = await startReader(path);
      let released = false;
      try {
        const processing = worker.runOnce();
        // The erasure commits, but the reader's snapshot keeps the WAL busy: not complete yet.
        await new Promise((resolve) => setTimeout(resolve, 400));
        assert.notEqual((await requestRow(t, id)).status, 'completed', 'not complete while a copy may remain in the WAL');
        await reader.release();
        released = true;
        assert.equal(await processing, true);
      } finally {
        if (!released) await reader.release();
      }
      assert.equal((await requestRow(t, id)).status, 'completed');
      for (const file of [path, `${path}-wal`]) {
        assert.equal(fileHolds(file, email), false, `${file} still holds the e-mail address`);
        assert.equal(fileHolds(file, name), false, `${file} still holds the name`);
      }
      const report = await t.app.inject({ url: `/api/v1/privacy/requests/${id}/report`, headers: { authorization: auth } });
      assert.equal(report.statusCode, 200, report.body);
    });
  });
}
