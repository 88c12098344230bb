import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DrpFailureReason } from '../../modules/drp/drp-failure.types.js';
import { type DrpRoute, drpRefusal } from '../../modules/drp/drp-errors.fns.js';
import type { DrpFailure } from '../../modules/drp/drp-failure.types.js';

/** Largest DRP body accepted, bytes (PRODUCT §2.19: 64 KiB, else 413). */
export const DRP_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Answers a refused DRP call (PRODUCT §2.19, "DRP error body"): the status, DRP §3.06's body (none
 * at all on key setup), and the headers of {@link drpRefusal}. The refusal is logged with its
 * reason only, never the body or a claim.
 */
export function refuse(reply: FastifyReply, failure: DrpFailure, route: DrpRoute): FastifyReply {
  const refusal = drpRefusal(failure, route);
  reply.request.log.info({ drp_refused: failure.reason }, 'DRP call refused');
  refusals.set(reply.request, failure.reason);
  reply.code(refusal.status).headers(refusal.headers);
  return refusal.body === null ? reply.send() : reply.type('application/json').send(refusal.body);
}

/** The reason each refused call was refused, noted by {@link refuse} for `drp_refused_total`. */
const refusals = new WeakMap<FastifyRequest, DrpFailureReason>();

/** Why `request` was refused, or undefined when it was not. */
export function refusalOf(request: FastifyRequest): DrpFailureReason | undefined {
  return refusals.get(request);
}

/** The raw body of a DRP call (bytes, whatever the `Content-Type`), or an empty buffer. */
export function drpBody(request: { rawBody?: Buffer }): Buffer {
  return request.rawBody ?? Buffer.alloc(0);
}

/** The exercise and outcome of each exercise answered, noted by its route for `drp_requests_total`. */
export const exercised = new WeakMap<FastifyRequest, { exercise: string; outcome: string }>();
