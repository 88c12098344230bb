import { PostgresAdapter, type SelectQueryBuilder } from 'kysely';
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
