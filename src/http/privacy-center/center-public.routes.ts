import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { SubmissionService } from '../../modules/privacy-center/submission.service.js';
import type { CenterIntake } from '../../workflows/filing/center-intake.js';
import type { CenterVerifyOutcome } from '../../workflows/filing/verify-center-submission.js';
import { errors } from '../errors/error-catalogue.js';
import { ErrorResponse, ValidationErrorResponse } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-center.schemas.js';
import type { CenterGuards } from './center-guards.js';

/** Largest body the public routes accept, bytes: a submission is a few hundred. */
export const PUBLIC_BODY_LIMIT = 4096;

/** The answer of a verification that did not file, as the catalogue's error. */
export function verifyError(outcome: Exclude<CenterVerifyOutcome, { kind: 'filed' }>): Error {
  switch (outcome.kind) {
    case 'wrong':
      return errors.codeWrong(outcome.attemptsLeft);
    case 'void':
      return errors.codeVoid();
    case 'expired':
      return errors.codeExpired();
    case 'not_found':
      return errors.submissionNotFound();
  }
}

/**
 * The privacy center's JSON API (PRODUCT §2.15), no bearer token: a person submits a request and
 * verifies it with the mailed code. Answers never depend on whether the address is known.
 */
export async function privacyCenterPublicRoutes(
  app: FastifyInstance,
  opts: { services: { centerSubmissions: SubmissionService; centerIntake: CenterIntake }; guards: CenterGuards },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { centerSubmissions, centerIntake } = opts.services;
  const { guards } = opts;

  typed.post(
    '/:workspace_id/requests',
    {
      bodyLimit: PUBLIC_BODY_LIMIT,
      schema: {
        tags: ['privacy-center'],
        params: S.CenterParams,
        body: S.SubmissionBody,
        response: { 202: S.SubmissionResponse, 404: ErrorResponse, 422: ValidationErrorResponse, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      await guards.admit(request, request.body);
      const outcome = await centerSubmissions.submit(request.params.workspace_id, request.body);
      if (outcome.kind === 'center_off') throw errors.privacyCenterOff();
      if (outcome.kind === 'type_not_enabled') throw errors.requestTypeNotOffered(request.body.request_type, outcome.offered);
      return reply.code(202).send({ id: outcome.id, status: 'identity_unverified' });
    },
  );

  typed.post(
    '/:workspace_id/requests/:id/verify',
    {
      bodyLimit: PUBLIC_BODY_LIMIT,
      schema: {
        tags: ['privacy-center'],
        params: S.SubmissionParams,
        body: S.VerifyBody,
        response: { 200: S.VerifyResponse, 422: ValidationErrorResponse },
      },
    },
    async (request) => {
      const outcome = await centerIntake.verify(request.params.workspace_id, request.params.id, request.body.code);
      if (outcome.kind !== 'filed') throw verifyError(outcome);
      return { status: outcome.status };
    },
  );
}
