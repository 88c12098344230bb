import { type Kysely, sql, type Transaction } from 'kysely';
import type { Executor } from './executor.js';
import { isPostgres } from './locking.js';
import type { DB } from './schema.js';

/*
 * A bound on one SQL statement per kind of work (issue 23 item 9; docs/operations.md, "Statement
 * timeout"): API sessions carry PG_STATEMENT_TIMEOUT_MS from the pool (db/database.ts),
 * migrations lift it for their session (db/migrator.ts), and sweeps set their own per
 * transaction here (PG_SWEEP_STATEMENT_TIMEOUT_MS), so a pooled session never keeps it: the next
 * borrower of the connection has the API's bound again, and PgBouncer's transaction pooling is fine.
 */

/**
 * Sets PostgreSQL's `statement_timeout` for the rest of transaction `tx` (`SET LOCAL`, through
 * `set_config(…, true)`): `timeoutMs` milliseconds, 0 for none. It ends with the transaction. On
 * SQLite, which has no statement timeout (a writer waits `busy_timeout`), it does nothing.
 */
export async function boundStatements(tx: Transaction<DB>, timeoutMs: number): Promise<void> {
  if (!isPostgres(tx)) return;
  await sql`select set_config('statement_timeout', ${String(Math.floor(timeoutMs))}, true)`.execute(tx);
}

/**
 * Runs `work` with each of its statements bounded by `timeoutMs` (0: none) instead of the pool's
 * bound: on PostgreSQL in a transaction of its own that starts with {@link boundStatements}, so its
 * statements commit together; on SQLite on `db` itself (no transaction is opened: `work` may read
 * through other services on the same connection meanwhile).
 *
 * @returns what `work` returns.
 * @throws whatever `work` throws; on PostgreSQL a statement over the bound fails with SQLSTATE
 *   57014 (query_canceled) and the transaction rolls back.
 */
export async function withStatementBound<T>(db: Kysely<DB>, timeoutMs: number, work: (db: Executor) => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return work(db);
  return db.transaction().execute(async (tx) => {
    await boundStatements(tx, timeoutMs);
    return work(tx);
  });
}
