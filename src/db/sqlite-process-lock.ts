import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import SQLite from 'better-sqlite3';

/**
 * Thrown when another long-running process (`serve` or `privacyctl worker`) holds the SQLite
 * file. Its message is meant for the operator as is.
 */
export class SqliteFileInUse extends Error {
  override name = 'SqliteFileInUse';
}

/** A held process lock; `release()` gives it back (the OS does too when the process dies). */
export interface ProcessLock {
  release(): void;
}

function readHolder(pidPath: string): string {
  try {
    const pid = readFileSync(pidPath, 'utf8').trim();
    return /^\d+$/.test(pid) ? pid : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Takes the exclusive per-file lock a long-running process (`serve`, `privacyctl worker`) needs
 * on a SQLite database: SQLite takes one such process per file (docs/decisions.md, "One
 * long-running process per SQLite file"). Two would meet in SQLite's busy handler, which
 * better-sqlite3 waits in synchronously: the other process's event loop (its HTTP requests, its
 * SIGTERM) would stop for up to `busy_timeout`.
 *
 * The lock is a write lock on a second, tiny SQLite database beside the file (`PATH.lock`, kept
 * in an open `BEGIN IMMEDIATE` transaction by its own connection, `busy_timeout` 0): a POSIX
 * record lock, so the OS releases it when the process ends, also by SIGKILL or a crash, and it
 * holds across processes on one host (SQLite's own locking, the one the data file relies on).
 * The holder's pid is written to `PATH.lock.pid`, only to name it in the refusal.
 * The data file itself is not locked: one-shot admin commands (`migrate`, `token create`,
 * `policy set`, …) still run beside the holder, their transactions being short.
 *
 * @param path - the database file (`sqlite:PATH` without the scheme); `:memory:` takes no lock.
 * @returns the lock; call `release()` after the database is closed.
 * @throws SqliteFileInUse when another process holds it (exit 1 for the caller).
 */
export function lockSqliteFile(path: string): ProcessLock {
  if (path === ':memory:' || path === '') return { release: () => undefined };
  const lockPath = `${path}.lock`;
  const pidPath = `${lockPath}.pid`;
  const connection = new SQLite(lockPath, { timeout: 0 });
  try {
    connection.exec('BEGIN IMMEDIATE');
  } catch (error) {
    connection.close();
    if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
    throw new SqliteFileInUse(
      `${path} is used by another serve or worker process (pid ${readHolder(pidPath)}?); ` +
        'SQLite takes one such process per file (run the worker inside serve, WORKER_IN_SERVER=true); ' +
        'run several processes on PostgreSQL',
    );
  }
  writeFileSync(pidPath, `${process.pid}\n`);
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      rmSync(pidPath, { force: true });
      connection.close();
    },
  };
}

/** {@link lockSqliteFile} for a `DATABASE_URL`: a SQLite URL is locked, any other takes no lock. */
export function lockDatabaseUrl(url: string): ProcessLock {
  return url.startsWith('sqlite:') ? lockSqliteFile(url.slice('sqlite:'.length)) : { release: () => undefined };
}
