import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { DrpProtocol } from '../../workflows/drp/drp-protocol.js';
import { drpBody, exercised, refuse } from './drp-answer.js';
import { DrpErrorBody, DrpStatusObjectSchema } from './drp.schemas.js';

const ERRORS = { 400: DrpErrorBody, 401: DrpErrorBody, 403: DrpErrorBody, 404: DrpErrorBody, 409: DrpErrorBody };
const RequestIdParams = Type.Object({ request_id: Type.String() });

/**
 * Data Rights Exercise, Status and Revoke (DRP §2.01–§2.04; PRODUCT §2.19):
 * `POST /drp/v1/data-rights-request` (a trailing `/` too) answers 200 with the status object (not
 * 202: DRP §3.06); `GET …/{request_id}` the status object now; `DELETE …/{request_id}` revokes.
 * Every refusal in DRP's error body.
 */
export async function drpRequestRoutes(app: FastifyInstance, opts: { services: { drp: DrpProtocol } }) {
  const { drp } = opts.services;
  const response = { 200: DrpStatusObjectSchema, ...ERRORS };
  for (const path of ['/v1/data-rights-request', '/v1/data-rights-request/']) {
    // The trailing-slash spelling (OSIRAA's) is the same operation: documented once.
    const schema = { tags: ['drp'], response, ...(path.endsWith('/') ? { hide: true } : {}) };
    app.post(path, { schema }, async (request, reply) => {
      const answer = await drp.exercise(request.headers.authorization, drpBody(request));
      if (!answer.ok) return refuse(reply, answer.failure, 'other');
      exercised.set(request, { exercise: answer.value.exercise, outcome: answer.value.outcome });
      return answer.value.answer;
    });
  }
  app.get<{ Params: { request_id: string } }>(
    '/v1/data-rights-request/:request_id',
    { schema: { tags: ['drp'], params: RequestIdParams, response: { 200: DrpStatusObjectSchema, ...ERRORS } } },
    async (request, reply) => {
      const answer = await drp.status(request.headers.authorization, request.params.request_id);
      return answer.ok ? answer.value : refuse(reply, answer.failure, 'other');
    },
  );
  app.delete<{ Params: { request_id: string } }>(
    '/v1/data-rights-request/:request_id',
    { schema: { tags: ['drp'], params: RequestIdParams, response: { 200: DrpStatusObjectSchema, ...ERRORS } } },
    async (request, reply) => {
      const answer = await drp.revoke(request.headers.authorization, request.params.request_id, drpBody(request));
      return answer.ok ? answer.value : refuse(reply, answer.failure, 'other');
    },
  );
}
