import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { OperatorAction } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';
import type { PrivacyRequestActions } from '../../workflows/requests/request-actions.js';
import { ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-request.schemas.js';
import { bearerRoutes } from './bearer-route.js';

const BODIES: Record<OperatorAction, typeof S.ReasonBody | typeof S.RejectBody | typeof S.CorrectionsBody | undefined> = {
  approve: undefined,
  reject: S.RejectBody,
  cancel: S.ReasonBody,
  extend: S.ReasonBody,
  corrections: S.CorrectionsBody,
};

/**
 * `POST /api/v1/privacy/requests/{id}/{approve|reject|cancel|extend|corrections}` and
 * `…/{id}/proceed {reason}` (a request waiting as a repeat goes on, PRODUCT §2.20), scope
 * privacy:write.
 */
export async function privacyRequestActionRoutes(
  app: FastifyInstance,
  opts: { services: { requestActions: PrivacyRequestActions } },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { requestActions } = opts.services;
  const route = bearerRoutes(['privacy requests'], 'privacy:write');
  for (const [action, body] of Object.entries(BODIES) as [OperatorAction, (typeof BODIES)[OperatorAction]][]) {
    const schema = {
      params: S.RequestIdParams,
      ...(body ? { body } : {}),
      response: withErrors({ 200: S.PrivacyRequestResource, 404: ErrorResponse, 409: ErrorResponse }),
    };
    typed.post(`/:id/${action}`, route(schema), async (request) => {
      const { id } = request.params;
      const input: { reason?: string; drp_reason?: string; changes?: Record<string, unknown> } = request.body ?? {};
      // Refusals (not found, wrong state, self-approval, corrections) are domain errors:
      // errors/domain-errors.ts answers them.
      return requestActions.act(request.principal, id, action, input);
    });
  }
  const proceed = {
    params: S.RequestIdParams,
    body: S.ReasonBody,
    response: withErrors({ 200: S.PrivacyRequestResource, 404: ErrorResponse, 409: ErrorResponse }),
  };
  // 409 (not waiting as a repeat) is a domain error: errors/domain-errors.ts answers it.
  typed.post('/:id/proceed', route(proceed), (request) =>
    requestActions.proceed(request.principal, request.params.id, request.body),
  );
}
