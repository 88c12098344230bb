import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { IdentityReview } from '../../workflows/identity-review/identity-review.js';
import { ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-request.schemas.js';
import { bearerRoutes } from './bearer-route.js';

/**
 * The review of a request for an identity nothing matched (PRODUCT §2.13), scope privacy:write:
 * `POST /api/v1/privacy/requests/{id}/identity {subject_provider, subject_id, reason}` re-points
 * it (it runs again); `POST …/{id}/confirm-no-data {reason}` completes it with the confirmation
 * that no personal data of the person is processed; `GET …/{id}/confirm-no-data` (scope
 * privacy:read) shows the sentence the person will get before anyone confirms (PRODUCT §2.21).
 * 409 when it does not wait for the review.
 */
export async function privacyRequestReviewRoutes(app: FastifyInstance, opts: { services: { identityReview: IdentityReview } }) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { identityReview } = opts.services;
  const route = bearerRoutes(['privacy requests'], 'privacy:write');
  const base = {
    params: S.RequestIdParams,
    response: withErrors({ 200: S.PrivacyRequestResource, 404: ErrorResponse, 409: ErrorResponse }),
  };
  typed.post('/:id/identity', route({ ...base, body: S.IdentityBody }), (request) =>
    identityReview.repoint(request.principal, request.params.id, request.body),
  );
  typed.get(
    '/:id/confirm-no-data',
    route(
      { params: S.RequestIdParams, response: withErrors({ 200: S.NoDataPreview, 404: ErrorResponse, 409: ErrorResponse }) },
      'privacy:read',
    ),
    (request) => identityReview.noDataPreview(request.principal, request.params.id),
  );
  typed.post('/:id/confirm-no-data', route({ ...base, body: S.ReasonBody }), (request) =>
    identityReview.confirmNoData(request.principal, request.params.id, request.body),
  );
}
