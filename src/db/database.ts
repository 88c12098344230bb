import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { type DatabaseConnection, Kysely, PostgresDialect, PostgresDriver } from 'kysely';
import pg from 'pg';
import { ImmediateSqliteDialect } from './sqlite-dialect.js';
import { DatabaseMissingError } from './errors.js';
import { namedStatementPool } from './pg-named-statements.js';
import type { DB } from './schema.js';
import {
  keepPlannerStatistics,
  SQLITE_BUSY_TIMEOUT_MS,
  SQLITE_JOURNAL_SIZE_LIMIT_BYTES,
  sqliteWritable,
  truncateWal,
} from './sqlite-maintenance.js';
import { createWriteBatcher, type WriteBatcher } from './write-batcher.js';
import { createWakeups, registerWakeups, type Wakeups } from './wakeup.js';
import { pgWakeupListener } from './wakeup-listener.js';

/** Which SQL engine a {@link Database} talks to. */
export type Dialect = 'sqlite' | 'postgres';

/** An open database: the Kysely instance, its dialect, and how to close it. */
export interface Database {
  readonly db: Kysely<DB>;
  readonly dialect: Dialect;
  /**
   * Runs a unit of work in a transaction; resolves after it committed. Concurrent units of one
   * process share one commit (group commit, see db/write-batcher.ts), each still atomic on its
   * own; what they defer (db/unit-of-work.ts) is written once per batch, and a batch aborted by a
   * deadlock is run again. `work` must therefore be database work only (no network calls, no
   * effects outside `tx`): it can run more than once. `expect()` announces a unit on its way.
   */
  readonly transact: WriteBatcher;
  /**
   * {@link transact} for units that send no statement of their own: every write deferred to the
   * commit (db/unit-of-work.ts), as a filing's. Such a unit waits for no I/O, so a second batch
   * running units beside the first adds nothing but a batch's own statements; on PostgreSQL this
   * batcher keeps ONE batch in flight ({@link PG_DEFERRED_BATCHES_IN_FLIGHT}), and every unit
   * that arrives while it commits joins the next one. On SQLite it is `transact` itself (one writer).
   */
  readonly transactDeferred: WriteBatcher;
  /**
   * Raised after every unit of work committed on this database (db/wakeup.ts): the background
   * loops subscribe to claim at once instead of at their next poll. SQLite: in this process only;
   * PostgreSQL: also across processes (`LISTEN privacy_work` on a session of its own while anyone
   * subscribes). A hint: the loops keep polling.
   */
  readonly wakeups: Wakeups;
  /** Answers true when a trivial query succeeds (readiness). Never throws. */
  ping(): Promise<boolean>;
  /**
   * Answers true when the database accepts writes (readiness), without writing: SQLite's file
   * and folder are writable (a read-only mount answers EROFS, root or not) and the disk has free
   * blocks; PostgreSQL's session is not read-only (`transaction_read_only`: a standby, or
   * `default_transaction_read_only`). Never throws.
   */
  writable(): Promise<boolean>;
  /**
   * A counter that moves whenever another connection (another process) commits: SQLite's
   * `PRAGMA data_version`. Undefined on PostgreSQL, where caches rely on their TTL.
   */
  readonly externalChanges: (() => number) | undefined;
  /**
   * After an erasure: SQLite copies the WAL back into the database file and truncates it, so no
   * erased bytes stay in the WAL (freed pages are zeroed by `secure_delete`). Never waits: a
   * reader in another process that still holds an older snapshot makes it answer false at once
   * (`wal_checkpoint(TRUNCATE)` reports busy) instead of blocking the event loop in the busy
   * handler; retry with {@link checkpointUntilClean} (db/wal-checkpoint.ts). Always true on PostgreSQL.
   * @returns true when the WAL was checkpointed completely and truncated.
   */
  checkpoint(): Promise<boolean>;
  close(): Promise<void>;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every statement anew; preparing costs as much as running a
 * small query. This keeps prepared statements by SQL text (better-sqlite3 statements are
 * reusable), evicting the oldest beyond {@link STATEMENT_CACHE_SIZE}.
 */
function withStatementCache(sqlite: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * Opens the file and switches it to WAL, which needs the file and its folder writable (the
 * `-wal` and `-shm` files sit beside it).
 * @throws Error naming the path and the cause when that fails (read-only file or folder, full disk).
 */
function openWritableSqlite(path: string, mustExist: boolean): SQLite.Database {
  if (mustExist && path !== ':memory:' && !existsSync(path)) throw new DatabaseMissingError(path);
  let sqlite: SQLite.Database | undefined;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    sqlite = new SQLite(path);
    // WAL lets readers run beside the one writer; busy_timeout waits for a lock instead of failing.
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    // A WAL left larger than this after a checkpoint is truncated to it (its old frames go).
    sqlite.pragma(`journal_size_limit = ${SQLITE_JOURNAL_SIZE_LIMIT_BYTES}`);
    sqlite.pragma('journal_mode = WAL');
    // A file SQLite can only open read-only (immutable, read-only mount of an existing WAL file)
    // opens without an error; a write, rolled back, finds out now instead of at the first request.
    sqlite.exec('BEGIN IMMEDIATE; CREATE TABLE _write_probe (x); ROLLBACK');
    return sqlite;
  } catch (error) {
    sqlite?.close();
    const code = (error as { code?: unknown }).code;
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot open SQLite database ${path} for writing (${typeof code === 'string' ? code : cause}): ` +
        'the file and its folder must be writable and the disk must have space',
    );
  }
}

function openSqlite(path: string, mustExist: boolean): Database {
  const sqlite = openWritableSqlite(path, mustExist);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Erased data must not linger in free pages (GDPR Art. 17).
  sqlite.pragma('secure_delete = ON');
  // Statement journals (a savepoint's copies of the pages it changes: the write batcher gives
  // every unit one) and temporary tables stay in memory: SQLite otherwise spills a journal over
  // 64 KiB to a temp file on the event loop, opened, written and dropped per batch (bench rows
  // `create` and `drp-exercise`, docs/operations.md), and those files held copies of personal
  // data outside the database and its WAL.
  sqlite.pragma('temp_store = MEMORY');
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  const stopOptimizer = keepPlannerStatistics(sqlite, db);
  const transact = createWriteBatcher(db);
  // One long-running process per SQLite file (sqlite-process-lock.ts): wake-ups stay in it.
  const wakeups = createWakeups();
  registerWakeups(db, wakeups);
  return {
    db,
    dialect: 'sqlite',
    transact,
    transactDeferred: transact,
    wakeups,
    externalChanges: () => dataVersion.get() as number,
    // Through Kysely, so it waits for the connection: never inside another caller's transaction.
    checkpoint: () => truncateWal(db),
    ping: async () => {
      try {
        sqlite.prepare('select 1').get();
        return true;
      } catch {
        return false;
      }
    },
    writable: () => sqliteWritable(path),
    close: async () => {
      stopOptimizer();
      await wakeups.close();
      return db.destroy();
    },
  };
}

/** True when a pg error says the connection itself is gone (the client cannot be used again). */
function isDeadConnection(error: unknown): boolean {
  return error instanceof Error && /not queryable|Connection terminated/i.test(error.message);
}

/**
 * Kysely rolls back after a failed statement; on a dead connection that rollback fails too and
 * its error ("Client … is not queryable") would replace the real one. The server has rolled the
 * transaction back already when the connection died, so only that case is swallowed; pg's pool
 * then discards the client on release (it is no longer queryable).
 */
class ResilientPostgresDriver extends PostgresDriver {
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (error) {
      if (!isDeadConnection(error)) throw error;
    }
  }
}

class ResilientPostgresDialect extends PostgresDialect {
  constructor(private readonly settings: ConstructorParameters<typeof PostgresDialect>[0]) {
    super(settings);
  }
  override createDriver() {
    return new ResilientPostgresDriver(this.settings);
  }
}

/**
 * Pool settings for failing fast when the server is gone: a new connection gives up after
 * {@link PG_CONNECT_TIMEOUT_MS} (also the longest wait for a free pooled client), and TCP
 * keep-alive notices a silently vanished peer on idle connections.
 */
const PG_CONNECT_TIMEOUT_MS = 3000;

/**
 * Write batches one process has in flight on PostgreSQL: while one commits (waits for its WAL
 * flush), the next one runs its units. Each takes one pooled connection.
 */
export const PG_BATCHES_IN_FLIGHT = 4;

/**
 * Write batches of units that only defer ({@link Database.transactDeferred}) one process has in
 * flight on PostgreSQL. One: those units never wait for I/O, so the units queued while a batch
 * commits all join the next, and each batch's nine statements (BEGIN, the keys' claim, the
 * audit head's read and update, the multi-row inserts, COMMIT) are shared by more filings.
 * Measured in bench/README.md ("Filing as multi-row statements").
 */
export const PG_DEFERRED_BATCHES_IN_FLIGHT = 1;

function openPostgres(url: string, statementTimeoutMs: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, keepAlive: true });
  // Every pooled session's bound on one statement (issue 23 item 9): a slow plan is cancelled
  // (SQLSTATE 57014, a 503) instead of holding a connection. The SET is queued before any query
  // the client is lent for. Migrations lift it for their own session (db/migrator.ts).
  if (statementTimeoutMs > 0)
    pool.on(
      'connect',
      (client) => void client.query(`set statement_timeout = ${Math.floor(statementTimeoutMs)}`).catch(() => undefined),
    );
  // A client whose server goes away emits 'error'. The pool listens while the client is idle;
  // while it is checked out (e.g. between two statements of a transaction) nobody would, and an
  // unhandled 'error' event ends the process. The failure reaches the caller through its next
  // query instead ("not queryable"), and the pool discards the client on release.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<DB>({ dialect: new ResilientPostgresDialect({ pool: namedStatementPool(pool) }) });
  const wakeups = createWakeups(pgWakeupListener(url));
  registerWakeups(db, wakeups);
  return {
    db,
    dialect: 'postgres',
    transact: createWriteBatcher(db, { concurrency: PG_BATCHES_IN_FLIGHT }),
    transactDeferred: createWriteBatcher(db, { concurrency: PG_DEFERRED_BATCHES_IN_FLIGHT }),
    wakeups,
    externalChanges: undefined,
    checkpoint: async () => true,
    ping: async () => {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    writable: async () => {
      try {
        const { rows } = await pool.query<{ transaction_read_only: string }>('show transaction_read_only');
        return rows[0]?.transaction_read_only === 'off';
      } catch {
        return false;
      }
    },
    close: async () => {
      await wakeups.close();
      await db.destroy();
    },
  };
}

/**
 * Opens the database named by `DATABASE_URL`.
 *
 * @param url - `sqlite:PATH` (file created with its folder unless `mustExist`; WAL mode) or
 *   `postgres://…` (a libpq URL; `?options=-c%20search_path%3DNAME` selects a schema).
 * @param options.mustExist - SQLite: refuse a file that does not exist instead of creating it
 *   (for commands that only read: an empty new database would answer them falsely).
 * @param options.statementTimeoutMs - PostgreSQL: `statement_timeout` of every pooled session
 *   (`PG_STATEMENT_TIMEOUT_MS`, ms; 0 or absent: none). Migrations run without it.
 * @throws DatabaseMissingError with `mustExist` and no such file; Error for any other scheme.
 */
export function createDatabase(url: string, options: { mustExist?: boolean; statementTimeoutMs?: number } = {}): Database {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options.mustExist ?? false);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options.statementTimeoutMs ?? 0);
  throw new Error('unsupported DATABASE_URL scheme');
}
