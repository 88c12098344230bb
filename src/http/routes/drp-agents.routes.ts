import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { coversWorkspace } from '../../modules/principals/principal.js';
import type { DrpAdmin } from '../../workflows/drp/drp-admin.js';
import { assertWorkspace, foundInWorkspace } from '../auth/authenticate.js';
import { ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/drp.schemas.js';
import { bearerRoutes } from './bearer-route.js';
import { listRoute } from './list-route.js';

function coverage(request: FastifyRequest): (workspaceId: string) => boolean {
  return (workspaceId) => coversWorkspace(request.principal, workspaceId);
}

/**
 * `/api/v1/drp/agents` (scope `admin`, PRODUCT §2.19): a workspace's registered DRP authorized
 * agents. 422 `verify_key_invalid` at `["body","verify_key"]` for a key DRP 1.0 does not take;
 * 409 for an `agent_id` the workspace holds; a new key, `disabled: true` or a delete voids the
 * agent's tokens. Each change audited (`drp.agent_registered|updated|removed`).
 */
export async function drpAgentRoutes(app: FastifyInstance, opts: { services: { drpAdmin: DrpAdmin } }) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { drpAdmin } = opts.services;
  const route = bearerRoutes(['drp'], 'admin');

  typed.post(
    '',
    route({ body: S.CreateDrpAgentBody, response: withErrors({ 201: S.DrpAgentResource, 409: ErrorResponse }) }),
    async (request, reply) => {
      assertWorkspace(request, request.body.workspace_id);
      const created = await drpAdmin.registerAgent(request.body, request.principal);
      return reply.code(201).header('Location', `/api/v1/drp/agents/${created.id}`).send(created);
    },
  );

  listRoute(app, route, { querystring: S.DrpAgentListQuery, response: S.DrpAgentList }, (workspaces) =>
    drpAdmin.listAgents(workspaces),
  );

  typed.get(
    '/:id',
    route({ params: S.DrpAgentIdParams, response: withErrors({ 200: S.DrpAgentResource, 404: ErrorResponse }) }),
    async (request) => foundInWorkspace(request, await drpAdmin.getAgent(request.params.id), 'DRP agent'),
  );

  typed.patch(
    '/:id',
    route({
      params: S.DrpAgentIdParams,
      body: S.UpdateDrpAgentBody,
      response: withErrors({ 200: S.DrpAgentResource, 404: ErrorResponse }),
    }),
    async (request) => drpAdmin.updateAgent(request.params.id, request.body, request.principal, coverage(request)),
  );

  typed.get(
    '/:id/callbacks',
    route({
      params: S.DrpAgentIdParams,
      querystring: S.DrpCallbackListQuery,
      response: withErrors({ 200: S.DrpCallbackList, 404: ErrorResponse }),
    }),
    async (request) => {
      const { status, limit } = request.query;
      const filters = { limit: limit ?? 100, ...(status === undefined ? {} : { status }) };
      return { items: await drpAdmin.listCallbacks(request.params.id, filters, coverage(request)) };
    },
  );

  typed.delete(
    '/:id',
    route({ params: S.DrpAgentIdParams, response: withErrors({ 404: ErrorResponse }) }),
    async (request, reply) => {
      await drpAdmin.removeAgent(request.params.id, request.principal, coverage(request));
      return reply.code(204).send();
    },
  );
}
