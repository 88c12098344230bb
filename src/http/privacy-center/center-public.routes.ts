import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { CenterIntake } from '../../workflows/filing/center-intake.js';
import type { CenterVerifyOutcome } from '../../workflows/filing/verify-center-submission.js';
import type { CenterSubmit } from '../../workflows/privacy-center/center-submit.js';
import { errors } from '../errors/error-catalogue.js';
import { ErrorResponse, ValidationErrorResponse } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-center.schemas.js';
import { type CenterGuards, gpcSignal } from './center-guards.js';

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
 * verifies it with the mailed code, or opts out (§2.18, no code). Answers never depend on whether
 * the address is known. A submission with `Sec-GPC: 1` also records the `gpc` opt-out of sale and
 * sharing for its address. An opt-in (`choice: "opt_in"`) waits for its mailed code, as a request
 * does, and takes effect at `…/opt-outs/{id}/verify` (§2.18, 11 CCR §7028).
 */
export async function privacyCenterPublicRoutes(
  app: FastifyInstance,
  opts: { services: { centerSubmit: CenterSubmit; centerIntake: CenterIntake }; guards: CenterGuards },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { centerSubmit, centerIntake } = opts.services;
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
      const outcome = await centerSubmit.request(request.params.workspace_id, request.body, { gpc: gpcSignal(request) });
      if (outcome.kind === 'center_off') throw errors.privacyCenterOff();
      if (outcome.kind === 'type_not_enabled') throw errors.requestTypeNotOffered(request.body.request_type, outcome.offered);
      return reply.code(202).send({ id: outcome.id, status: 'identity_unverified' });
    },
  );

  typed.post(
    '/:workspace_id/opt-outs',
    {
      bodyLimit: PUBLIC_BODY_LIMIT,
      schema: {
        tags: ['privacy-center'],
        params: S.CenterParams,
        body: S.CenterOptOutBody,
        response: {
          202: Type.Union([S.CenterOptOutResponse, S.SubmissionResponse]),
          404: ErrorResponse,
          422: ValidationErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { email, kinds, choice, captcha_token } = request.body;
      const ws = request.params.workspace_id;
      if (choice === 'opt_in') {
        // The code mailed to the address is the person's confirmation: the per-address code limit applies.
        await guards.admit(request, { email, captcha_token });
        const outcome = await centerSubmit.optIn(ws, { email, kinds }, { gpc: gpcSignal(request) });
        if (outcome.kind !== 'submitted') throw errors.privacyCenterOff();
        return reply.code(202).send({ id: outcome.id, status: 'identity_unverified' as const });
      }
      await guards.admitWithoutCode(request, { captcha_token });
      const outcome = await centerSubmit.optOuts(ws, { email, kinds, gpc: gpcSignal(request) });
      if (outcome.kind === 'center_off') throw errors.privacyCenterOff();
      return reply.code(202).send({ opt_outs: outcome.opt_outs });
    },
  );

  typed.post(
    '/:workspace_id/opt-outs/:id/verify',
    {
      bodyLimit: PUBLIC_BODY_LIMIT,
      schema: {
        tags: ['privacy-center'],
        params: S.SubmissionParams,
        body: S.VerifyBody,
        response: { 200: S.CenterOptOutResponse, 422: ValidationErrorResponse },
      },
    },
    async (request) => {
      const outcome = await centerSubmit.verifyOptIn(request.params.workspace_id, request.params.id, request.body.code);
      if (outcome.kind !== 'recorded') throw verifyError(outcome);
      return { opt_outs: outcome.opt_outs };
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
