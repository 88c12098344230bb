import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DataTaskService } from '../../modules/data-systems/data-task.service.js';
import type { TaskResults } from '../../workflows/tasks/task-results.js';
import { listedWorkspaces } from '../auth/authenticate.js';
import { sentBody } from '../validation/validate-request.js';
import { DEFAULT_PAGE_LIMIT, ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/data-task.schemas.js';
import { bearerRoutes } from './bearer-route.js';

/**
 * `/api/v1/data-tasks` (PRODUCT.md §2.9): list and read tasks (scope `privacy:read` or
 * `tasks:write`), and report a task's result (scope `tasks:write`). A task outside the caller's
 * workspaces, or of a system its token is not limited to, is a 404 (no probing for ids).
 */
export async function dataTaskRoutes(
  app: FastifyInstance,
  opts: { services: { dataTasks: DataTaskService; taskResults: TaskResults } },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { dataTasks, taskResults } = opts.services;
  const route = bearerRoutes(['data-tasks'], ['privacy:read', 'tasks:write']);

  typed.get('', route({ querystring: S.ListDataTasksQuery, response: withErrors({ 200: S.DataTaskPage }) }), async (request) => {
    const { workspace_id, limit, ...filters } = request.query;
    return dataTasks.list(request.principal, {
      ...filters,
      workspaces: listedWorkspaces(request, workspace_id),
      limit: limit ?? DEFAULT_PAGE_LIMIT,
    });
  });

  typed.get(
    '/:id',
    route({ params: S.DataTaskIdParams, response: withErrors({ 200: S.DataTaskResource, 404: ErrorResponse }) }),
    async (request) => dataTasks.get(request.principal, request.params.id),
  );

  typed.post(
    '/:id/result',
    route(
      {
        params: S.DataTaskIdParams,
        body: S.TaskResultBody,
        response: withErrors({ 200: S.DataTaskResource, 404: ErrorResponse, 409: ErrorResponse, 413: ErrorResponse }),
      },
      'tasks:write',
    ),
    async (request) => taskResults.report(request.principal, request.params.id, request.body, sentBody(request)),
  );
}
