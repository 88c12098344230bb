import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics, WebhookOutcome, WebhookSource } from '../metrics.js';
import type { Services } from '../services.js';
import { githubWebhookRoute } from './github/route.js';
import { gitlabWebhookRoute } from './gitlab/route.js';
import { identityWebhookRoute } from './identity/route.js';
import { registerRawBodyParser } from './shared/webhook-body.js';

/** Each receiver's route, by the source its deliveries come from (the `source` label). */
const SOURCES: Readonly<Record<string, WebhookSource>> = {
  '/webhook/prhost': 'github',
  '/webhook/mrhost': 'gitlab',
  '/webhook/identity': 'identity',
};

const ANSWERED = new Set<string>(['accepted', 'duplicate', 'ignored']);

/** The outcome each answered delivery's 200 body named (`status`), noted before it is serialized. */
const answered = new WeakMap<FastifyRequest, WebhookOutcome>();

/**
 * Counts every delivery once, when its answer is sent (`webhook_deliveries_total`): the outcome
 * is the 200 body's `status`, or `rejected` for a 4xx (unverified, bad payload, unsupported
 * media type, too large, rate limited) and `error` for a 5xx. The routes need nothing for it.
 * Both hooks are callbacks (they run on every delivery; docs/development.md).
 */
function countDeliveries(app: FastifyInstance, metrics: Pick<Metrics, 'webhookDeliveries'>): void {
  app.addHook('preSerialization', (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done) => {
    const status = (payload as { status?: unknown } | null)?.status;
    if (typeof status === 'string' && ANSWERED.has(status)) answered.set(request, status as WebhookOutcome);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const source = SOURCES[request.routeOptions.url ?? ''];
    const code = reply.statusCode;
    const outcome = code >= 500 ? 'error' : code >= 400 ? 'rejected' : answered.get(request);
    if (source !== undefined && outcome !== undefined) metrics.webhookDeliveries.inc({ source, outcome });
    done();
  });
}

/**
 * The three webhook receivers, in a scope of their own: no bearer token (each delivery proves
 * itself), raw-byte bodies, nothing parsed or stored before the signature checks out. With
 * `metrics`, every delivery is counted by source and outcome.
 */
export async function webhooksPlugin(
  app: FastifyInstance,
  opts: { services: Services; metrics?: Pick<Metrics, 'webhookDeliveries'> },
) {
  registerRawBodyParser(app);
  if (opts.metrics) countDeliveries(app, opts.metrics);
  await app.register(githubWebhookRoute, opts);
  await app.register(gitlabWebhookRoute, opts);
  await app.register(identityWebhookRoute, opts);
}
