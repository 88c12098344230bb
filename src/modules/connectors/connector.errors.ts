/**
 * Why a connector run failed. `retryable` reasons are the database's state (down, slow, a
 * privilege missing, busy): the task retries with its backoff. The others will fail again the
 * same way (a database or table missing, a login refused, too many rows, a value a column
 * refuses) until someone changes the dataset, the connection or the database (PRODUCT §2.17).
 */
export type ConnectorFailure =
  | 'unreachable'
  | 'host_not_allowed'
  | 'authentication'
  | 'missing_database'
  | 'timeout'
  | 'permission_denied'
  | 'busy'
  | 'missing_table'
  | 'missing_column'
  | 'row_cap'
  | 'not_null'
  | 'unique'
  | 'check'
  | 'foreign_key'
  | 'too_long'
  | 'constraint'
  | 'invalid_value'
  | 'failed';

// A refused login or a missing database is not the database's passing state: retrying it for
// hours only delays the answer (PRODUCT §2.17, "fails at once, without retries").
const RETRYABLE: ReadonlySet<ConnectorFailure> = new Set(['unreachable', 'timeout', 'permission_denied', 'busy']);

const SENTENCES: Record<ConnectorFailure, string> = {
  unreachable: 'the database could not be reached',
  host_not_allowed: 'the database host is not allowed by CONNECTOR_ALLOWED_HOSTS',
  authentication: 'the database refused the login (user, password or access to the database)',
  missing_database: 'the database named in the connection does not exist',
  timeout: 'a statement ran longer than CONNECTOR_STATEMENT_TIMEOUT_MS',
  permission_denied: 'the database user lacks a privilege',
  busy: 'the database was busy (lock wait, deadlock or too many connections)',
  missing_table: 'the table does not exist',
  missing_column: 'a column of the dataset does not exist',
  row_cap: 'more rows matched than CONNECTOR_MAX_ROWS allows',
  not_null: 'the column is NOT NULL and the write set it to null (mask it with string_rewrite or random_string_rewrite)',
  unique: 'the column is UNIQUE and the written value is taken (a fixed rewrite value? use random_string_rewrite or hmac)',
  check: 'a CHECK constraint refused the written value',
  foreign_key: 'a foreign key refused the change',
  too_long: "the written value is longer than the column allows (set the field's length)",
  constraint: 'the database refused the change (a constraint)',
  invalid_value: 'the database refused a value (type or length)',
  failed: 'the database answered with an error',
};

/** Where in a collection a refused write hit: the column(s) and the constraint, when known (identifiers only). */
export interface RefusedAt {
  readonly column?: string | null;
  readonly constraint?: string | null;
}

/**
 * A connector run failed (PRODUCT §2.14, §2.17). The message names the system, the collection,
 * the column or constraint a refused write hit, and the reason, never the connection URL,
 * credentials, a value or the driver's own text (which can hold any of them); `code` is the
 * SQLSTATE or driver code when there is one.
 */
export class ConnectorError extends Error {
  override readonly name = 'ConnectorError';
  readonly retryable: boolean;
  readonly column: string | null;
  readonly constraint: string | null;

  constructor(
    readonly reason: ConnectorFailure,
    readonly system: string,
    readonly collection: string | null,
    readonly code: string | null = null,
    at: RefusedAt = {},
  ) {
    const column = at.column ?? null;
    const constraint = at.constraint ?? null;
    const where = [
      `system ${system}`,
      ...(collection === null ? [] : [`collection ${collection}`]),
      ...(column !== null ? [`column ${column}`] : constraint !== null ? [`constraint ${constraint}`] : []),
    ].join(', ');
    super(`${where}: ${SENTENCES[reason]}${code ? ` (${code})` : ''}`);
    this.retryable = RETRYABLE.has(reason);
    this.column = column;
    this.constraint = constraint;
  }
}

/** SQLSTATE classes and driver codes → failure reasons (PostgreSQL, MySQL and MariaDB alike). */
const CODES: Record<string, ConnectorFailure> = {
  ECONNREFUSED: 'unreachable',
  ECONNRESET: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  ETIMEDOUT: 'unreachable',
  EPIPE: 'unreachable',
  PROTOCOL_CONNECTION_LOST: 'unreachable',
  '57P01': 'unreachable',
  '57P03': 'unreachable',
  '08000': 'unreachable',
  '08001': 'unreachable',
  '08006': 'unreachable',
  '28P01': 'authentication',
  '28000': 'authentication',
  ER_ACCESS_DENIED_ERROR: 'authentication',
  '3D000': 'missing_database',
  ER_BAD_DB_ERROR: 'missing_database',
  '23502': 'not_null',
  '23505': 'unique',
  '23514': 'check',
  '23503': 'foreign_key',
  '22001': 'too_long',
  '57014': 'timeout',
  ER_STATEMENT_TIMEOUT: 'timeout',
  ER_QUERY_TIMEOUT: 'timeout',
  PROTOCOL_SEQUENCE_TIMEOUT: 'timeout',
  '42501': 'permission_denied',
  ER_TABLEACCESS_DENIED_ERROR: 'permission_denied',
  ER_COLUMNACCESS_DENIED_ERROR: 'permission_denied',
  ER_DBACCESS_DENIED_ERROR: 'permission_denied',
  ER_SPECIFIC_ACCESS_DENIED_ERROR: 'permission_denied',
  '25006': 'permission_denied',
  ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION: 'permission_denied',
  '53300': 'busy',
  '55P03': 'busy',
  '40P01': 'busy',
  '40001': 'busy',
  ER_CON_COUNT_ERROR: 'busy',
  ER_LOCK_WAIT_TIMEOUT: 'busy',
  ER_LOCK_DEADLOCK: 'busy',
  '42P01': 'missing_table',
  '3F000': 'missing_table',
  ER_NO_SUCH_TABLE: 'missing_table',
  '42703': 'missing_column',
  ER_BAD_FIELD_ERROR: 'missing_column',
};

/**
 * MySQL/MariaDB error numbers classified by number: those mysql2 has no name for, and those whose
 * name it takes from MySQL where MariaDB means another error (MariaDB's 4025, a CHECK constraint,
 * arrives as `ER_INNODB_AUTOEXTEND_SIZE_OUT_OF_RANGE`).
 */
const ERRNOS: Record<number, [ConnectorFailure, string]> = {
  1969: ['timeout', 'ER_STATEMENT_TIMEOUT'], // MariaDB max_statement_time
  3024: ['timeout', 'ER_QUERY_TIMEOUT'], // MySQL max_execution_time
  1048: ['not_null', 'ER_BAD_NULL_ERROR'],
  1062: ['unique', 'ER_DUP_ENTRY'],
  1406: ['too_long', 'ER_DATA_TOO_LONG'],
  3819: ['check', 'ER_CHECK_CONSTRAINT_VIOLATED'], // MySQL 8.0.16+
  4025: ['check', 'ER_CONSTRAINT_FAILED'], // MariaDB 10.2+
  1216: ['foreign_key', 'ER_NO_REFERENCED_ROW'],
  1217: ['foreign_key', 'ER_ROW_IS_REFERENCED'],
  1451: ['foreign_key', 'ER_ROW_IS_REFERENCED_2'],
  1452: ['foreign_key', 'ER_NO_REFERENCED_ROW_2'],
};

/** The failure reason of a driver error (by its code, error number, SQLSTATE class or message shape), and the code. */
export function classifyDriverError(error: unknown): { reason: ConnectorFailure; code: string | null } {
  const e = error as { code?: unknown; errno?: unknown; sqlState?: unknown; message?: unknown };
  const known = typeof e?.errno === 'number' ? ERRNOS[e.errno] : undefined;
  if (known) return { reason: known[0], code: known[1] };
  const code = typeof e?.code === 'string' ? e.code : null;
  if (code && CODES[code]) return { reason: CODES[code], code };
  const state = typeof e?.sqlState === 'string' ? e.sqlState : code;
  if (state?.startsWith('23')) return { reason: 'constraint', code: state };
  if (state?.startsWith('22') || code === 'ER_DATA_TOO_LONG' || code === 'ER_TRUNCATED_WRONG_VALUE')
    return { reason: 'invalid_value', code };
  if (state?.startsWith('08')) return { reason: 'unreachable', code: state };
  if (code?.startsWith('ER_') && /ACCESS_DENIED/.test(code)) return { reason: 'permission_denied', code };
  const message = typeof e?.message === 'string' ? e.message : '';
  // pg's own connect timeout and a socket closed under a query carry no code.
  if (/timeout|terminated|Connection ended|closed state/i.test(message))
    return { reason: /query read timeout|statement timeout/i.test(message) ? 'timeout' : 'unreachable', code };
  return { reason: 'failed', code };
}
