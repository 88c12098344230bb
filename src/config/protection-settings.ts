/** Abuse protection settings: rate limits, slow-client timeouts, proxy trust (docs/protection.md). */
import { type Env, readInteger } from './env-readers.js';

/** Abuse protection settings (docs/protection.md). Times in ms; limits in requests per minute, 0 = off. */
export interface ProtectionConfig {
  /** `RATE_LIMIT_PER_TOKEN`: requests per minute per bearer credential on `/api/v1`. Default 6000. */
  readonly rateLimitPerToken: number;
  /** `RATE_LIMIT_PER_SOURCE`: requests per minute per client IP on webhooks and other unauthenticated routes. Default 3000. */
  readonly rateLimitPerSource: number;
  /**
   * `DRP_CALLS_PER_MINUTE`: calls a minute per DRP agent on `/drp` (PRODUCT §2.19), counted
   * in-process. Default 60; 0 turns it off (the benchmark does, as for the other limits).
   */
  readonly drpCallsPerMinute: number;
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

/** Production defaults of {@link ProtectionConfig} (docs/protection.md explains each). */
export const PROTECTION_DEFAULTS: ProtectionConfig = Object.freeze({
  rateLimitPerToken: 6000,
  rateLimitPerSource: 3000,
  drpCallsPerMinute: 60,
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

/** Rate limits, timeouts and `TRUST_PROXY` (docs/protection.md); bad values are added to `problems`. */
export function readProtection(env: Env, problems: string[]): ProtectionConfig {
  const d = PROTECTION_DEFAULTS;
  const requestTimeoutMs = readInteger(env, 'REQUEST_TIMEOUT_MS', d.requestTimeoutMs, 100, 600_000, problems);
  const headersTimeoutMs = readInteger(env, 'HEADERS_TIMEOUT_MS', d.headersTimeoutMs, 100, 600_000, problems);
  // Node refuses a headers timeout longer than the request timeout.
  if (headersTimeoutMs > requestTimeoutMs) problems.push('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  return {
    rateLimitPerToken: readInteger(env, 'RATE_LIMIT_PER_TOKEN', d.rateLimitPerToken, 0, 1_000_000, problems),
    rateLimitPerSource: readInteger(env, 'RATE_LIMIT_PER_SOURCE', d.rateLimitPerSource, 0, 1_000_000, problems),
    drpCallsPerMinute: readInteger(env, 'DRP_CALLS_PER_MINUTE', d.drpCallsPerMinute, 0, 1_000_000, problems),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: readInteger(env, 'KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs, 100, 600_000, problems),
    trustProxy: readTrustProxy(env, problems),
  };
}
