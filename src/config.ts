/**
 * Service configuration: the only reader of `process.env`.
 *
 * Every variable is validated once, at start; every bad variable is named in one error.
 * The result is frozen and passed explicitly to whatever needs it.
 *
 * The settings groups are read in src/config/: `oidc-settings.ts`, `worker-settings.ts`,
 * `protection-settings.ts`, over the single-variable readers of `env-readers.ts`. Import from
 * here: this file re-exports their types.
 */

import { type ConnectorConfig, readConnectors } from './config/connector-settings.js';
import { type Env, readFlag, readInteger } from './config/env-readers.js';
import {
  type OutboundLimitsConfig,
  readOutboundLimits,
  readStatementTimeout,
  readTaskDataLimits,
  type TaskDataLimitsConfig,
} from './config/limit-settings.js';
import { type OidcConfig, readOidc } from './config/oidc-settings.js';
import { type ProtectionConfig, readProtection } from './config/protection-settings.js';
import { type PrivacyCenterConfig, readPrivacyCenter } from './config/privacy-center-settings.js';
import { readPublicBaseUrl, readWorker, type WorkerConfig } from './config/worker-settings.js';

export type { ConsoleOidcConfig, OidcConfig } from './config/oidc-settings.js';
export { PROTECTION_DEFAULTS, type ProtectionConfig } from './config/protection-settings.js';
export type { WorkerConfig } from './config/worker-settings.js';
export type { ConnectorConfig } from './config/connector-settings.js';
export { PRIVACY_CENTER_DEFAULTS, type PrivacyCenterConfig } from './config/privacy-center-settings.js';

/** Validated, immutable configuration (PRODUCT.md §3). */
export interface Config {
  /** Interface to listen on. Default `127.0.0.1`. */
  readonly host: string;
  /** TCP port, 0–65535. Default 8080. */
  readonly port: number;
  /** `sqlite:PATH` (default `sqlite:./data/privacy.db`) or `postgres://…`. */
  readonly databaseUrl: string;
  /** pino level: fatal, error, warn, info, debug, trace or silent. Default `info`. */
  readonly logLevel: string;
  /** Keyed-pseudonym key (≥ 32 chars) or null: generated and stored in the database on first start. */
  readonly pseudonymKey: string | null;
  /** Key material (≥ 32 chars) for encrypting integration secrets, or null: generated and stored on first start. */
  readonly secretsKey: string | null;
  /** OpenID Connect settings, or null when OIDC is off (all three variables unset). */
  readonly oidc: OidcConfig | null;
  /** Largest accepted request body, in bytes. Default 1 MiB. */
  readonly bodyLimitBytes: number;
  /**
   * `MIGRATE_ON_START` (default true): bring the schema up to date when `serve` or `worker`
   * starts; false: refuse to start while a migration is pending (run `privacyctl migrate` first).
   */
  readonly migrateOnStart: boolean;
  /** The request worker. */
  readonly worker: WorkerConfig;
  /** Rate limits, slow-client timeouts and proxy trust (docs/protection.md). */
  readonly protection: ProtectionConfig;
  /**
   * `METRICS_TOKEN` (≥ 16 characters) or null (unset, the default): when set, `/metrics` (of
   * `serve`, and of `privacyctl worker` on `WORKER_METRICS_PORT`) answers only
   * `Authorization: Bearer <METRICS_TOKEN>`; 401 otherwise.
   */
  readonly metricsToken: string | null;
  /**
   * `OUTBOUND_ALLOW_PRIVATE_NETWORKS` (default false): webhook endpoints may use `http://` and
   * point at loopback, private, link-local or other non-public addresses (PRODUCT §2.8). For a
   * closed network or a test; the default refuses them at creation and at every delivery.
   */
  readonly outboundAllowPrivateNetworks: boolean;
  /** How much data task results may carry (`MAX_TASK_DATA_BYTES`, `MAX_REQUEST_DATA_BYTES`). */
  readonly taskDataLimits: TaskDataLimitsConfig;
  /** Webhook endpoints per workspace and delivery concurrency (`MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE`, `OUTBOUND_*`). */
  readonly outboundLimits: OutboundLimitsConfig;
  /** `PG_STATEMENT_TIMEOUT_MS` (default 15000; 0: none): PostgreSQL's bound on one statement. */
  readonly pgStatementTimeoutMs: number;
  /** Database connectors and the data-system registry's limits (PRODUCT §2.14, docs/connectors.md). */
  readonly connectors: ConnectorConfig;
  /** The privacy center's mail, shared limits and CAPTCHA (PRODUCT §2.15, docs/privacy-center.md). */
  readonly privacyCenter: PrivacyCenterConfig;
}

/** Thrown by {@link loadConfig}; `problems` names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readDatabaseUrl(env: Env, problems: string[]): string {
  const url = env.DATABASE_URL || 'sqlite:./data/privacy.db';
  if (!/^sqlite:.+/.test(url) && !/^postgres(ql)?:\/\/.+/.test(url)) {
    problems.push('DATABASE_URL must be sqlite:PATH or postgres://…');
  }
  return url;
}

/**
 * Reads and validates the configuration.
 *
 * @param env - the environment, normally `process.env`.
 * @returns a frozen {@link Config}.
 * @throws ConfigError naming every invalid variable at once.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const pseudonymKey = env.PSEUDONYM_KEY || null;
  if (pseudonymKey !== null && pseudonymKey.length < 32) problems.push('PSEUDONYM_KEY must be at least 32 characters');
  const metricsToken = env.METRICS_TOKEN || null;
  if (metricsToken !== null && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');
  const secretsKey = env.SECRETS_KEY || null;
  if (secretsKey !== null && secretsKey.length < 32) problems.push('SECRETS_KEY must be at least 32 characters');
  const host = env.HOST || '127.0.0.1';
  const port = readInteger(env, 'PORT', 8080, 0, 65535, problems);
  const config: Config = {
    host,
    port,
    databaseUrl: readDatabaseUrl(env, problems),
    logLevel,
    pseudonymKey,
    secretsKey,
    oidc: readOidc(env, problems),
    bodyLimitBytes: readInteger(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024, problems),
    migrateOnStart: readFlag(env, 'MIGRATE_ON_START', true, problems),
    worker: { ...readWorker(env, problems), publicBaseUrl: readPublicBaseUrl(env, host, port, problems) },
    protection: readProtection(env, problems),
    metricsToken,
    outboundAllowPrivateNetworks: readFlag(env, 'OUTBOUND_ALLOW_PRIVATE_NETWORKS', false, problems),
    taskDataLimits: readTaskDataLimits(env, problems),
    outboundLimits: readOutboundLimits(env, problems),
    pgStatementTimeoutMs: readStatementTimeout(env, problems),
    connectors: readConnectors(env, problems),
    privacyCenter: readPrivacyCenter(env, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}
