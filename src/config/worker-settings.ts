/** The request worker's settings (`WORKER_*`, `RETENTION_SWEEP_MS`, `PACKAGE_RETENTION_DAYS`, `PUBLIC_BASE_URL`). */
import { type Env, readInteger } from './env-readers.js';

/** Request-processing settings (`WORKER_*`). Times in ms. */
export interface WorkerConfig {
  /** Run the worker inside `serve` (default true); `privacyctl worker` runs it alone. */
  readonly inServer: boolean;
  /** Idle wait between polls for due requests. Default 500. */
  readonly pollMs: number;
  /** How long a claimed request stays leased without a heartbeat. Default 30000. */
  readonly leaseMs: number;
  /** Attempts before a request ends `failed`. Default 5. */
  readonly maxAttempts: number;
  /** Time between retention sweeps. Default 60000. */
  readonly retentionSweepMs: number;
  /**
   * `PG_SWEEP_STATEMENT_TIMEOUT_MS` (default 300000, 0–86 400 000; 0: none): PostgreSQL's bound on
   * one statement of a sweep (retention, package expiry, deadline and overdue events), set per
   * transaction (`SET LOCAL`) instead of the API's `PG_STATEMENT_TIMEOUT_MS` (issue 23 item 9).
   * Always set by `loadConfig`; absent: the default.
   */
  readonly sweepStatementTimeoutMs?: number;
  /**
   * `PACKAGE_RETENTION_DAYS` (1–3650, default 30): the retention sweeper deletes an access or
   * export package this many days after it was produced, or earlier when the data it copied expires.
   */
  readonly packageRetentionDays: number;
  /**
   * `WORKER_METRICS_PORT`: TCP port (0–65535; 0 = any free one) of `privacyctl worker`'s own
   * `/metrics` endpoint, on `HOST`; absent (unset, the default): no endpoint.
   */
  readonly metricsPort?: number;
  /**
   * `PUBLIC_BASE_URL`: the service's address as data systems reach it (an `http(s)://` URL, no
   * query or fragment; a trailing slash is dropped), the base of the links in `data_task.created`
   * events (PRODUCT §2.9). Default `http://HOST:PORT`. Always set by `loadConfig` (src/config.ts).
   */
  readonly publicBaseUrl?: string;
}

/** The default of `PG_SWEEP_STATEMENT_TIMEOUT_MS`: 5 minutes, in ms. */
export const DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS = 300_000;

/**
 * `PUBLIC_BASE_URL` without a trailing slash, or `http://HOST:PORT` (an IPv6 host in brackets)
 * when unset. Anything but an http(s) URL without query or fragment is added to `problems`.
 */
export function readPublicBaseUrl(env: Env, host: string, port: number, problems: string[]): string {
  const raw = env.PUBLIC_BASE_URL;
  if (raw === undefined || raw === '') return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '') {
    problems.push('PUBLIC_BASE_URL must be an http:// or https:// URL without query or fragment');
    return raw;
  }
  return raw.replace(/\/+$/, '');
}

/** The `WORKER_*`, `RETENTION_SWEEP_MS`, `PG_SWEEP_STATEMENT_TIMEOUT_MS` and `PACKAGE_RETENTION_DAYS` settings; bad values are added to `problems`. */
export function readWorker(env: Env, problems: string[]): WorkerConfig {
  const flag = env.WORKER_IN_SERVER ?? 'true';
  if (!['true', 'false'].includes(flag)) problems.push('WORKER_IN_SERVER must be true or false');
  return {
    inServer: flag !== 'false',
    pollMs: readInteger(env, 'WORKER_POLL_MS', 500, 10, 60_000, problems),
    leaseMs: readInteger(env, 'WORKER_LEASE_MS', 30_000, 100, 3_600_000, problems),
    maxAttempts: readInteger(env, 'WORKER_MAX_ATTEMPTS', 5, 1, 100, problems),
    retentionSweepMs: readInteger(env, 'RETENTION_SWEEP_MS', 60_000, 1_000, 86_400_000, problems),
    sweepStatementTimeoutMs: readInteger(
      env,
      'PG_SWEEP_STATEMENT_TIMEOUT_MS',
      DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS,
      0,
      86_400_000,
      problems,
    ),
    packageRetentionDays: readInteger(env, 'PACKAGE_RETENTION_DAYS', 30, 1, 3650, problems),
    ...(env.WORKER_METRICS_PORT ? { metricsPort: readInteger(env, 'WORKER_METRICS_PORT', 0, 0, 65535, problems) } : {}),
  };
}
