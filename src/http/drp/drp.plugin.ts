import type { FastifyError, FastifyInstance } from 'fastify';
import type { DrpProtocol } from '../../workflows/drp/drp-protocol.js';
import { knownHttpError } from '../errors/error-handler.js';
import { RequestValidationError } from '../errors/http-error.js';
import { registerNoStore } from '../protection/security-headers.js';
import { DRP_BODY_LIMIT_BYTES, refuse } from './drp-answer.js';
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
export async function drpPlugin(app: FastifyInstance, opts: { services: { drp: DrpProtocol } }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: DRP_BODY_LIMIT_BYTES }, (request, body, done) => {
    request.rawBody = body as Buffer;
    done(null, undefined);
  });
  registerNoStore(app);
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
