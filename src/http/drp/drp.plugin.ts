import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import type { Metrics } from '../../metrics.js';
import { memoryCounter } from '../protection/window-counter.js';
import type { DrpProtocol } from '../../workflows/drp/drp-protocol.js';
import { knownHttpError } from '../errors/error-handler.js';
import { RequestValidationError } from '../errors/http-error.js';
import { registerNoStore } from '../protection/security-headers.js';
import { DRP_BODY_LIMIT_BYTES, exercised, refusalOf, refuse } from './drp-answer.js';
import { drpAgentRoutes } from './drp-agent.routes.js';
import { drpRequestRoutes } from './drp-request.routes.js';

/** Key setup answers every refusal without a body (DRP §2.05.1); its route pattern. */
export const KEY_SETUP_ROUTE = '/drp/v1/agent/:agentId';

/**
 * The business side of the Data Rights Protocol 1.0 under `/drp` (PRODUCT §2.19), in a scope of
 * its own: no API token (each call carries a DRP bearer token, or a signature for key setup),
 * every body kept as raw bytes whatever its `Content-Type` (`text/plain` as DRP asks, none as
 * OSIRAA sends on DELETE, even `application/json`), at most 64 KiB (413), and every error in
 * DRP's body (§3.06) instead of the API's `{"detail"}`.
 */
export async function drpPlugin(
  app: FastifyInstance,
  opts: {
    services: { drp: DrpProtocol; clock: Clock };
    metrics?: Pick<Metrics, 'drpRefused' | 'drpRequests'>;
    /** Calls a minute per agent before a 429 (`DRP_CALLS_PER_MINUTE`; 0: no limit). */
    callsPerMinute: number;
  },
) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: DRP_BODY_LIMIT_BYTES }, (request, body, done) => {
    request.rawBody = body as Buffer;
    done(null, undefined);
  });
  registerNoStore(app);
  if (opts.callsPerMinute > 0) limitCallsPerAgent(app, opts.services.clock, opts.callsPerMinute);
  if (opts.metrics) countCalls(app, opts.metrics);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const keySetup = request.method === 'POST' && request.routeOptions.url === KEY_SETUP_ROUTE;
    const route = keySetup ? 'key_setup' : 'other';
    if (error.statusCode === 413) return refuse(reply, { reason: 'body_too_large' }, route);
    const known = knownHttpError(error);
    if (!known || known.statusCode >= 500) request.log.error({ err: error }, 'DRP call failed');
    const status = known ? known.statusCode : 500;
    if (route === 'key_setup' && status < 500) return reply.code(403).send();
    const message = known && !(known instanceof RequestValidationError) ? known.detail : 'Internal error';
    return reply
      .code(status)
      .headers(known && !(known instanceof RequestValidationError) ? known.headers : {})
      .type('application/json')
      .send({ code: String(status), message, fatal: status < 500 });
  });
  await app.register(drpAgentRoutes, { services: opts.services });
  await app.register(drpRequestRoutes, { services: opts.services });
}

/** Whose calls a call counts among: the path's agent for key setup, else the bearer token's (one agent's). */
function callerKey(request: FastifyRequest): string {
  const agentId = (request.params as { agentId?: string } | undefined)?.agentId;
  if (request.method === 'POST' && agentId !== undefined) return `setup:${agentId}`;
  const authorization = request.headers.authorization ?? '';
  return `token:${createHash('sha256').update(authorization).digest('base64url')}`;
}

/**
 * At most `perMinute` calls a minute per agent (`DRP_CALLS_PER_MINUTE`, default 60), in-process (PRODUCT §2.19): over
 * it, 429 with `Retry-After` and DRP's body (key setup: no body). Counted by the token a call
 * carries (an agent holds one, two for the day after it pairs again) or, for key setup, by the
 * path's agent id, before any database work.
 */
function limitCallsPerAgent(app: FastifyInstance, clock: Clock, perMinute: number): void {
  const counter = memoryCounter(() => clock().getTime());
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url === undefined) return;
    const { count, resetMs } = await counter.hit(callerKey(request), 60_000);
    if (count <= perMinute) return;
    const keySetup = request.method === 'POST' && request.routeOptions.url === KEY_SETUP_ROUTE;
    return refuse(
      reply,
      { reason: 'rate_limited', retryAfterSeconds: Math.max(1, Math.ceil(resetMs / 1000)) },
      keySetup ? 'key_setup' : 'other',
    );
  });
}

/** `drp_refused_total{reason}` for every refusal, `drp_requests_total{exercise,outcome}` for every exercise answered. */
function countCalls(app: FastifyInstance, metrics: Pick<Metrics, 'drpRefused' | 'drpRequests'>): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const reason = refusalOf(request);
    if (reason !== undefined) metrics.drpRefused.inc({ reason });
    else if (
      reply.statusCode === 200 &&
      request.method === 'POST' &&
      request.routeOptions.url?.startsWith('/drp/v1/data-rights-request')
    ) {
      const answered = exercised.get(request);
      if (answered) metrics.drpRequests.inc(answered);
    }
    return payload;
  });
}
