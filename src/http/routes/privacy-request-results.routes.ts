import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ResultKind, ResultRead } from '../../workflows/results/read-result.js';
import type { DataSystemService } from '../../modules/data-systems/data-system.service.js';
import type { RequestResultsService } from '../../workflows/results/request-results.js';
import { hasScope } from '../../modules/principals/scopes.js';
import { errors } from '../errors/error-catalogue.js';
import { renderAccessLetter } from '../letters/access-letter.js';
import { letterInput } from '../letters/letter-input.js';
import { LETTER_CSP } from '../letters/letter-style.js';
import { wantsHtml } from '../letters/wants-html.js';
import { ErrorResponse, StringEnum, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-request.schemas.js';
import { bearerRoutes } from './bearer-route.js';

/** `an export`, `an access`, `a deletion`, `a correction`: the indefinite article by the word's first letter. */
function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'An' : 'A'} ${word}`;
}

/** `?format=` of the package route: `json` (the default) or `html` (the readable letter). */
const PackageQuery = Type.Object({
  format: Type.Optional(StringEnum(['json', 'html'] as const)),
  unredacted: Type.Optional(
    Type.Boolean({
      description: "The package as found, without its review's redactions (PRODUCT §2.20); scope `admin`",
    }),
  ),
});

/** The found result, or the catalogue's answer for why there is none. */
function found(read: ResultRead, kind: ResultKind): Extract<ResultRead, { kind: 'found' }> {
  switch (read.kind) {
    case 'found':
      return read;
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
 * request (or one waiting for its review, PRODUCT §2.20: with its redactions applied; `?unredacted=true`,
 * scope admin, as found), as JSON, or as the readable HTML letter (PRODUCT §2.11) with `?format=html` or an
 * `Accept` that prefers `text/html` (its own CSP: only its inline style applies). `GET …/{id}/report`:
 * what a deletion erased and kept, or which fields a correction changed, naming its request.
 * Scope privacy:read.
 */
export async function privacyRequestResultRoutes(
  app: FastifyInstance,
  opts: { services: { dataSystems: DataSystemService; requestResults: RequestResultsService } },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const route = bearerRoutes(['privacy requests'], 'privacy:read');
  const schema = {
    params: S.RequestIdParams,
    response: withErrors({ 200: Type.Unknown(), 404: ErrorResponse, 409: ErrorResponse, 410: ErrorResponse }),
  };
  const asJson = (reply: FastifyReply, text: string) =>
    reply
      .type('application/json')
      .serializer((p: string) => p)
      .send(text);

  typed.get('/:id/package', route({ ...schema, querystring: PackageQuery }), async (request, reply) => {
    const unredacted = request.query.unredacted === true;
    if (unredacted && !hasScope(request.principal.scopes, 'admin')) throw errors.missingScope('admin');
    // An operator reads a package that waits for its review too (never its delivery: read-result.ts).
    const read = { deliver: true, duringReview: true, unredacted };
    const result = found(
      await opts.services.requestResults.read(request.principal, request.params.id, 'package', read),
      'package',
    );
    reply.header('Vary', 'Accept');
    if (!wantsHtml(request.query.format, request.headers.accept)) return asJson(reply, result.json);
    const names = await opts.services.dataSystems.namesIn(result.request.workspace_id);
    const html = renderAccessLetter(letterInput(JSON.parse(result.json) as Record<string, unknown>, result.request, names));
    return reply
      .header('Content-Security-Policy', LETTER_CSP)
      .type('text/html; charset=utf-8')
      .serializer((p: string) => p)
      .send(html);
  });

  typed.get('/:id/report', route(schema), async (request, reply) => {
    const result = found(await opts.services.requestResults.read(request.principal, request.params.id, 'report'), 'report');
    return asJson(reply, result.json);
  });
}
