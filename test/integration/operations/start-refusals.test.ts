/**
 * Starting the service, as a newcomer does it (issue 23, items 10 and 12), with real processes:
 * a second `npm start` refuses before building (its prestart check finds PORT taken); `serve` on
 * a port in use, and on a PostgreSQL that does not answer, exits 1 with one sentence naming
 * `PORT` / `DATABASE_URL` and never the URL; a start that works logs the console URL, the
 * database (no credential) and the worker. On both databases where one is used.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { lockSqliteFile } from '../../../src/db/sqlite-process-lock.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { freePort } from '../../helpers/free-port.js';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const PASSWORD = 'Sup3r-s3cret-pw';

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `command args` in the checkout with `env` over ours; resolves when it ends (killed after `timeoutMs`). */
function runProcess(command: string, args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<Ended> {
  const started = Date.now();
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    }),
  );
}

/** A listening TCP server on 127.0.0.1: the port a first service holds. */
async function holdPort(): Promise<{ server: Server; port: number }> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, port };
}

/** The test database's URL with a user's password in it (PostgreSQL trusts loopback here: it is ignored). */
function withPassword(url: string): string {
  if (url.startsWith('sqlite:')) return url;
  const parsed = new URL(url);
  parsed.password = PASSWORD;
  return parsed.toString();
}

let cli: BuiltCli;
let held: { server: Server; port: number };
before(async () => {
  cli = buildPrivacyctl();
  held = await holdPort();
});
after(async () => {
  cli?.remove();
  await new Promise((resolve) => held?.server.close(resolve));
});

describe('a second npm start', () => {
  it('refuses before building: the prestart check names PORT and exits 1 within seconds', async () => {
    const env = { HOST: '127.0.0.1', PORT: String(held.port) };
    const check = await runProcess(process.execPath, ['scripts/prestart-check.mjs'], env);
    assert.equal(check.code, 1);
    assert.equal(
      check.stderr,
      `npm start: PORT ${held.port} on 127.0.0.1 is already in use (is the service already running?); stop that process or set PORT to a free port\n`,
    );
    const free = await runProcess(process.execPath, ['scripts/prestart-check.mjs'], { ...env, PORT: String(await freePort()) });
    assert.deepEqual({ code: free.code, stderr: free.stderr }, { code: 0, stderr: '' });
    // The whole `npm start`: the check runs first and the build never starts.
    const start = await runProcess('npm', ['start'], env);
    assert.equal(start.code, 1, start.stderr);
    assert.match(start.stderr, new RegExp(`npm start: PORT ${held.port} on 127\\.0\\.0\\.1 is already in use`));
    assert.doesNotMatch(start.stdout, /privacy-request-service@[\d.]+ build/, 'npm start ran the build');
    assert.ok(start.ms < 30_000, `npm start took ${start.ms} ms to refuse`);
  });
});

describe('a second npm start on the same SQLite file', () => {
  it('refuses before building, on another PORT too: the prestart check names the file and the holder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'second-start-'));
    const path = join(dir, 'privacy.db');
    // What a running `npm start` holds on its file (src/db/sqlite-process-lock.ts).
    const lock = lockSqliteFile(path);
    try {
      const start = await runProcess('npm', ['start'], { DATABASE_URL: `sqlite:${path}`, PORT: String(await freePort()) });
      assert.equal(start.code, 1, start.stderr);
      assert.ok(
        start.stderr.startsWith(
          `npm start: ${path} (DATABASE_URL) is used by another serve or worker process (pid ${process.pid}?); `,
        ),
        start.stderr,
      );
      assert.doesNotMatch(start.stdout, /privacy-request-service@[\d.]+ build/, 'npm start ran the build');
    } finally {
      lock.release();
      rmSync(dir, { recursive: true, force: true });
    }
    // Released: the check lets a start through (the prestart step alone, not the whole start).
    const check = await runProcess(process.execPath, ['scripts/prestart-check.mjs'], {
      DATABASE_URL: `sqlite:${path}`,
      PORT: String(await freePort()),
    });
    assert.deepEqual({ code: check.code, stderr: check.stderr }, { code: 0, stderr: '' });
  });
});

describe('serve on an unreachable PostgreSQL', () => {
  it('exits 1 with one sentence naming DATABASE_URL, never the URL or its password', async () => {
    const port = await freePort();
    const url = `postgres://svc_user:${PASSWORD}@127.0.0.1:${port}/privacy`;
    const ended = await runProcess(process.execPath, [cli.bin, 'serve'], { DATABASE_URL: url, PORT: String(await freePort()) });
    assert.equal(ended.code, 1);
    assert.equal(
      ended.stderr,
      `privacyctl serve: cannot use the database of DATABASE_URL (postgres 127.0.0.1:${port}/privacy): the connection was refused; check DATABASE_URL and that PostgreSQL is running there\n`,
    );
    for (const secret of [PASSWORD, 'svc_user', 'postgres://'])
      assert.ok(!`${ended.stdout}${ended.stderr}`.includes(secret), secret);
  });
});

for (const dialect of dialects()) {
  describe(`serve at start (${dialect.name})`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await dialect.create();
    });
    after(async () => {
      await database.drop();
    });

    it('a port in use: exit 1 with one sentence naming PORT', async () => {
      const ended = await runProcess(process.execPath, [cli.bin, 'serve'], {
        DATABASE_URL: database.url,
        HOST: '127.0.0.1',
        PORT: String(held.port),
        LOG_LEVEL: 'warn',
      });
      assert.equal(ended.code, 1);
      assert.equal(
        ended.stderr,
        `privacyctl serve: PORT ${held.port} on 127.0.0.1 is already in use (is the service already running?); stop that process or set PORT to a free port\n`,
      );
    });

    it('a start that works names the console URL, the database without its password, and the worker', async () => {
      const port = await freePort();
      const child = spawn(process.execPath, [cli.bin, 'serve'], {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: withPassword(database.url),
          HOST: '127.0.0.1',
          PORT: String(port),
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        const deadline = Date.now() + 60_000;
        while (!output.includes('service ready') && Date.now() < deadline && child.exitCode === null)
          await new Promise((resolve) => setTimeout(resolve, 100));
        const line = output.split('\n').find((l) => l.includes('service ready'));
        assert.ok(line, `no start line in:\n${output}`);
        const { msg } = JSON.parse(line) as { msg: string };
        const place =
          dialect.name === 'sqlite'
            ? `sqlite ${database.url.slice('sqlite:'.length)}`
            : `postgres 127.0.0.1:5432/${new URL(database.url).pathname.slice(1)} (schema ${/search_path=(\w+)/.exec(decodeURIComponent(database.url))?.[1]})`;
        assert.equal(
          msg,
          `service ready: console http://127.0.0.1:${port}/console/, database ${place}, worker running in this process`,
        );
        const root302 = await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' });
        assert.equal(root302.status, 302);
        assert.equal(root302.headers.get('location'), '/console/');
        assert.ok(!output.includes(PASSWORD), 'the password is in the output');
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    });
  });
}
