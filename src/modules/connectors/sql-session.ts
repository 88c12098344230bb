import { lookup } from 'node:dns/promises';
import { connect, isIP } from 'node:net';
import type * as Mysql from 'mysql2/promise';
import pg from 'pg';
import { type AllowedHost, addressAllowed } from '../../lib/allowed-hosts.js';
import { loadWhenUsed } from '../../lib/load-when-used.js';
import type { ConnectionTarget } from './connection-url.fns.js';
import { classifyDriverError, ConnectorError, type ConnectorFailure } from './connector.errors.js';
import { exactJsonNumber } from './json-number.fns.js';
import { type Dialect, DIALECTS } from './sql-dialect.fns.js';

/** Limits of a connector run (PRODUCT §2.14). */
export interface ConnectorLimits {
  /** `CONNECTOR_STATEMENT_TIMEOUT_MS` (default 10 000): the database cancels a longer statement. */
  readonly statementTimeoutMs: number;
  /** `CONNECTOR_MAX_ROWS` (default 1 000): more rows in one collection fails the run. */
  readonly maxRows: number;
  /** Connect timeout, ms (default 5 000). */
  readonly connectTimeoutMs?: number;
}

/**
 * A row as the drivers return it, values made JSON-safe: dates as ISO strings, bytes as base64,
 * big integers and decimals as numbers when exact, else as strings ({@link exactJsonNumber}).
 */
export type Row = Record<string, unknown>;

/** One open connection to a target database, counting the statements it runs. */
export interface SqlSession {
  readonly dialect: Dialect;
  /** Runs one parameterised statement. @throws the driver's error (classify with {@link classifyDriverError}). */
  run(sql: string, params: readonly unknown[]): Promise<{ rows: Row[]; affected: number }>;
  /** Statements run so far (transaction control included). */
  readonly statements: number;
  close(): Promise<void>;
}

/**
 * Resolves the host once and checks every address against `CONNECTOR_ALLOWED_HOSTS` (PRODUCT §2.14,
 * as outbound webhooks check theirs); the connection then goes to the checked address, so no
 * second lookup can send it elsewhere (DNS rebinding). @throws ConnectorError `host_not_allowed`, `unreachable`.
 */
async function resolveAllowed(target: ConnectionTarget, allowed: readonly AllowedHost[], system: string): Promise<string> {
  let addresses: string[];
  try {
    addresses = isIP(target.host) !== 0 ? [target.host] : (await lookup(target.host, { all: true })).map((a) => a.address);
  } catch (error) {
    throw new ConnectorError('unreachable', system, null, classifyDriverError(error).code);
  }
  if (addresses.length === 0 || !addresses.every((a) => addressAllowed(allowed, target.host, a, target.port)))
    throw new ConnectorError('host_not_allowed', system, null);
  return addresses[0] as string;
}

/** A value of a column the driver gives as decimal text (bigint, numeric): a number when exact; lists element by element. */
function decimalValue(v: unknown): unknown {
  if (typeof v === 'string') return exactJsonNumber(v);
  return Array.isArray(v) ? v.map(decimalValue) : v;
}

/**
 * Converts driver values to JSON-safe ones. `decimals`: the columns the driver gives as decimal
 * text (PostgreSQL `bigint`, `numeric` and their arrays; MySQL `BIGINT`, `DECIMAL`), made numbers
 * when exact (PRODUCT §2.17); a text column holding digits stays text.
 */
function jsonSafe(row: Record<string, unknown>, decimals: ReadonlySet<string>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row))
    out[k] =
      v instanceof Date
        ? v.toISOString()
        : Buffer.isBuffer(v)
          ? v.toString('base64')
          : typeof v === 'bigint'
            ? exactJsonNumber(v.toString())
            : decimals.has(k)
              ? decimalValue(v)
              : v;
  return out;
}

/** PostgreSQL type OIDs pg returns as decimal text: int8, numeric, and their arrays (pg_type.dat). */
const PG_DECIMAL_TYPES = new Set([20, 1700, 1016, 1231]);
/** MySQL column types mysql2 returns as decimal text here (`bigNumberStrings`): DECIMAL, LONGLONG, NEWDECIMAL. */
const MYSQL_DECIMAL_TYPES = new Set([0, 8, 246]);

/**
 * A {@link SqlSession} over one driver connection: `run` sends a statement, and the session counts
 * each one, from `opening` (the statements the opening itself ran).
 */
function countingSession(dialect: Dialect, opening: number, run: SqlSession['run'], close: SqlSession['close']): SqlSession {
  let statements = opening;
  return {
    dialect,
    get statements() {
      return statements;
    },
    async run(sql, params) {
      statements++;
      return run(sql, params);
    },
    close,
  };
}

/**
 * TLS for `require` (encrypted, unchecked) or `verify-full` (the certificate chains to the
 * connection's `sslrootcert`, else the system's CA store, and names the host). The name sent as
 * SNI is the URL's host unless it is an address (RFC 6066 allows names only); the identity check
 * then compares the address with the certificate's IP entries.
 */
function tlsOptions(target: ConnectionTarget): { rejectUnauthorized: boolean; servername?: string; ca?: string } {
  return {
    rejectUnauthorized: target.tls === 'verify-full',
    ...(isIP(target.host) === 0 ? { servername: target.host } : {}),
    ...(target.ca !== undefined ? { ca: target.ca } : {}),
  };
}

async function openPostgres(target: ConnectionTarget, address: string, limits: ConnectorLimits): Promise<SqlSession> {
  const client = new pg.Client({
    host: address,
    port: target.port,
    user: target.user,
    password: target.password,
    database: target.database,
    ssl: target.tls === 'disable' ? false : tlsOptions(target),
    connectionTimeoutMillis: limits.connectTimeoutMs ?? 5000,
    statement_timeout: limits.statementTimeoutMs,
    lock_timeout: limits.statementTimeoutMs,
    query_timeout: limits.statementTimeoutMs + 2000,
    application_name: 'privacy-connector',
  });
  // A server that goes away emits 'error' on the client; without a listener it ends the process.
  client.on('error', () => undefined);
  await client.connect();
  return countingSession(
    DIALECTS.postgres,
    0,
    async (sql, params) => {
      const result = await client.query({ text: sql, values: [...params] });
      const decimals = new Set((result.fields ?? []).filter((f) => PG_DECIMAL_TYPES.has(f.dataTypeID)).map((f) => f.name));
      return { rows: result.rows.map((row) => jsonSafe(row, decimals)), affected: result.rowCount ?? 0 };
    },
    () => client.end().catch(() => undefined),
  );
}

/** mysql2, loaded at the first MariaDB/MySQL connection ({@link loadWhenUsed}). */
const mysql = loadWhenUsed<typeof Mysql>('mysql2/promise');

async function openMysql(target: ConnectionTarget, address: string, limits: ConnectorLimits): Promise<SqlSession> {
  const connection = await mysql().createConnection({
    // The socket goes to the checked address; `host` stays the name, for TLS verification.
    host: target.host,
    stream: () => connect({ host: address, port: target.port }),
    port: target.port,
    user: target.user,
    password: target.password,
    database: target.database,
    ssl: target.tls === 'disable' ? undefined : { ...tlsOptions(target), verifyIdentity: target.tls === 'verify-full' },
    connectTimeout: limits.connectTimeoutMs ?? 5000,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    multipleStatements: false,
  });
  connection.on('error', () => undefined);
  const version = (await connection.query('SELECT VERSION() AS v'))[0] as { v: string }[];
  const mariadb = /mariadb/i.test(version[0]?.v ?? '');
  // MariaDB: max_statement_time (seconds, every statement); MySQL: max_execution_time (ms, SELECTs).
  await connection.query(
    mariadb
      ? `SET SESSION max_statement_time = ${limits.statementTimeoutMs / 1000}`
      : `SET SESSION max_execution_time = ${limits.statementTimeoutMs}`,
  );
  await connection.query(`SET SESSION innodb_lock_wait_timeout = ${Math.max(1, Math.ceil(limits.statementTimeoutMs / 1000))}`);
  const opening = 3; // the version query and the two SETs
  return countingSession(
    DIALECTS.mysql,
    opening,
    async (sql, params) => {
      // Transaction control cannot be prepared; every statement that carries values is (execute).
      if (params.length === 0 && /^(START|COMMIT|ROLLBACK|SET)\b/.test(sql)) {
        await connection.query({ sql, timeout: limits.statementTimeoutMs + 2000 });
        return { rows: [], affected: 0 };
      }
      const [result, fields] = await connection.execute({ sql, timeout: limits.statementTimeoutMs + 2000 }, [
        ...params,
      ] as Mysql.ExecuteValues);
      if (Array.isArray(result)) {
        const decimals = new Set(
          (fields ?? []).filter((f) => MYSQL_DECIMAL_TYPES.has(f.columnType ?? f.type ?? -1)).map((f) => f.name),
        );
        return { rows: (result as Record<string, unknown>[]).map((row) => jsonSafe(row, decimals)), affected: 0 };
      }
      return { rows: [], affected: (result as { affectedRows: number }).affectedRows };
    },
    () => connection.end().catch(() => undefined),
  );
}

/**
 * The reason a connection attempt failed. At connect, MySQL's 1044 (no access to the database)
 * is the login refused, as 1045 is; any error without a known class counts as `unreachable`.
 */
function connectFailure(error: unknown): { reason: ConnectorFailure; code: string | null } {
  const { reason, code } = classifyDriverError(error);
  if (code === 'ER_DBACCESS_DENIED_ERROR') return { reason: 'authentication', code };
  return { reason: reason === 'failed' ? 'unreachable' : reason, code };
}

/**
 * Opens one connection to the target, after the allowed-hosts check of the resolved address.
 * @throws ConnectorError (`host_not_allowed`, `unreachable`; permanent: `authentication` for a
 * refused login (28P01, 28000, MySQL 1045, 1044), `missing_database` (3D000, MySQL 1049)) naming
 * only the system (PRODUCT §2.17).
 */
export async function openSession(
  target: ConnectionTarget,
  options: { allowedHosts: readonly AllowedHost[]; limits: ConnectorLimits; system: string },
): Promise<SqlSession> {
  const address = await resolveAllowed(target, options.allowedHosts, options.system);
  try {
    return target.kind === 'postgres'
      ? await openPostgres(target, address, options.limits)
      : await openMysql(target, address, options.limits);
  } catch (error) {
    const { reason, code } = connectFailure(error);
    throw new ConnectorError(reason, options.system, null, code);
  }
}
