import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ResultKind, ResultRead } from '../../modules/privacy-requests/request-results.service.js';
import type { Services } from '../../services.js';
import { errors } from '../errors/error-catalogue.js';
import { BEARER_SECURITY, ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-request.schemas.js';

/** `an export`, `an access`, `a deletion`, `a correction`: the indefinite article by the word's first letter. */
function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'An' : 'A'} ${word}`;
}

/** The stored JSON text of a result, or the catalogue's answer for why there is none. */
function resultText(read: ResultRead, kind: ResultKind): string {
  switch (read.kind) {
    case 'found':
      return read.json;
    case 'not_found':
      throw errors.notFound('Privacy request');
    case 'wrong_type':
      throw errors.resultWrongType(withArticle(read.requestType), kind);
    case 'not_completed':
      throw errors.resultNotReady(read.status, kind);
    case 'expired':
      throw errors.packageExpired(read.at);
    case 'erased':
      throw errors.resultErased(kind);
  }
}

/**
 * `GET …/{id}/package`: the access (GDPR Art. 15) or export (Art. 20) package of a completed
 * request, as JSON. `GET …/{id}/report`: what a deletion erased and kept, or which fields a
 * correction changed. Scope privacy:read.
 */
export async function privacyRequestResultRoutes(app: FastifyInstance, opts: { services: Services }) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const kind of ['package', 'report'] as const) {
    const schema = {
      tags: ['privacy requests'],
      security: BEARER_SECURITY,
      params: S.RequestIdParams,
      response: withErrors({ 200: Type.Unknown(), 404: ErrorResponse, 409: ErrorResponse, 410: ErrorResponse }),
    };
    typed.get(`/:id/${kind}`, { config: { scope: 'privacy:read' }, schema }, async (request, reply) => {
      const text = resultText(await opts.services.requestResults.read(request.principal, request.params.id, kind), kind);
      return reply
        .type('application/json')
        .serializer((p: string) => p)
        .send(text);
    });
  }
}
