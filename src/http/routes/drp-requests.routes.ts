import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DrpAdmin } from '../../workflows/drp/drp-admin.js';
import { foundInWorkspace, listedWorkspaces } from '../auth/authenticate.js';
import { ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/drp.schemas.js';
import { bearerRoutes } from './bearer-route.js';

/**
 * `GET /api/v1/drp/requests?workspace_id=…&agent_id=…&status=…&limit=…` (scope `privacy:read`,
 * PRODUCT §2.19): the DRP records, including those that never became a request, newest first;
 * never a claim; `GET /api/v1/drp/requests/{request_id}`: one record with the agent's
 * relationships hints, proof reference and attested flags (404 outside the caller's workspaces).
 */
export async function drpRequestListRoutes(app: FastifyInstance, opts: { services: { drpAdmin: DrpAdmin } }) {
  const route = bearerRoutes(['drp'], 'privacy:read');
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get('', route({ querystring: S.DrpRequestListQuery, response: withErrors({ 200: S.DrpRequestList }) }), async (request) => {
      const { workspace_id, agent_id, status, limit } = request.query;
      const items = await opts.services.drpAdmin.listRequests(listedWorkspaces(request, workspace_id), {
        limit: limit ?? 100,
        ...(agent_id === undefined ? {} : { agentId: agent_id }),
        ...(status === undefined ? {} : { status }),
      });
      return { items };
    })
    .get(
      '/:request_id',
      route({ params: S.DrpRequestIdParams, response: withErrors({ 200: S.DrpRequestDetail, 404: ErrorResponse }) }),
      async (request) =>
        foundInWorkspace(request, await opts.services.drpAdmin.readRequest(request.params.request_id), 'DRP request'),
    );
}
