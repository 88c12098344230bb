import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { IdempotencyConflict } from '../../modules/idempotency/idempotency.service.js';
import { requestLocation } from '../../modules/request-model/request-model.js';
import { resourceJson } from '../../modules/privacy-requests/privacy-request.fns.js';
import type { FilingOutcome } from '../../modules/privacy-requests/privacy-request.types.js';
import type { Clock } from '../../lib/clock.js';
import type { Metrics } from '../../metrics.js';
import type { PrivacyRequestService } from '../../modules/privacy-requests/privacy-request.service.js';
import type { FileRequest } from '../../workflows/filing/file-privacy-request.js';
import { assertWorkspace, foundInWorkspace } from '../auth/authenticate.js';
import { errors } from '../errors/error-catalogue.js';
import { DEFAULT_PAGE_LIMIT, ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-request.schemas.js';
import { bearerRoutes } from './bearer-route.js';
import { sendRequestsCsv, wantsCsv } from './request-csv.js';

/**
 * The HTTP answer to a filing (PRODUCT.md §2.3): 202 with `Location` and the resource, or 409
 * with the `Location` of the request holding the `client_request_id`; `Idempotent-Replayed: true`
 * on a replay.
 */
function sendFiling(reply: FastifyReply, outcome: FilingOutcome) {
  if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
  if (outcome.kind === 'client_request_id_taken') {
    throw errors.clientRequestIdTaken(outcome.existingId === null ? '' : requestLocation(outcome.existingId));
  }
  return reply
    .code(202)
    .header('Location', requestLocation(outcome.request.id))
    .type('application/json')
    .serializer((p: string) => p)
    .send(resourceJson(outcome.request));
}

/** `/api/v1/privacy/requests`: file, read and list privacy requests (PRODUCT.md §2.3). */
export async function privacyRequestRoutes(
  app: FastifyInstance,
  opts: { services: { privacyRequests: PrivacyRequestService; fileRequest: FileRequest; clock: Clock }; metrics: Metrics },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { privacyRequests } = opts.services;
  const tags = ['privacy requests'];
  const route = bearerRoutes(tags, 'privacy:read');

  typed.post(
    '',
    route(
      {
        headers: S.IdempotencyHeaders,
        body: S.CreatePrivacyRequestBody,
        response: withErrors({ 202: S.PrivacyRequestResource, 409: ErrorResponse }),
      },
      'privacy:write',
    ),
    async (request, reply) => {
      const body = request.body;
      const key = request.headers['idempotency-key'];
      assertWorkspace(request, body.workspace_id);
      try {
        const outcome = await opts.services.fileRequest(request.principal, key, body);
        if (!outcome.replayed && outcome.kind === 'filed') opts.metrics.requestsFiled.inc({ request_type: body.request_type });
        return sendFiling(reply, outcome);
      } catch (error) {
        if (!(error instanceof IdempotencyConflict)) throw error;
        throw error.reason === 'reused' ? errors.idempotencyKeyReused(key) : errors.idempotencyInFlight();
      }
    },
  );

  typed.get(
    '/:id',
    route({ params: S.RequestIdParams, response: withErrors({ 200: S.PrivacyRequestResource, 404: ErrorResponse }) }),
    async (request) => {
      // Outside the caller's workspaces a request does not exist: no probing for ids.
      return foundInWorkspace(request, await privacyRequests.get(request.params.id), 'Privacy request');
    },
  );

  typed.get(
    '',
    route({ querystring: S.ListPrivacyRequestsQuery, response: withErrors({ 200: S.PrivacyRequestPage }) }),
    async (request, reply) => {
      // The validator fills `limit` with its default (50).
      const { query } = request;
      const { principal } = request;
      for (const workspaceId of query.workspace_id ?? []) assertWorkspace(request, workspaceId);
      if (query.due_before !== undefined && !S.isCalendarDay(query.due_before))
        throw errors.invalidQueryValue('due_before', 'not a real calendar day', query.due_before);
      // Without workspace_id: every workspace the caller may read (the cross-workspace queue).
      const workspaceIds = query.workspace_id ?? (principal.workspaces === '*' ? null : [...principal.workspaces]);
      const { workspace_id: _named, format, ...filters } = query;
      const input = { ...filters, workspace_ids: workspaceIds, me: principal.name, limit: query.limit ?? DEFAULT_PAGE_LIMIT };
      // The same list as CSV (PRODUCT §2.16), streamed from the first request.
      if (wantsCsv(request, format)) return sendRequestsCsv(reply, privacyRequests, input, opts.services.clock());
      return privacyRequests.list(input);
    },
  );
}
