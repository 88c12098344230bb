import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { PrivacyRequestActions } from '../../workflows/requests/request-actions.js';
import { runBulkAction } from '../../workflows/requests/bulk-action.js';
import type { RequestNotesService } from '../../workflows/request-notes/request-notes.js';
import type { Principal } from '../../modules/principals/principal.js';
import { assertWorkspace } from '../auth/authenticate.js';
import { fromDomainError } from '../errors/domain-errors.js';
import { HttpError, RequestValidationError } from '../errors/http-error.js';
import { pydanticError } from '../validation/error-item.js';
import { sentBody } from '../validation/validate-request.js';
import { ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as O from '../schemas/officer.schemas.js';
import { PrivacyRequestResource, RequestIdParams } from '../schemas/privacy-request.schemas.js';
import { bearerRoutes } from './bearer-route.js';
import type { Bound } from '../../lib/bind-deps.js';
import type { readQueueStats } from '../../workflows/opt-outs/read-queue-stats.js';

type BulkBody = (typeof O.BulkBody)['static'];

/** The workspaces a read covers: those named (each checked, 403), else every one the caller may read (null: all). */
export function readableWorkspaces(
  request: Parameters<typeof assertWorkspace>[0] & { principal: Principal },
  named: readonly string[] | undefined,
): readonly string[] | null {
  for (const workspaceId of named ?? []) assertWorkspace(request, workspaceId);
  const { principal } = request;
  return named ?? (principal.workspaces === '*' ? null : [...principal.workspaces]);
}

/**
 * The body's rule across fields (a Pydantic `model_validator`): reject, cancel and extend need a
 * `reason`, assign an `assignee` (null unassigns). A 422 at `["body"]`, nothing done.
 */
function bulkBodyProblem(body: BulkBody): string | null {
  if ((body.action === 'reject' || body.action === 'cancel' || body.action === 'extend') && body.reason === undefined)
    return `${body.action} needs a reason`;
  if (body.action === 'assign' && body.assignee === undefined) return 'assign needs an assignee (null to unassign)';
  return null;
}

/**
 * The officer's day (PRODUCT §2.16) under `/api/v1/privacy/requests`: the queue's counts,
 * assignment, notes and bulk actions.
 */
export async function officerRoutes(
  app: FastifyInstance,
  opts: {
    services: {
      requestActions: PrivacyRequestActions;
      requestNotes: RequestNotesService;
      /** The queue's counts with the opt-outs': {@link readQueueStats}. */
      queueStats: Bound<typeof readQueueStats>;
    };
  },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { requestActions, requestNotes, queueStats } = opts.services;
  const tags = ['privacy requests'];
  const route = bearerRoutes(tags, 'privacy:write');

  typed.get(
    '/stats',
    route({ querystring: O.QueueStatsQuery, response: withErrors({ 200: O.QueueStats }) }, 'privacy:read'),
    async (request) => queueStats(readableWorkspaces(request, request.query.workspace_id)),
  );

  typed.post(
    '/:id/assign',
    route({
      params: RequestIdParams,
      body: O.AssignBody,
      response: withErrors({ 200: PrivacyRequestResource, 404: ErrorResponse, 409: ErrorResponse }),
    }),
    async (request) => requestActions.assign(request.principal, request.params.id, request.body),
  );

  typed.post(
    '/:id/notes',
    route({ params: RequestIdParams, body: O.NoteBody, response: withErrors({ 201: O.NoteResource, 404: ErrorResponse }) }),
    async (request, reply) => {
      const note = await requestNotes.add(request.principal, request.params.id, request.body.text);
      return reply.code(201).send(note);
    },
  );

  typed.get(
    '/:id/notes',
    route({ params: RequestIdParams, response: withErrors({ 200: O.NoteList, 404: ErrorResponse }) }, 'privacy:read'),
    async (request) => ({ items: await requestNotes.list(request.principal, request.params.id) }),
  );

  typed.post('/bulk', route({ body: O.BulkBody, response: withErrors({ 200: O.BulkResults }) }), async (request) => {
    const { body, principal } = request;
    const problem = bulkBodyProblem(body);
    if (problem !== null) throw new RequestValidationError([pydanticError.valueError(['body'], sentBody(request), problem)]);
    const outcomes = await runBulkAction(requestActions, principal, body);
    const results = outcomes.map((outcome) => {
      if (!('failure' in outcome)) return outcome;
      const answer = fromDomainError(outcome.failure);
      if (answer instanceof HttpError) return { id: outcome.id, status: answer.statusCode, error: answer.detail };
      request.log.error({ err: outcome.failure }, 'bulk action failed for one request');
      return { id: outcome.id, status: 500, error: 'Internal error; this request was not changed' };
    });
    return { results };
  });
}
