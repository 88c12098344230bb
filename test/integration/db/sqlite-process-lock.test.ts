/**
 * One long-running process per SQLite file (issue 11 item 1, docs/decisions.md): beside a running
 * `serve`, a `privacyctl worker` and a second `serve` on the same SQLite file are refused (exit 1,
 * a message that says why and what to do) instead of meeting the server in SQLite's synchronous
 * busy handler; one-shot admin commands still run; once the server is gone a worker starts.
 * On PostgreSQL the same processes all run side by side.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { type TestDatabase, dialects } from '../../helpers/databases.js';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';
import { type ServiceProcess, spawnService, startService, waitUntilServing } from '../../helpers/service-process.js';

const REFUSAL =
  /is used by another serve or worker process \(pid \d+\?\); SQLite takes one such process per file .*run several processes on PostgreSQL/;

/** A started `privacyctl worker`, its output, and how it ended. */
function spawnWorker(bin: string, url: string) {
  const child: ChildProcess = spawn(process.execPath, [bin, 'worker'], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'info', WORKER_POLL_MS: '50' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? '?')));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Resolves once the worker logged that it started; rejects if it exits first. */
async function started(worker: ReturnType<typeof spawnWorker>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!worker.output().stdout.includes('worker started')) {
    if (worker.child.exitCode !== null) assert.fail(`worker exited ${worker.child.exitCode}: ${worker.output().stderr}`);
    assert.ok(Date.now() < deadline, 'worker did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('one serve or worker process per SQLite file', () => {
  let cli: BuiltCli;
  before(() => {
    cli = buildPrivacyctl();
  });
  after(() => cli?.remove());

  for (const dialect of dialects()) {
    describe(dialect.name, () => {
      let database: TestDatabase;
      const services: ServiceProcess[] = [];
      const workers: ChildProcess[] = [];
      before(async () => {
        database = await dialect.create();
      });
      after(async () => {
        for (const s of services) s.kill();
        for (const w of workers) w.kill('SIGKILL');
        await Promise.all(services.map((s) => s.exited));
        await database.drop();
      });

      it(
        'refuses a second serve or worker on SQLite (exit 1, clear message); PostgreSQL runs them all',
        { timeout: 120_000 },
        async () => {
          const env = { DATABASE_URL: database.url, WORKER_POLL_MS: '50' };
          const first = await startService(cli.bin, env);
          services.push(first);
          const pid = String(first.child.pid);

          const worker = spawnWorker(cli.bin, database.url);
          workers.push(worker.child);
          const second = await spawnService(cli.bin, env);
          services.push(second);
          if (dialect.name === 'sqlite') {
            assert.equal(await worker.exited, 1);
            assert.match(worker.output().stderr, REFUSAL);
            assert.ok(worker.output().stderr.includes(`(pid ${pid}?)`), worker.output().stderr);
            assert.equal(await second.exited, 1);
            assert.match(second.output().stderr, REFUSAL);
          } else {
            await started(worker);
            await waitUntilServing(second);
          }

          // One-shot admin commands run beside the server on both databases.
          const token = cli.run(env, ['token', 'create', '--workspace', 'acme', '--scope', 'privacy:read']);
          assert.equal(token.status, 0, token.stderr);
          assert.equal((await fetch(`${first.url}/healthz`)).status, 200);

          for (const s of services) s.child.kill('SIGTERM');
          assert.equal(await first.exited, 0);
          if (dialect.name === 'postgres') {
            worker.child.kill('SIGTERM');
            assert.equal(await worker.exited, 0, worker.output().stderr);
            assert.equal(await second.exited, 0, second.output().stderr);
          }
          // The lock goes with the process that held it: now a worker starts on the SQLite file too.
          const next = spawnWorker(cli.bin, database.url);
          workers.push(next.child);
          await started(next);
          // Also when it dies without a word (SIGKILL): the OS releases the lock.
          next.child.kill('SIGKILL');
          await next.exited;
          const last = spawnWorker(cli.bin, database.url);
          workers.push(last.child);
          await started(last);
          last.child.kill('SIGTERM');
          assert.equal(await last.exited, 0, last.output().stderr);
        },
      );
    });
  }
});
