/**
 * Service configuration: the only reader of `process.env`.
 *
 * Every variable is validated once, at start; every bad variable is named in one error.
 * The result is frozen and passed explicitly to whatever needs it.
 */

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
}

/** Abuse protection settings (docs/protection.md). Times in ms; limits in requests per minute, 0 = off. */
export interface ProtectionConfig {
  /** `RATE_LIMIT_PER_TOKEN`: requests per minute per bearer credential on `/api/v1`. Default 6000. */
  readonly rateLimitPerToken: number;
  /** `RATE_LIMIT_PER_SOURCE`: requests per minute per client IP on webhooks and other unauthenticated routes. Default 3000. */
  readonly rateLimitPerSource: number;
  /** `REQUEST_TIMEOUT_MS`: time to receive a whole request (headers and body). Default 30000. */
  readonly requestTimeoutMs: number;
  /** `HEADERS_TIMEOUT_MS`: time to receive a request's headers; at most the request timeout. Default 10000. */
  readonly headersTimeoutMs: number;
  /** `KEEP_ALIVE_TIMEOUT_MS`: idle time before a keep-alive connection is closed. Default 72000. */
  readonly keepAliveTimeoutMs: number;
  /**
   * `TRUST_PROXY`: whose `X-Forwarded-For` to believe for the client IP. `false` (default: the
   * socket address), `true` (any), a hop count, or a comma-separated list of addresses/CIDRs.
   */
  readonly trustProxy: boolean | number | string;
}

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
   * events (PRODUCT §2.9). Default `http://HOST:PORT`. Always set by {@link loadConfig}.
   */
  readonly publicBaseUrl?: string;
}

/** OIDC bearer-token verification settings (PRODUCT.md §2.2). */
export interface OidcConfig {
  readonly issuer: string;
  readonly audience: string;
  readonly jwksUrl: string;
  /** Claim holding the token's workspaces (array of ids, or `"*"`). Default `workspaces`. */
  readonly workspacesClaim: string;
  /**
   * Claim holding the operator's display name, recorded in the audit trail (`OIDC_NAME_CLAIM`,
   * default `name`); when the token lacks it, `email`, then `sub`.
   */
  readonly nameClaim: string;
  /** Console single sign-on (`OIDC_CONSOLE_CLIENT_ID`), or null when the console offers only pasted tokens. */
  readonly console: ConsoleOidcConfig | null;
}

/**
 * The console's OpenID Connect sign-in (PRODUCT.md §2b): a public client using the
 * authorization-code flow with PKCE (RFC 7636, S256). None of it is secret: the console reads it
 * at `GET /console/config.json`.
 */
export interface ConsoleOidcConfig {
  /** `OIDC_CONSOLE_CLIENT_ID`: the console's client id at the identity provider. */
  readonly clientId: string;
  /** `OIDC_AUTHORIZATION_URL`: the provider's authorization endpoint (absolute http(s) URL). */
  readonly authorizationUrl: string;
  /** `OIDC_TOKEN_URL`: the provider's token endpoint (absolute http(s) URL). */
  readonly tokenUrl: string;
  /** `OIDC_CONSOLE_SCOPE`: the space-separated scopes asked for, default `openid`. */
  readonly scope: string;
}

/** Thrown by {@link loadConfig}; `problems` names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Readonly<Record<string, string | undefined>>;

function readInteger(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    problems.push(`${name} must be an integer from ${min} to ${max}`);
    return fallback;
  }
  return value;
}

function readDatabaseUrl(env: Env, problems: string[]): string {
  const url = env.DATABASE_URL || 'sqlite:./data/privacy.db';
  if (!/^sqlite:.+/.test(url) && !/^postgres(ql)?:\/\/.+/.test(url)) {
    problems.push('DATABASE_URL must be sqlite:PATH or postgres://…');
  }
  return url;
}

function readOidc(env: Env, problems: string[]): OidcConfig | null {
  const issuer = env.OIDC_ISSUER ?? '';
  const audience = env.OIDC_AUDIENCE ?? '';
  const jwksUrl = env.OIDC_JWKS_URL ?? '';
  const set = [issuer, audience, jwksUrl].filter((v) => v !== '').length;
  if (set === 0) {
    if (env.OIDC_CONSOLE_CLIENT_ID) problems.push('OIDC_CONSOLE_CLIENT_ID needs OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL');
    return null;
  }
  if (set < 3) {
    problems.push('OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL must be set together');
    return null;
  }
  if (!URL.canParse(jwksUrl)) problems.push('OIDC_JWKS_URL must be a URL');
  return {
    issuer,
    audience,
    jwksUrl,
    workspacesClaim: env.OIDC_WORKSPACES_CLAIM || 'workspaces',
    nameClaim: env.OIDC_NAME_CLAIM || 'name',
    console: readConsoleOidc(env, problems),
  };
}

const isHttpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/** `OIDC_CONSOLE_CLIENT_ID` and the two endpoints it needs; null when the client id is unset. */
function readConsoleOidc(env: Env, problems: string[]): ConsoleOidcConfig | null {
  const clientId = env.OIDC_CONSOLE_CLIENT_ID ?? '';
  const authorizationUrl = env.OIDC_AUTHORIZATION_URL ?? '';
  const tokenUrl = env.OIDC_TOKEN_URL ?? '';
  if (clientId === '') {
    if (authorizationUrl !== '' || tokenUrl !== '')
      problems.push('OIDC_AUTHORIZATION_URL and OIDC_TOKEN_URL are used only with OIDC_CONSOLE_CLIENT_ID');
    return null;
  }
  if (!isHttpUrl(authorizationUrl))
    problems.push('OIDC_AUTHORIZATION_URL must be an http(s) URL when OIDC_CONSOLE_CLIENT_ID is set');
  if (!isHttpUrl(tokenUrl)) problems.push('OIDC_TOKEN_URL must be an http(s) URL when OIDC_CONSOLE_CLIENT_ID is set');
  const scope = (env.OIDC_CONSOLE_SCOPE || 'openid').trim();
  return { clientId, authorizationUrl, tokenUrl, scope };
}

function readPublicBaseUrl(env: Env, host: string, port: number, problems: string[]): string {
  const raw = env.PUBLIC_BASE_URL;
  if (raw === undefined || raw === '') return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '') {
    problems.push('PUBLIC_BASE_URL must be an http:// or https:// URL without query or fragment');
    return raw;
  }
  return raw.replace(/\/+$/, '');
}

function readFlag(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') problems.push(`${name} must be true or false`);
  return raw === 'true' || (raw !== 'false' && fallback);
}

function readWorker(env: Env, problems: string[]): WorkerConfig {
  const flag = env.WORKER_IN_SERVER ?? 'true';
  if (!['true', 'false'].includes(flag)) problems.push('WORKER_IN_SERVER must be true or false');
  return {
    inServer: flag !== 'false',
    pollMs: readInteger(env, 'WORKER_POLL_MS', 500, 10, 60_000, problems),
    leaseMs: readInteger(env, 'WORKER_LEASE_MS', 30_000, 100, 3_600_000, problems),
    maxAttempts: readInteger(env, 'WORKER_MAX_ATTEMPTS', 5, 1, 100, problems),
    retentionSweepMs: readInteger(env, 'RETENTION_SWEEP_MS', 60_000, 1_000, 86_400_000, problems),
    packageRetentionDays: readInteger(env, 'PACKAGE_RETENTION_DAYS', 30, 1, 3650, problems),
    ...(env.WORKER_METRICS_PORT ? { metricsPort: readInteger(env, 'WORKER_METRICS_PORT', 0, 0, 65535, problems) } : {}),
  };
}

/** Production defaults of {@link ProtectionConfig} (docs/protection.md explains each). */
export const PROTECTION_DEFAULTS: ProtectionConfig = Object.freeze({
  rateLimitPerToken: 6000,
  rateLimitPerSource: 3000,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 72_000,
  trustProxy: false,
});

function readTrustProxy(env: Env, problems: string[]): boolean | number | string {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  if (/^[\w.:/]+(\s*,\s*[\w.:/]+)*$/.test(raw)) return raw;
  problems.push('TRUST_PROXY must be true, false, a hop count or a comma-separated list of addresses');
  return false;
}

function readProtection(env: Env, problems: string[]): ProtectionConfig {
  const d = PROTECTION_DEFAULTS;
  const requestTimeoutMs = readInteger(env, 'REQUEST_TIMEOUT_MS', d.requestTimeoutMs, 100, 600_000, problems);
  const headersTimeoutMs = readInteger(env, 'HEADERS_TIMEOUT_MS', d.headersTimeoutMs, 100, 600_000, problems);
  // Node refuses a headers timeout longer than the request timeout.
  if (headersTimeoutMs > requestTimeoutMs) problems.push('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  return {
    rateLimitPerToken: readInteger(env, 'RATE_LIMIT_PER_TOKEN', d.rateLimitPerToken, 0, 1_000_000, problems),
    rateLimitPerSource: readInteger(env, 'RATE_LIMIT_PER_SOURCE', d.rateLimitPerSource, 0, 1_000_000, problems),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: readInteger(env, 'KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs, 100, 600_000, problems),
    trustProxy: readTrustProxy(env, problems),
  };
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
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}
