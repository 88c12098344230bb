import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findResult } from '../../jobs/result.repository.js';
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
