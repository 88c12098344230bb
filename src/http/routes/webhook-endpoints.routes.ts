import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenDestinationError } from '../../modules/outbound-events/address-guard.js';
import { coversWorkspace } from '../../modules/principals/principal.js';
import type { MessageLogService } from '../../modules/outbound-events/message-log.service.js';
import type { WebhookEndpointService } from '../../modules/outbound-events/webhook-endpoint.service.js';
import { assertWorkspace, foundInWorkspace } from '../auth/authenticate.js';
import { errors } from '../errors/error-catalogue.js';
import { ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/webhook-endpoint.schemas.js';
import { bearerRoutes } from './bearer-route.js';
import { listRoute } from './list-route.js';

/** The caller's workspace check, handed to the services (an endpoint elsewhere is a 404). */
function coverage(request: FastifyRequest): (workspaceId: string) => boolean {
  return (workspaceId) => coversWorkspace(request.principal, workspaceId);
}

/** A refused URL is a 422 on `url` naming the rule (the URL itself is echoed: it is the caller's own input). */
async function checkingUrl<T>(url: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ForbiddenDestinationError)
      throw errors.integrationFieldInvalid('url', `Value error, ${error.message}`, url);
    throw error;
  }
}

/**
 * `/api/v1/webhook-endpoints` (scope `admin`, PRODUCT §2.8): a workspace's receivers of signed
 * outbound events, their secrets (shown once, rotated with a 24 h overlap) and their message log.
 */
export async function webhookEndpointRoutes(
  app: FastifyInstance,
  opts: { services: { outboundMessages: MessageLogService; webhookEndpoints: WebhookEndpointService } },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { webhookEndpoints, outboundMessages } = opts.services;
  const route = bearerRoutes(['webhook endpoints'], 'admin');

  typed.post(
    '',
    route({ body: S.CreateEndpointBody, response: withErrors({ 201: S.EndpointWithSecret }) }),
    async (request, reply) => {
      const body = request.body;
      assertWorkspace(request, body.workspace_id);
      const created = await checkingUrl(body.url, () => webhookEndpoints.create(body, request.principal));
      return reply.code(201).header('Location', `/api/v1/webhook-endpoints/${created.id}`).send(created);
    },
  );

  listRoute(app, route, { querystring: S.EndpointListQuery, response: S.EndpointList }, (workspaces) =>
    webhookEndpoints.list(workspaces),
  );

  typed.get(
    '/:id',
    route({ params: S.EndpointIdParams, response: withErrors({ 200: S.EndpointResource, 404: ErrorResponse }) }),
    async (request) => foundInWorkspace(request, await webhookEndpoints.get(request.params.id), 'Webhook endpoint'),
  );

  typed.patch(
    '/:id',
    route({
      params: S.EndpointIdParams,
      body: S.UpdateEndpointBody,
      response: withErrors({ 200: S.EndpointResource, 404: ErrorResponse }),
    }),
    async (request) => {
      const { body } = request;
      return checkingUrl(body.url, () => webhookEndpoints.update(request.params.id, body, request.principal, coverage(request)));
    },
  );

  typed.delete('/:id', route({ params: S.EndpointIdParams }), async (request, reply) => {
    await webhookEndpoints.remove(request.params.id, request.principal, coverage(request));
    return reply.code(204).send();
  });

  typed.post(
    '/:id/rotate-secret',
    route({ params: S.EndpointIdParams, response: withErrors({ 201: S.EndpointWithSecret, 404: ErrorResponse }) }),
    async (request, reply) => {
      const rotated = await webhookEndpoints.rotateSecret(request.params.id, request.principal, coverage(request));
      return reply.code(201).send(rotated);
    },
  );

  typed.get(
    '/:id/messages',
    route({
      params: S.EndpointIdParams,
      querystring: S.MessageListQuery,
      response: withErrors({ 200: S.MessageList, 404: ErrorResponse }),
    }),
    async (request) => {
      const { status, cursor, limit } = request.query;
      const query = { limit: limit ?? 50, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) };
      return outboundMessages.list(request.params.id, query, coverage(request));
    },
  );

  typed.post(
    '/:id/messages/:msg_id/retry',
    route({ params: S.MessageIdParams, response: withErrors({ 202: S.MessageResource, 404: ErrorResponse }) }),
    async (request, reply) => {
      const { id, msg_id } = request.params;
      return reply.code(202).send(await outboundMessages.retry(id, msg_id, request.principal, coverage(request)));
    },
  );

  typed.post(
    '/:id/recover',
    route({
      params: S.EndpointIdParams,
      body: S.RecoverBody,
      response: withErrors({ 202: S.RecoverResult, 404: ErrorResponse }),
    }),
    async (request, reply) => {
      const since = new Date(request.body.since).toISOString();
      const requeued = await outboundMessages.recover(request.params.id, since, request.principal, coverage(request));
      return reply.code(202).send({ requeued });
    },
  );
}
