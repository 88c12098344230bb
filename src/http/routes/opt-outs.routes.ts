import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { IdempotencyConflict } from '../../modules/idempotency/idempotency.service.js';
import { optOutLocation } from '../../modules/opt-outs/opt-out.fns.js';
import type { OptOutUseCases } from '../../workflows/opt-outs/opt-out-use-cases.js';
import { assertWorkspace, foundInWorkspace } from '../auth/authenticate.js';
import { errors } from '../errors/error-catalogue.js';
import { DEFAULT_PAGE_LIMIT, ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/opt-out.schemas.js';
import { IdempotencyHeaders } from '../schemas/privacy-request.schemas.js';
import { bearerRoutes } from './bearer-route.js';

/**
 * `/api/v1/privacy/opt-outs` and `/api/v1/privacy/preferences` (PRODUCT §2.18): file an opt-out
 * or opt-in (`privacy:write`, Idempotency-Key as for privacy requests), read and list them, and a
 * subject's standing choices (`privacy:read`). Tenancy as for privacy requests: a workspace
 * outside the caller's is a 403 when named, and a 404 for an id.
 */
export async function optOutRoutes(app: FastifyInstance, opts: { services: { optOuts: OptOutUseCases } }) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { optOuts } = opts.services;
  const route = bearerRoutes(['opt-outs'], 'privacy:read');

  typed.post(
    '/opt-outs',
    route(
      {
        headers: IdempotencyHeaders,
        body: S.CreateOptOutBody,
        response: withErrors({ 202: S.OptOutAccepted, 409: ErrorResponse }),
      },
      'privacy:write',
    ),
    async (request, reply) => {
      const key = request.headers['idempotency-key'];
      assertWorkspace(request, request.body.workspace_id);
      try {
        const outcome = await optOuts.file(request.principal, key, request.body);
        if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
        if (outcome.kind === 'client_request_id_taken')
          throw errors.optOutClientRequestIdTaken(outcome.existingId === null ? '' : optOutLocation(outcome.existingId));
        return reply.code(202).header('Location', optOutLocation(outcome.accepted.id)).send(outcome.accepted);
      } catch (error) {
        if (!(error instanceof IdempotencyConflict)) throw error;
        throw error.reason === 'reused' ? errors.idempotencyKeyReused(key) : errors.idempotencyInFlight();
      }
    },
  );

  typed.get(
    '/opt-outs/:id',
    route({ params: S.OptOutIdParams, response: withErrors({ 200: S.OptOutResource, 404: ErrorResponse }) }),
    async (request) => foundInWorkspace(request, await optOuts.read(request.params.id), 'Opt-out'),
  );

  typed.get(
    '/opt-outs',
    route({ querystring: S.ListOptOutsQuery, response: withErrors({ 200: S.OptOutPage }) }),
    async (request) => {
      const { query, principal } = request;
      for (const workspaceId of query.workspace_id ?? []) assertWorkspace(request, workspaceId);
      // Without workspace_id: every workspace the caller may read.
      const workspaceIds = query.workspace_id ?? (principal.workspaces === '*' ? null : [...principal.workspaces]);
      return optOuts.list({ ...query, workspace_ids: workspaceIds, limit: query.limit ?? DEFAULT_PAGE_LIMIT });
    },
  );

  typed.get(
    '/preferences',
    route({ querystring: S.PreferencesQuery, response: withErrors({ 200: S.Preferences }) }),
    async (request) => {
      assertWorkspace(request, request.query.workspace_id);
      return optOuts.preferences(request.query);
    },
  );
}
