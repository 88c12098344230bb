/**
 * True when `error` is a unique-constraint violation from either driver
 * (PostgreSQL SQLSTATE 23505, SQLite SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The violated constraint's name (PostgreSQL) or its column list text (SQLite), for telling constraints apart. */
export function violatedConstraint(error: unknown): string {
  const e = error as { constraint?: string; message?: string } | null;
  return e?.constraint ?? e?.message ?? '';
}

/** Node socket errors that mean the database server cannot be reached. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** pg client messages (no code) for a connection that failed, timed out or died. */
const PG_CONNECTION_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|is not queryable/i;

/**
 * Classifies a driver error that is not the request's fault, so that it becomes a 503 instead of
 * a 500 (PRODUCT.md §2.1):
 * - `unreachable`: the database cannot be reached or is shutting down: PostgreSQL SQLSTATE class
 *   08 (connection exception), 57P01–57P03 (admin/crash shutdown, cannot connect now), 53300
 *   (too many connections); socket errors; pg's connection-timeout and dead-client errors;
 *   SQLite SQLITE_BUSY* (the lock was not free within busy_timeout); and PostgreSQL 40P01/40001
 *   (deadlock, serialization failure) left after the write batcher's re-runs: busy, not broken;
 *   and 57014 (a statement cancelled by `statement_timeout`, `PG_STATEMENT_TIMEOUT_MS`).
 * - `storage`: the database cannot write: SQLite SQLITE_FULL, SQLITE_IOERR*, SQLITE_READONLY*,
 *   SQLITE_CANTOPEN*; PostgreSQL 53100 (disk full) and 58030 (I/O error).
 *
 * @returns the class, or null for any other error.
 */
export function databaseFailure(error: unknown): 'unreachable' | 'storage' | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (/^SQLITE_(FULL|IOERR|READONLY|CANTOPEN)/.test(code) || code === '53100' || code === '58030') return 'storage';
    if (code.startsWith('SQLITE_BUSY') || NETWORK_CODES.has(code)) return 'unreachable';
    if (/^08...$/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return 'unreachable';
    // Deadlock or serialization failure still there after the write batcher's re-runs: contention, worth a retry.
    if (code === '40P01' || code === '40001') return 'unreachable';
    // A statement over PG_STATEMENT_TIMEOUT_MS (query_canceled): the database is too slow now, not broken.
    if (code === '57014') return 'unreachable';
  }
  return error instanceof Error && PG_CONNECTION_MESSAGES.test(error.message) ? 'unreachable' : null;
}

/** Thrown by {@link createDatabase} with `mustExist` when the SQLite file is not there. */
export class DatabaseMissingError extends Error {
  constructor(path: string) {
    super(`SQLite database ${path} does not exist (check DATABASE_URL; \`privacyctl migrate\` creates one)`);
    this.name = 'DatabaseMissingError';
  }
}
