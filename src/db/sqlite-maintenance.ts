/**
 * SQLite upkeep beside the connection that src/db/database.ts opens: the busy timeout, the WAL
 * checkpoint after erasures, the writability check of readiness, and planner statistics.
 */
import { constants as fsConstants } from 'node:fs';
import { access, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { DB } from './schema.js';

/** How long a SQLite statement waits for another process's lock, ms. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** `PRAGMA journal_size_limit`: the most WAL a checkpoint leaves on disk, bytes (64 MiB). */
export const SQLITE_JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * `PRAGMA wal_checkpoint(TRUNCATE)` with the busy timeout off for that one statement, holding the
 * connection so nothing of this process runs in between (see {@link Database.checkpoint}).
 * @returns true when SQLite reports the checkpoint not busy (every frame copied, WAL truncated).
 */
export async function truncateWal(db: Kysely<DB>): Promise<boolean> {
  return db.connection().execute(async (connection) => {
    await sql`PRAGMA busy_timeout = 0`.execute(connection);
    try {
      const { rows } = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(connection);
      return rows[0]?.busy === 0;
    } finally {
      await sql.raw(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`).execute(connection);
    }
  });
}

/** See {@link Database.writable}: the file and its folder (for `-wal`/`-shm`) writable, the disk not full. */
export async function sqliteWritable(path: string): Promise<boolean> {
  if (path === ':memory:') return true;
  try {
    await access(path, fsConstants.W_OK);
    await access(dirname(path), fsConstants.W_OK);
    return (await statfs(dirname(path))).bavail > 0;
  } catch {
    return false;
  }
}

/** How often a SQLite connection refreshes the planner's statistics ({@link keepPlannerStatistics}), ms: hourly. */
export const SQLITE_OPTIMIZE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Keeps SQLite's planner statistics (`sqlite_stat1`) current, as SQLite advises for long-lived
 * connections (sqlite.org/pragma.html#pragma_optimize): at open `PRAGMA optimize=0x10012` (every
 * table, not only those this connection queried, whose size changed 25-fold since it was last
 * analysed or that never was), then `PRAGMA optimize` every {@link SQLITE_OPTIMIZE_INTERVAL_MS}.
 * Both keep the 0x10 bit, SQLite's temporary analysis limit, so each takes milliseconds whatever
 * the file's size; `0x10002` without it ran a full ANALYZE, which holds the write lock for as
 * long as reading every index takes (bench/README.md, "Measured choices") and,
 * run by two processes opening at once, made one wait past `busy_timeout`. Without statistics
 * the planner guesses, and on a large database guessed wrong for indexed lookups of issue 5 (an
 * erasure took longer). The periodic run goes through Kysely, so it waits for the
 * connection and never runs inside another caller's transaction; a failure (the database busy
 * in another process) is left for the next run.
 * @returns a function that stops the periodic run.
 */
export function keepPlannerStatistics(sqlite: SQLite.Database, db: Kysely<DB>): () => void {
  try {
    sqlite.pragma('optimize=0x10012');
  } catch {
    // Statistics are an optimisation: a full disk or a busy database must not stop the start.
  }
  const timer = setInterval(() => {
    sql`PRAGMA optimize`.execute(db).catch(() => undefined);
  }, SQLITE_OPTIMIZE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
