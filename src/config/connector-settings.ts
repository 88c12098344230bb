import { type AllowedHost, parseAllowedHosts } from '../lib/allowed-hosts.js';
import { type Env, readInteger } from './env-readers.js';

/** Database connectors (PRODUCT §2.14) and the data-system registry's limits. */
export interface ConnectorConfig {
  /**
   * `CONNECTOR_ALLOWED_HOSTS`: comma-separated `host` (any port), `host:port`, addresses or CIDRs a
   * database system may point at; empty (the default): none. Checked at registration and again on
   * the resolved address at every connect.
   */
  readonly allowedHosts: readonly AllowedHost[];
  /** `CONNECTOR_STATEMENT_TIMEOUT_MS` (100–600 000, default 10 000): the target cancels a longer statement. */
  readonly statementTimeoutMs: number;
  /**
   * `CONNECTOR_MAX_ROWS` (1–50 000, default 1 000): more rows in one collection fails the task. The
   * bound keeps a lookup's value list under PostgreSQL's 65 535 parameters per statement.
   */
  readonly maxRows: number;
  /** `MAX_DATA_SYSTEMS_PER_WORKSPACE` (1–100 000, default 500): registrations past it are refused (409). */
  readonly maxDataSystemsPerWorkspace: number;
}

/** Reads the connector settings; bad values are added to `problems`. */
export function readConnectors(env: Env, problems: string[]): ConnectorConfig {
  const hosts = parseAllowedHosts(env.CONNECTOR_ALLOWED_HOSTS ?? '');
  problems.push(...hosts.problems);
  return {
    allowedHosts: Object.freeze(hosts.hosts),
    statementTimeoutMs: readInteger(env, 'CONNECTOR_STATEMENT_TIMEOUT_MS', 10_000, 100, 600_000, problems),
    maxRows: readInteger(env, 'CONNECTOR_MAX_ROWS', 1000, 1, 50_000, problems),
    maxDataSystemsPerWorkspace: readInteger(env, 'MAX_DATA_SYSTEMS_PER_WORKSPACE', 500, 1, 100_000, problems),
  };
}
