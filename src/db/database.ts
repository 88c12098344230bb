import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';

/** Which SQL engine a {@link Database} talks to. */
export type Dialect = 'sqlite' | 'postgres';

/** An open database: the Kysely instance, its dialect, and how to close it. */
export interface Database {
  readonly db: Kysely<DB>;
  readonly dialect: Dialect;
  /** Answers true when a trivial query succeeds (readiness). Never throws. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
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
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
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
