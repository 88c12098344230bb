import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { IdempotencyConflict } from '../../modules/idempotency/idempotency.service.js';
import { InvalidCursorError } from '../../modules/privacy-requests/privacy-request.service.js';
import type { CreatePrivacyRequestInput } from '../../modules/privacy-requests/privacy-request.types.js';
import { coversWorkspace } from '../../modules/tokens/principal.js';
import type { Metrics } from '../../metrics.js';
import type { Services } from '../../services.js';
import { assertWorkspace } from '../auth/authenticate.js';
import { errors } from '../errors/error-catalogue.js';
import { HttpError } from '../errors/http-error.js';
import { BEARER_SECURITY, ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-request.schemas.js';

type StoredResponse = { status: number; location: string | null; body: string };

function sendStored(reply: FastifyReply, response: StoredResponse, replayed: boolean) {
  if (replayed) reply.header('Idempotent-Replayed', 'true');
  if (response.status === 409) throw errors.clientRequestIdTaken(response.location ?? '');
  if (response.location) reply.header('Location', response.location);
  return reply
    .code(response.status)
    .type('application/json')
    .serializer((p: string) => p)
    .send(response.body);
}

/** `/api/v1/privacy/requests`: file, read and list privacy requests (PRODUCT.md §2.3). */
export async function privacyRequestRoutes(app: FastifyInstance, opts: { services: Services; metrics: Metrics }) {
  const { privacyRequests } = opts.services;
  const tags = ['privacy requests'];

  app.post(
    '',
    {
      config: { scope: 'privacy:write' },
      schema: {
        tags,
        security: BEARER_SECURITY,
        headers: S.IdempotencyHeaders,
        body: S.CreatePrivacyRequestBody,
        response: withErrors({ 202: S.PrivacyRequestResource, 409: ErrorResponse }),
      },
    },
    async (request, reply) => {
      const body = request.body as CreatePrivacyRequestInput;
      const key = request.headers['idempotency-key'] as string;
      assertWorkspace(request, body.workspace_id);
      try {
        const { response, replayed } = await privacyRequests.create(request.principal, key, body);
        if (!replayed && response.status === 202) opts.metrics.requestsFiled.inc({ request_type: body.request_type });
        return sendStored(reply, response, replayed);
      } catch (error) {
        if (!(error instanceof IdempotencyConflict)) throw error;
        throw error.reason === 'reused' ? errors.idempotencyKeyReused(key) : errors.idempotencyInFlight();
      }
    },
  );

  app.get(
    '/:id',
    {
      config: { scope: 'privacy:read' },
      schema: {
        tags,
        security: BEARER_SECURITY,
        params: S.RequestIdParams,
        response: withErrors({ 200: S.PrivacyRequestResource, 404: ErrorResponse }),
      },
    },
    async (request) => {
      const { id } = request.params as Static<typeof S.RequestIdParams>;
      const found = await privacyRequests.get(id);
      // Outside the caller's workspaces a request does not exist: no probing for ids.
      if (!found || !coversWorkspace(request.principal, found.workspace_id)) throw errors.notFound('Privacy request');
      return found;
    },
  );

  app.get(
    '',
    {
      config: { scope: 'privacy:read' },
      schema: {
        tags,
        security: BEARER_SECURITY,
        querystring: S.ListPrivacyRequestsQuery,
        response: withErrors({ 200: S.PrivacyRequestPage }),
      },
    },
    async (request) => {
      // The validator fills `limit` with its default (50).
      const query = request.query as Static<typeof S.ListPrivacyRequestsQuery> & { limit: number };
      assertWorkspace(request, query.workspace_id);
      try {
        return await privacyRequests.list(query);
      } catch (error) {
        if (error instanceof InvalidCursorError) throw new HttpError(400, 'The cursor is not valid; start again without one');
        throw error;
      }
    },
  );
}
