import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { PackageReview } from '../../workflows/package-review/package-review.js';
import { ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-request.schemas.js';
import { bearerRoutes } from './bearer-route.js';

/**
 * The review of a package before release (PRODUCT §2.20), under `/api/v1/privacy/requests`:
 * `POST /:id/package/redactions {path, reason}` → 201, `GET /:id/package/redactions` (scope
 * privacy:read), `DELETE /:id/package/redactions/:redaction_id` → 204, `POST /:id/release
 * {reason?}` → 200 the completed request. Writes need privacy:write. Refusals are domain errors
 * (errors/domain-errors.ts): 409 out of state, 422 at `["body","path"]`, 403 four eyes.
 */
export async function packageReviewRoutes(app: FastifyInstance, opts: { services: { packageReview: PackageReview } }) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { packageReview } = opts.services;
  const route = bearerRoutes(['privacy requests'], 'privacy:write');

  typed.post(
    '/:id/package/redactions',
    route({
      params: S.RequestIdParams,
      body: S.RedactionBody,
      response: withErrors({ 201: S.RedactionResource, 404: ErrorResponse, 409: ErrorResponse }),
    }),
    async (request, reply) => {
      const redaction = await packageReview.withhold(request.principal, request.params.id, request.body);
      return reply.code(201).send(redaction);
    },
  );

  typed.get(
    '/:id/package/redactions',
    route({ params: S.RequestIdParams, response: withErrors({ 200: S.RedactionList, 404: ErrorResponse }) }, 'privacy:read'),
    async (request) => ({ items: await packageReview.redactions(request.principal, request.params.id) }),
  );

  typed.delete(
    '/:id/package/redactions/:redaction_id',
    route({
      params: S.RedactionParams,
      response: withErrors({ 204: Type.Null(), 404: ErrorResponse, 409: ErrorResponse }),
    }),
    async (request, reply) => {
      await packageReview.removeRedaction(request.principal, request.params.id, request.params.redaction_id);
      return reply.code(204).send();
    },
  );

  typed.post(
    '/:id/release',
    route({
      params: S.RequestIdParams,
      body: S.ReleaseBody,
      response: withErrors({ 200: S.PrivacyRequestResource, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse }),
    }),
    (request) => packageReview.release(request.principal, request.params.id, request.body),
  );
}
