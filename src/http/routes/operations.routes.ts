import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../metrics.js';
import type { Services } from '../../services.js';

/** `/healthz` (process up), `/readyz` (database reachable), `/metrics` (Prometheus text format). */
export async function operationsRoutes(app: FastifyInstance, opts: { services: Services; metrics: Metrics }) {
  const tags = ['operations'];
  app.get('/healthz', { schema: { tags } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { tags } }, async (_request, reply) => {
    if (await opts.services.database.ping()) return { status: 'ready' };
    return reply.code(503).header('Retry-After', '5').send({ detail: 'Database unreachable' });
  });
  app.get('/metrics', { schema: { tags, hide: true } }, async (_request, reply) => {
    reply.type(opts.metrics.registry.contentType);
    return opts.metrics.registry.metrics();
  });
}
