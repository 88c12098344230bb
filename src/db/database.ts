import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';
import { createWriteBatcher, type Transact, transactEach } from './write-batcher.js';

/** Which SQL engine a {@link Database} talks to. */
export type Dialect = 'sqlite' | 'postgres';

/** An open database: the Kysely instance, its dialect, and how to close it. */
export interface Database {
  readonly db: Kysely<DB>;
  readonly dialect: Dialect;
  /**
   * Runs a unit of work in a transaction; resolves after it committed. On SQLite concurrent units
   * share one commit (group commit, see db/write-batcher.ts), each still atomic on its own.
   */
  readonly transact: Transact;
  /** Answers true when a trivial query succeeds (readiness). Never throws. */
  ping(): Promise<boolean>;
  /**
   * A counter that moves whenever another connection (another process) commits: SQLite's
   * `PRAGMA data_version`. Undefined on PostgreSQL, where caches rely on their TTL.
   */
  readonly externalChanges: (() => number) | undefined;
  /**
   * After an erasure: SQLite copies the WAL back into the database file and truncates it, so no
   * erased bytes stay in the WAL (freed pages are zeroed by `secure_delete`). No-op on PostgreSQL.
   */
  checkpoint(): Promise<void>;
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
 * SQLite transactions that take the write lock at BEGIN (`BEGIN IMMEDIATE`). A deferred
 * transaction that reads first and writes later fails at once with SQLITE_BUSY_SNAPSHOT when
 * another process committed in between (the busy timeout does not apply); an immediate one
 * waits for the lock (busy_timeout) and then sees the latest data.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(settings);
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.settings);
  }
}

function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  // WAL lets readers run beside the one writer; busy_timeout waits for a lock instead of failing.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // Erased data must not linger in free pages (GDPR Art. 17).
  sqlite.pragma('secure_delete = ON');
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  return {
    db,
    dialect: 'sqlite',
    transact: createWriteBatcher(db),
    externalChanges: () => dataVersion.get() as number,
    // Through Kysely, so it waits for the connection: never inside another caller's transaction.
    checkpoint: async () => void (await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db)),
    ping: async () => {
      try {
        sqlite.prepare('select 1').get();
        return true;
      } catch {
        return false;
      }
    },
    close: () => db.destroy(),
  };
}

function openPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    transact: transactEach(db),
    externalChanges: undefined,
    checkpoint: async () => undefined,
    ping: async () => {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => db.destroy(),
  };
}

/**
 * Opens the database named by `DATABASE_URL`.
 *
 * @param url - `sqlite:PATH` (file created with its folder; WAL mode) or `postgres://…`
 *   (a libpq URL; `?options=-c%20search_path%3DNAME` selects a schema).
 * @throws Error for any other scheme.
 */
export function createDatabase(url: string): Database {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url);
  throw new Error('unsupported DATABASE_URL scheme');
}
