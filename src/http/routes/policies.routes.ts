import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EffectivePolicy } from '../../modules/policies/policy.service.js';
import type { PolicyService } from '../../modules/policies/policy.service.js';
import { assertWorkspace } from '../auth/authenticate.js';
import { errors } from '../errors/error-catalogue.js';
import { ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/policy.schemas.js';
import { bearerRoutes } from './bearer-route.js';
import { effectivePolicyBody } from './effective-policy-body.js';

/** What Fastify's serializer labels JSON with; the effective policy's body is serialized in advance. */
const JSON_TYPE = 'application/json; charset=utf-8';

type LayerParams = { workspace_id: string; repository?: string };

/** `/api/v1/policies`: the effective policy and its layers (PRODUCT.md §2.4). */
export async function policyRoutes(app: FastifyInstance, opts: { services: { policies: PolicyService } }) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { policies } = opts.services;
  const route = bearerRoutes(['policies'], 'policy:read');

  typed.get(
    '/effective',
    route({ querystring: S.EffectivePolicyQuery, response: withErrors({ 200: S.EffectivePolicyResponse }) }),
    (request, reply) => {
      const { workspace_id, repository } = request.query;
      assertWorkspace(request, workspace_id);
      // A cached merge is answered at once, without a promise; otherwise the layers are read first.
      const cached = policies.cachedEffective(workspace_id, repository);
      if (cached) return answerEffective(request, reply, cached);
      return policies.effective(workspace_id, repository).then((effective) => answerEffective(request, reply, effective));
    },
  );

  for (const [path, params] of [
    ['/workspaces/:workspace_id', S.WorkspaceParams],
    ['/workspaces/:workspace_id/repositories/:repository', S.RepositoryParams],
  ] as const) {
    typed.get(
      path,
      route({ params, response: withErrors({ 200: S.PolicyLayerResponse, 404: ErrorResponse }) }),
      async (request) => {
        const { workspace_id, repository } = layerTarget(request, request.params);
        const layer = await policies.getLayer(workspace_id, repository);
        if (!layer) throw errors.notFound('Policy layer');
        return layer;
      },
    );
    typed.put(
      path,
      route({ params, body: S.PolicyLayerBody, response: withErrors({ 200: S.PolicyLayerResponse }) }, 'policy:write'),
      async (request) => {
        const { workspace_id, repository } = layerTarget(request, request.params);
        return policies.putLayer(workspace_id, repository, request.body, request.principal);
      },
    );
    typed.delete(
      path,
      route({ params, response: withErrors({ 204: Type.Null(), 404: ErrorResponse }, false) }, 'policy:write'),
      async (request, reply) => {
        const { workspace_id, repository } = layerTarget(request, request.params);
        if (!(await policies.deleteLayer(workspace_id, repository, request.principal))) throw errors.notFound('Policy layer');
        return reply.code(204).send();
      },
    );
  }
}

/** The effective policy with its ETag (`no-cache`: revalidate), or 304 to a matching If-None-Match. */
function answerEffective(request: FastifyRequest, reply: FastifyReply, effective: EffectivePolicy): FastifyReply {
  const etag = `"${effective.version}"`;
  reply.header('ETag', etag).header('Cache-Control', 'no-cache');
  if (ifNoneMatch(request, etag)) return reply.code(304).send();
  return reply.type(JSON_TYPE).send(effectivePolicyBody(effective, reply));
}

function layerTarget(request: FastifyRequest, params: LayerParams): { workspace_id: string; repository: string | null } {
  assertWorkspace(request, params.workspace_id);
  return { workspace_id: params.workspace_id, repository: params.repository ?? null };
}

/** RFC 9110 §13.1.2: weak comparison; `*` matches any current representation. */
function ifNoneMatch(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
