import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { IntegrationInputError, NamespaceTakenError } from '../../modules/integrations/integration.service.js';
import type { CreateIntegrationInput } from '../../modules/integrations/integration.types.js';
import type { IntegrationService } from '../../modules/integrations/integration.service.js';
import { assertWorkspace, foundInWorkspace } from '../auth/authenticate.js';
import { errors } from '../errors/error-catalogue.js';
import type { RequestValidationError } from '../errors/http-error.js';
import { ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/integration.schemas.js';
import { REDACTED } from '../validation/error-item.js';
import { bearerRoutes } from './bearer-route.js';
import { listRoute } from './list-route.js';

/** The 422 for a field the integration service refused; the secret is never echoed. */
function inputError(error: IntegrationInputError, body: CreateIntegrationInput): RequestValidationError {
  if (error.kind === 'missing') return errors.integrationFieldMissing(error.field, { ...body, secret: REDACTED });
  const input = (body as unknown as Record<string, unknown>)[error.field];
  return errors.integrationFieldInvalid(error.field, error.message, error.field === 'secret' ? REDACTED : input);
}

/** `/api/v1/integrations` (scope `admin`, PRODUCT.md §2.5): register, list, read and remove webhook sources. */
export async function integrationRoutes(app: FastifyInstance, opts: { services: { integrations: IntegrationService } }) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { integrations } = opts.services;
  const route = bearerRoutes(['integrations'], 'admin');

  typed.post(
    '',
    route({ body: S.CreateIntegrationBody, response: withErrors({ 201: S.IntegrationResource, 409: ErrorResponse }) }),
    async (request, reply) => {
      const body = request.body;
      assertWorkspace(request, body.workspace_id);
      try {
        const created = await integrations.create(body, request.principal);
        return reply.code(201).header('Location', `/api/v1/integrations/${created.id}`).send(created);
      } catch (error) {
        if (error instanceof IntegrationInputError) throw inputError(error, body);
        if (error instanceof NamespaceTakenError) throw errors.namespaceTaken(body.kind);
        throw error;
      }
    },
  );

  listRoute(app, route, { querystring: S.IntegrationListQuery, response: S.IntegrationList }, (workspaces) =>
    integrations.list(workspaces),
  );

  typed.get(
    '/:id',
    route({ params: S.IntegrationIdParams, response: withErrors({ 200: S.IntegrationResource, 404: ErrorResponse }) }),
    async (request) => foundInWorkspace(request, await integrations.get(request.params.id), 'Integration'),
  );

  typed.delete('/:id', route({ params: S.IntegrationIdParams }), async (request, reply) => {
    const { id } = request.params;
    foundInWorkspace(request, await integrations.get(id), 'Integration');
    await integrations.remove(id, request.principal);
    return reply.code(204).send();
  });
}
