import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findResult } from '../../jobs/result.repository.js';
import { toTimestamp } from '../../lib/clock.js';
import { coversWorkspace } from '../../modules/tokens/principal.js';
import type { Services } from '../../services.js';
import { errors } from '../errors/error-catalogue.js';
import { HttpError } from '../errors/http-error.js';
import { BEARER_SECURITY, ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-request.schemas.js';

const KINDS = {
  package: { types: ['access', 'export'], column: 'package' },
  report: { types: ['deletion', 'correction'], column: 'report' },
} as const;

/** `an export`, `an access`, `a deletion`, `a correction`: the indefinite article by the word's first letter. */
function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'An' : 'A'} ${word}`;
}

/**
 * When the request's package expired (deleted by the retention sweeper, or past its expiry and
 * not swept yet), or null while it is current or was never there.
 */
function packageExpiredAt(
  result: { package: string | null; package_expires_at: string | null; package_expired_at: string | null } | undefined,
  now: string,
): string | null {
  if (result?.package_expired_at) return result.package_expires_at ?? result.package_expired_at;
  if (result?.package && result.package_expires_at && result.package_expires_at <= now) return result.package_expires_at;
  return null;
}

async function load(services: Services, request: FastifyRequest, kind: keyof typeof KINDS): Promise<string> {
  const { id } = request.params as { id: string };
  const found = await services.privacyRequests.get(id);
  if (!found || !coversWorkspace(request.principal, found.workspace_id)) throw errors.notFound('Privacy request');
  const { types, column } = KINDS[kind];
  if (!(types as readonly string[]).includes(found.request_type))
    throw new HttpError(409, `${withArticle(found.request_type)} request has no ${kind}`);
  if (found.status !== 'completed')
    throw new HttpError(409, `The request is ${found.status}; its ${kind} exists once it is completed`);
  const result = await findResult(services.database.db, id);
  const text = result?.[column];
  const expiredAt = kind === 'package' ? packageExpiredAt(result, toTimestamp(services.clock())) : null;
  if (expiredAt)
    throw new HttpError(
      410,
      `This package expired at ${expiredAt}: packages are kept for a limited time after completion and no longer ` +
        'than the data they copied; file a new access or export request for a current copy',
    );
  // A package erased by a later deletion request of the same subject is gone for good.
  if (!text) throw new HttpError(410, `This ${kind} no longer exists (erased)`);
  return text;
}

/**
 * `GET …/{id}/package`: the access (GDPR Art. 15) or export (Art. 20) package of a completed
 * request, as JSON. `GET …/{id}/report`: what a deletion erased and kept, or which fields a
 * correction changed. Scope privacy:read.
 */
export async function privacyRequestResultRoutes(app: FastifyInstance, opts: { services: Services }) {
  for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
    const schema = {
      tags: ['privacy requests'],
      security: BEARER_SECURITY,
      params: S.RequestIdParams,
      response: withErrors({ 200: Type.Unknown(), 404: ErrorResponse, 409: ErrorResponse, 410: ErrorResponse }),
    };
    app.get(`/:id/${kind}`, { config: { scope: 'privacy:read' }, schema }, async (request, reply) => {
      const text = await load(opts.services, request, kind);
      return reply
        .type('application/json')
        .serializer((p: string) => p)
        .send(text);
    });
  }
}
