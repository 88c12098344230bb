import type { FastifyInstance } from 'fastify';
import { bearerMatches } from '../../lib/bearer-match.js';
import type { Metrics } from '../../metrics.js';
import type { Database } from '../../db/database.js';
import { errors } from '../errors/error-catalogue.js';

/**
 * `/healthz` (process up), `/readyz` (database reachable and writable; configured optional parts
 * that do not answer are named under `degraded`), `/metrics` (Prometheus
 * text format; with `metricsToken`, only for `Authorization: Bearer <metricsToken>`).
 */
export async function operationsRoutes(
  app: FastifyInstance,
  opts: {
    services: { database: Database };
    metrics: Metrics;
    metricsToken: string | null;
    /** Names the configured optional parts that do not answer (SMTP, Redis; PRODUCT §2.15); they degrade, never fail, readiness. */
    optionalParts?: () => Promise<string[]>;
  },
) {
  const tags = ['operations'];
  app.get('/healthz', { schema: { tags } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { tags } }, async (_request, reply) => {
    const { database } = opts.services;
    if (!(await database.ping())) return reply.code(503).header('Retry-After', '5').send({ detail: 'Database unreachable' });
    if (!(await database.writable()))
      return reply.code(503).header('Retry-After', '30').send({ detail: 'Database is read-only or its disk is full' });
    const degraded = opts.optionalParts ? await opts.optionalParts() : [];
    return degraded.length > 0 ? { status: 'ready', degraded } : { status: 'ready' };
  });
  app.get('/metrics', { schema: { tags, hide: true } }, async (request, reply) => {
    const token = opts.metricsToken;
    if (token !== null && !bearerMatches(request.headers.authorization, token))
      throw request.headers.authorization ? errors.invalidCredentials() : errors.notAuthenticated();
    reply.type(opts.metrics.registry.contentType);
    return opts.metrics.registry.metrics();
  });
}
