import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { PrivacyCenterSettingsService } from '../../modules/privacy-center/settings.service.js';
import type { AgentRequests } from '../../workflows/privacy-center/agent-requests/agent-requests.js';
import { errors } from '../errors/error-catalogue.js';
import { ErrorResponse, ValidationErrorResponse } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-center.schemas.js';
import type { CenterGuards } from './center-guards.js';
import { PUBLIC_BODY_LIMIT, verifyError } from './center-public.routes.js';

/** Whether workspace `ws` takes agent requests at its center: on, with `agent_requests` (PRODUCT §2.19). */
export async function agentPathOn(settings: Pick<PrivacyCenterSettingsService, 'get'>, ws: string): Promise<boolean> {
  const center = await settings.get(ws);
  return center?.enabled === true && center.agent_requests;
}

/**
 * The privacy center's agent path, JSON (PRODUCT §2.19, 11 CCR §7063(a)), no bearer token: an
 * authorized agent outside DRP submits (`…/agent-requests`, 202) under the center's limits and
 * CAPTCHA (the per-address limit counts the agent's address), and verifies its address with the
 * mailed code (`…/agent-requests/{id}/verify`, 200 `awaiting_confirmation`; 403 wrong, 429 void,
 * 410 expired, as a person's). The person is then mailed to confirm (center-agent-pages.routes.ts).
 * A center that is off, or on without `agent_requests`, answers 404 on both.
 */
export async function centerAgentRoutes(
  app: FastifyInstance,
  opts: { services: { agentRequests: AgentRequests; privacyCenter: PrivacyCenterSettingsService }; guards: CenterGuards },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { agentRequests, privacyCenter } = opts.services;

  typed.post(
    '/:workspace_id/agent-requests',
    {
      bodyLimit: PUBLIC_BODY_LIMIT,
      schema: {
        tags: ['privacy-center'],
        params: S.CenterParams,
        body: S.AgentRequestBody,
        response: { 202: S.SubmissionResponse, 404: ErrorResponse, 422: ValidationErrorResponse, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { captcha_token, ...input } = request.body;
      const ws = request.params.workspace_id;
      if (!(await agentPathOn(privacyCenter, ws))) throw errors.agentRequestsOff();
      await guards(request, input.agent_email, captcha_token);
      const outcome = await agentRequests.submit(ws, input);
      if (outcome.kind === 'agent_path_off') throw errors.agentRequestsOff();
      if (outcome.kind === 'type_not_enabled') throw errors.requestTypeNotOffered(input.request_type, outcome.offered);
      return reply.code(202).send({ id: outcome.id, status: 'identity_unverified' as const });
    },
  );

  typed.post(
    '/:workspace_id/agent-requests/:id/verify',
    {
      bodyLimit: PUBLIC_BODY_LIMIT,
      schema: {
        tags: ['privacy-center'],
        params: S.SubmissionParams,
        body: S.VerifyBody,
        response: {
          200: S.AgentVerifyResponse,
          403: ErrorResponse,
          404: ErrorResponse,
          410: ErrorResponse,
          422: ValidationErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request) => {
      const { workspace_id: ws, id } = request.params;
      if (!(await agentPathOn(privacyCenter, ws))) throw errors.agentRequestsOff();
      const outcome = await agentRequests.verify(ws, id, request.body.code);
      if (outcome.kind === 'not_found') throw errors.agentSubmissionNotFound();
      if (outcome.kind !== 'verified') throw verifyError(outcome);
      return { status: 'awaiting_confirmation' as const };
    },
  );

  /** The center's abuse checks, the agent's address counted per address. */
  function guards(request: Parameters<CenterGuards['admit']>[0], agentEmail: string, captcha: string | undefined) {
    return opts.guards.admit(request, { email: agentEmail, ...(captcha === undefined ? {} : { captcha_token: captcha }) });
  }
}
