import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OperatorAction } from '../../modules/privacy-requests/lifecycle.fns.js';
import {
  InvalidTransitionError,
  RequestNotFoundError,
  SelfApprovalError,
} from '../../modules/privacy-requests/privacy-request-actions.service.js';
import { NotCorrectableError } from '../../modules/subject-data/correction.js';
import type { Services } from '../../services.js';
import { errors } from '../errors/error-catalogue.js';
import { HttpError, RequestValidationError } from '../errors/http-error.js';
import { BEARER_SECURITY, ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-request.schemas.js';
import { REDACTED } from '../validation/validate-value.js';

const BODIES: Record<OperatorAction, typeof S.ReasonBody | typeof S.CorrectionsBody | undefined> = {
  approve: undefined,
  reject: S.ReasonBody,
  cancel: S.ReasonBody,
  extend: S.ReasonBody,
  corrections: S.CorrectionsBody,
};

function translate(error: unknown): never {
  if (error instanceof RequestNotFoundError) throw errors.notFound('Privacy request');
  if (error instanceof InvalidTransitionError) {
    const verb = error.action === 'corrections' ? 'correct' : error.action;
    throw new HttpError(409, `Cannot ${verb} a request in status ${error.status}`);
  }
  if (error instanceof SelfApprovalError)
    throw new HttpError(403, 'The principal that filed this request cannot approve it; another principal must approve it');
  if (error instanceof NotCorrectableError) {
    // One item per refused field; the offered values are personal data and are not echoed.
    const items = error.problems.map((p) => ({
      type: 'value_error',
      loc: ['body', 'changes', p.field],
      msg: `Value error, ${p.problem.replaceAll('_', ' ')}`,
      input: REDACTED,
      ctx: { error: {} },
    }));
    throw new RequestValidationError(
      items.length > 0
        ? items
        : [
            {
              type: 'value_error',
              loc: ['body', 'changes'],
              msg: `Value error, ${error.reason}`,
              input: REDACTED,
              ctx: { error: {} },
            },
          ],
    );
  }
  throw error;
}

/** `POST /api/v1/privacy/requests/{id}/{approve|reject|cancel|extend|corrections}` (scope privacy:write). */
export async function privacyRequestActionRoutes(app: FastifyInstance, opts: { services: Services }) {
  const { requestActions } = opts.services;
  for (const [action, body] of Object.entries(BODIES) as [OperatorAction, (typeof BODIES)[OperatorAction]][]) {
    const schema = {
      tags: ['privacy requests'],
      security: BEARER_SECURITY,
      params: S.RequestIdParams,
      ...(body ? { body } : {}),
      response: withErrors({ 200: S.PrivacyRequestResource, 404: ErrorResponse, 409: ErrorResponse }),
    };
    app.post(`/:id/${action}`, { config: { scope: 'privacy:write' }, schema }, async (request: FastifyRequest) => {
      const { id } = request.params as { id: string };
      const input = (request.body ?? {}) as { reason?: string; changes?: Record<string, unknown> };
      try {
        return await requestActions.act(request.principal, id, action, input);
      } catch (error) {
        translate(error);
      }
    });
  }
}
