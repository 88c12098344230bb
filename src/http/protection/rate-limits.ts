import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../errors/error-catalogue.js';

/** Requests per minute; `0` turns a limit off. */
export interface RateLimits {
  /** Per bearer credential on `/api/v1` (per client IP when the request has none). */
  perToken: number;
  /** Per client IP on webhooks and every other route outside `/api/v1`. */
  perSource: number;
}

/** Probes are never limited: an orchestrator must always see the process's real state. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);
const WINDOW_MS = 60_000;
/** Keys remembered per limit (least recently used are dropped first). */
const KEYS_KEPT = 10_000;
const BEARER = /^Bearer +(\S+) *$/i;

type Limiter = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * The per-token key: a SHA-256 of the bearer token, never the token itself (the counters live
 * in memory and the key may reach a log). Only the token counts, so spelling variants of the
 * header (`bearer`, extra spaces) share one bucket. Without a bearer token: the client IP.
 */
export function credentialKey(request: FastifyRequest): string {
  const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
  if (token === undefined) return `ip:${request.ip}`;
  return `token:${createHash('sha256').update(token).digest('base64url')}`;
}

function limiter(app: FastifyInstance, max: number, keyGenerator: (request: FastifyRequest) => string): Limiter | null {
  if (max === 0) return null;
  return app.rateLimit({ max, timeWindow: WINDOW_MS, keyGenerator }) as unknown as Limiter;
}

/**
 * Registers fixed-window rate limits (one minute, in-process counters; with N servers the
 * effective limit is N× — docs/protection.md). Over the limit: 429 `{"detail": …}` with
 * `Retry-After` in seconds (PRODUCT.md §2.1, RFC 9110 §10.2.3, RFC 6585 §4); under it, the
 * `X-RateLimit-Limit/-Remaining/-Reset` headers. Runs first in `onRequest`, before
 * authentication or any database work. Register before the routes it should cover.
 */
export async function registerRateLimits(app: FastifyInstance, limits: RateLimits): Promise<void> {
  if (limits.perToken === 0 && limits.perSource === 0) return;
  await app.register(rateLimit, {
    global: false,
    cache: KEYS_KEPT,
    // Retry-After comes with the catalogue's 429, so it is set once.
    addHeaders: { 'retry-after': false },
    errorResponseBuilder: (_request, context) => errors.tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  const perToken = limiter(app, limits.perToken, credentialKey);
  const perSource = limiter(app, limits.perSource, (request) => `ip:${request.ip}`);
  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions.url;
    if (url !== undefined && PROBES.has(url)) return;
    const limit = url?.startsWith('/api/v1/') ? perToken : perSource;
    if (limit) await limit(request, reply);
  });
}

/**
 * Fastify's `trustProxy` for the configured `TRUST_PROXY` (config.ts): the client IP that keys
 * the per-source limit is then the first untrusted address of `X-Forwarded-For`. A hop count
 * trusts that many proxies in front of the server.
 */
export function trustProxyOption(
  value: boolean | number | string,
): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  return (_address, hop) => hop < value;
}
