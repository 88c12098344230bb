import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { DrpProtocol } from '../../workflows/drp/drp-protocol.js';
import { drpBody, refuse } from './drp-answer.js';
import { DrpErrorBody } from './drp.schemas.js';

const KeySetupAnswer = Type.Object({ 'agent-id': Type.String(), token: Type.String() });

/**
 * `POST /drp/v1/agent/{agent-id}` (Pair-wise Key Setup, DRP §2.05) and `GET
 * /drp/v1/agent/{agent-id}` (Agent Information, §2.06), PRODUCT §2.19. Key setup answers 200
 * `{"agent-id", "token"}` or a 403 with an empty body for every failure; Agent Information needs
 * the agent's bearer token (401 otherwise) and answers `{}`, a 403 for another agent's path.
 */
export async function drpAgentRoutes(app: FastifyInstance, opts: { services: { drp: DrpProtocol } }) {
  const { drp } = opts.services;
  app.post<{ Params: { agentId: string } }>(
    '/v1/agent/:agentId',
    { schema: { tags: ['drp'], response: { 200: KeySetupAnswer } } },
    async (request, reply) => {
      const paired = await drp.pair(request.params.agentId, drpBody(request));
      if (!paired.ok) return refuse(reply, paired.failure, 'key_setup');
      return { 'agent-id': paired.value.agentId, token: paired.value.token };
    },
  );
  app.get<{ Params: { agentId: string } }>(
    '/v1/agent/:agentId',
    { schema: { tags: ['drp'], response: { 200: Type.Object({}), 401: DrpErrorBody, 403: DrpErrorBody } } },
    async (request, reply) => {
      const caller = await drp.caller(request.headers.authorization);
      if (!caller.ok) return refuse(reply, caller.failure, 'other');
      if (caller.value.agent.agent_id !== request.params.agentId)
        return refuse(reply, { reason: 'agent_path_mismatch' }, 'other');
      return {};
    },
  );
}
