/**
 * SQLite on a read-only or a full disk (issue #5 item 4), with the real service as a child
 * process. Read-only: a read-only bind mount of the database's folder (root ignores chmod) → the
 * service exits 1 with one clear line on stderr and the file is unchanged and intact. Full disk:
 * a size-capped tmpfs filled while the service runs → writes answer 503 + Retry-After with a
 * sentence, reads keep working, nothing half-written, and after space is freed writes work again
 * without a restart; `PRAGMA integrity_check` is ok at the end.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { createDatabase } from '../../src/db/database.js';
import { type BuiltCli, buildPrivacyctl } from '../helpers/privacyctl.js';
import { call, type ServiceProcess, spawnService, startService } from '../helpers/service-process.js';
import { type CreateAttempt, createAttempt, type Outcome, readPolicy, sendCreate } from './fault-load.js';
import { bindReadOnly, type Mounted, mountSkipReason, mountTmpfs } from './mounts.js';
import { assertRetries, checkCreates } from './request-records.js';

const SCOPES = ['--scope', 'privacy:write', '--scope', 'privacy:read', '--scope', 'policy:read'];

function integrity(path: string): string {
  const sqlite = new SQLite(path, { readonly: true });
  try {
    return sqlite.pragma('integrity_check', { simple: true }) as string;
  } finally {
    sqlite.close();
  }
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Writes zeros into `path` until the file system is full (ENOSPC). */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

describe('SQLite storage faults', { skip: mountSkipReason() }, () => {
  let cli: BuiltCli;
  const cleanups: (() => void)[] = [];
  before(() => {
    cli = buildPrivacyctl();
  });
  after(() => {
    for (const cleanup of cleanups.reverse()) cleanup();
    cli?.remove();
  });

  /** Two ways a database becomes read-only for root: a read-only mount of its folder, an immutable file. */
  const readOnlyWays: { name: string; apply(dir: string): { path: string; undo(): void } }[] = [
    {
      name: 'a read-only mount of its folder',
      apply(dir) {
        const mounted: Mounted = bindReadOnly(dir);
        return { path: join(mounted.dir, 'privacy.db'), undo: () => mounted.unmount() };
      },
    },
    {
      name: 'an immutable file (chattr +i)',
      apply(dir) {
        const file = join(dir, 'privacy.db');
        const set = spawnSync('chattr', ['+i', file], { encoding: 'utf8' });
        assert.equal(set.status, 0, `chattr +i failed: ${set.stderr}`);
        return { path: file, undo: () => void spawnSync('chattr', ['-i', file]) };
      },
    },
  ];

  for (const way of readOnlyWays) {
    it(`refuses to start on ${way.name} with one clear line, leaving the file intact`, { timeout: 120_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'fault-sqlite-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const file = join(dir, 'privacy.db');
      const token = cli.run({ DATABASE_URL: `sqlite:${file}` }, ['token', 'create', '--workspace', 'acme', ...SCOPES]);
      assert.equal(token.status, 0, token.stderr);
      const before = { files: readdirSync(dir).sort(), hash: sha256(file) };
      const readOnly = way.apply(dir);
      cleanups.push(() => readOnly.undo());

      const service = await spawnService(cli.bin, { DATABASE_URL: `sqlite:${readOnly.path}` });
      cleanups.push(() => service.kill());
      const hung = new Promise((resolve) => setTimeout(() => resolve('hung'), 60_000).unref());
      const code = await Promise.race([service.exited, hung]);
      assert.equal(code, 1, `exit ${String(code)}`);
      const lines = service.output().stderr.trim().split('\n');
      assert.equal(lines.length, 1, `stderr:\n${service.output().stderr}`);
      assert.match(lines[0] ?? '', /cannot open SQLite database .*privacy\.db for writing .*must be writable/);
      readOnly.undo();
      // In a writable folder SQLite may leave its (empty) -wal and -shm files beside the file.
      const added = readdirSync(dir).filter((f) => !before.files.includes(f));
      for (const f of added) assert.match(f, /^privacy\.db-(wal|shm)$/, `${f} appeared`);
      if (added.includes('privacy.db-wal')) assert.equal(statSync(join(dir, 'privacy.db-wal')).size, 0, 'the WAL holds writes');
      assert.ok(
        before.files.every((f) => readdirSync(dir).includes(f)),
        'a file vanished',
      );
      assert.equal(sha256(file), before.hash, 'the database file changed');
      assert.equal(integrity(file), 'ok');
    });
  }

  it(
    'answers 503 for writes on a full disk, keeps reading, and recovers when space is freed',
    { timeout: 180_000 },
    async (t) => {
      const disk = mountTmpfs('8m');
      cleanups.push(() => disk.unmount());
      const file = join(disk.dir, 'privacy.db');
      const url = `sqlite:${file}`;
      const service: ServiceProcess = await startService(cli.bin, { DATABASE_URL: url, WORKER_IN_SERVER: 'false' });
      cleanups.push(() => service.kill());
      const token = cli.run({ DATABASE_URL: url }, ['token', 'create', '--workspace', 'acme', ...SCOPES]);
      assert.equal(token.status, 0, token.stderr);
      const auth = `Bearer ${token.stdout.trim()}`;
      const outcomes: Outcome[] = [];
      let n = 0;
      const create = async (phase: string) => {
        const attempt: CreateAttempt = createAttempt('disk', n++);
        const answer = await sendCreate(service.url, auth, attempt);
        outcomes.push({ kind: 'create', attempt, answer, error: null, startPhase: phase, endPhase: phase });
        return answer;
      };

      for (let i = 0; i < 10; i++) assert.equal((await create('space')).status, 202);
      const stored = (outcomes[0]?.answer?.body as { id: string }).id;
      const filler = join(disk.dir, 'filler');
      fillDisk(filler);
      // Writes may still fit into WAL space SQLite already holds; keep writing until the disk says no.
      let first = await create('full');
      for (let i = 0; i < 2000 && first.status === 202; i++) first = await create('full');
      const full = [first];
      for (let i = 0; i < 5; i++) full.push(await create('full'));
      for (const answer of full) {
        assert.equal(answer.status, 503, JSON.stringify(answer.body));
        assert.match(answer.retryAfter ?? '', /^\d+$/);
        assert.match((answer.body as { detail: string }).detail, /storage full or read-only/);
      }
      const read = await call(`${service.url}/api/v1/privacy/requests/${stored}`, { headers: { authorization: auth } });
      assert.equal(read.status, 200, 'reading a stored request on a full disk');
      assert.equal((await readPolicy(service.url, auth)).status, 200, 'reading the effective policy on a full disk');
      assert.equal((await call(`${service.url}/healthz`)).status, 200);

      rmSync(filler);
      let again = await create('freed');
      for (let i = 0; i < 100 && again.status !== 202; i++) again = await create('freed');
      assert.equal(again.status, 202, 'writes did not recover after space was freed');
      for (let i = 0; i < 5; i++) assert.equal((await create('freed')).status, 202);

      const database = createDatabase(url);
      try {
        const check = await checkCreates(database.db, outcomes);
        t.diagnostic(
          `creates: ${check.complete.length} stored, ${check.absent.length} absent, ${check.orphanClaims.length} orphan claims`,
        );
        // The key's record is written in the create's own transaction: no claim outlives a failure.
        assert.deepEqual(check.orphanClaims, [], 'a failed create left an in-flight Idempotency-Key claim');
        await assertRetries(service.url, auth, check);
      } finally {
        await database.close();
      }
      service.child.kill('SIGTERM');
      assert.equal(await service.exited, 0);
      assert.equal(integrity(file), 'ok');
    },
  );
});
