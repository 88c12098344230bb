import { PostgresAdapter, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Executor } from './executor.js';

/** True when `db` talks to PostgreSQL. */
export function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Adds `FOR UPDATE` on PostgreSQL, so concurrent transactions on the row queue up. SQLite has no
 * row locks and needs none: it admits one writer at a time.
 */
export function forUpdate<DB, TB extends keyof DB, O>(
  db: Executor,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return isPostgres(db) ? query.forUpdate() : query;
}

/**
 * Adds `FOR UPDATE SKIP LOCKED` on PostgreSQL: a claim (a job, a batch of rows to sweep) skips
 * rows another transaction has claimed and not yet committed, so N processes claim different
 * rows without waiting for each other. SQLite admits one writer at a time and needs neither.
 */
export function skipLocked<DB, TB extends keyof DB, O>(
  db: Executor,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return isPostgres(db) ? query.forUpdate().skipLocked() : query;
}

/**
 * Takes a transaction-scoped lock on `key` without waiting: PostgreSQL
 * `pg_try_advisory_xact_lock(hashtextextended(key, 0))`, released at commit or rollback.
 * On SQLite the transaction already holds the one write lock, so this is always true.
 *
 * @returns false when another transaction holds the lock on the same key (a 64-bit hash of it;
 *   a collision only makes one caller answer "in flight" and retry).
 */
export async function tryLockKey(db: Executor, key: string): Promise<boolean> {
  if (!isPostgres(db)) return true;
  const { rows } = await sql<{ locked: boolean }>`select ${tryLockKeySql(key)} as locked`.execute(db);
  return rows[0]?.locked === true;
}

/**
 * PostgreSQL only: the expression {@link tryLockKey} runs, to fold the lock into another
 * statement (same key → same lock). `key` may be any value expression Kysely binds as a parameter.
 */
export function tryLockKeySql(key: unknown): RawBuilder<boolean> {
  return sql<boolean>`pg_try_advisory_xact_lock(hashtextextended(${key}::text, 0))`;
}
