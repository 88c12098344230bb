import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ProcessingField, UpdateDataSystemInput } from '../../modules/data-systems/data-system.types.js';
import type { DataSystemService } from '../../modules/data-systems/data-system.service.js';
import type { DataSystemConnectorService } from '../../workflows/data-systems/database-dry-runs.js';
import { assertWorkspace } from '../auth/authenticate.js';
import { RequestValidationError } from '../errors/http-error.js';
import { ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/data-system.schemas.js';
import { PreviewBody, PreviewResponse, TestResponse } from '../schemas/data-system-dry-run.schemas.js';
import type { ErrorItem } from '../validation/error-item.js';
import { validateValue } from '../validation/validate-value.js';
import { bearerRoutes } from './bearer-route.js';
import { listRoute } from './list-route.js';

/** The most a dataset route's 422 echoes as one item's `input`, UTF-8 bytes (PRODUCT §2.17). */
export const DATASET_ERROR_INPUT_BYTES = 1024;

const NULLABLE: Record<'endpoint_id' | 'due_days' | ProcessingField, TSchema> = {
  endpoint_id: S.CreateDataSystemBody.properties.endpoint_id,
  due_days: S.CreateDataSystemBody.properties.due_days,
  purposes: S.CreateDataSystemBody.properties.purposes,
  recipients: S.CreateDataSystemBody.properties.recipients,
  retention: S.CreateDataSystemBody.properties.retention,
  source: S.CreateDataSystemBody.properties.source,
};

/**
 * The PATCH fields that may be `null` (Pydantic `Optional[...]`): null passes, anything else is
 * checked as the create body checks it, errors at the same `loc`.
 * @throws RequestValidationError with every problem.
 */
function checkNullable(body: Record<string, unknown>): void {
  const problems: ErrorItem[] = [];
  for (const [field, schema] of Object.entries(NULLABLE))
    if (body[field] !== undefined && body[field] !== null)
      validateValue(schema, body[field], ['body', field], 'strict', problems);
  if (problems.length > 0) throw new RequestValidationError(problems);
}

/**
 * `/api/v1/data-systems` (scope `admin`, PRODUCT.md §2.9, §2.14): register, list, read, change and
 * delete a workspace's data systems; preview and test a database system. A system outside the
 * caller's workspaces is a 404.
 */
export async function dataSystemRoutes(
  app: FastifyInstance,
  opts: { services: { dataSystems: DataSystemService; dataSystemConnectors: DataSystemConnectorService } },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { dataSystems, dataSystemConnectors } = opts.services;
  const route = bearerRoutes(['data-systems'], 'admin');
  /** A route that takes a dataset: a 422's `input` is cut to 1 KiB (PRODUCT §2.17). */
  const takesDataset = <O extends { config: object }>(options: O) => ({
    ...options,
    config: { ...options.config, errorInputBytes: DATASET_ERROR_INPUT_BYTES },
  });

  typed.post(
    '',
    takesDataset(
      route({ body: S.CreateDataSystemBody, response: withErrors({ 201: S.DataSystemResource, 409: ErrorResponse }) }),
    ),
    async (request, reply) => {
      assertWorkspace(request, request.body.workspace_id);
      const created = await dataSystems.create(request.body, request.principal);
      return reply.code(201).header('Location', `/api/v1/data-systems/${created.id}`).send(created);
    },
  );

  listRoute(app, route, { querystring: S.DataSystemListQuery, response: S.DataSystemList }, (workspaces) =>
    dataSystems.list(workspaces),
  );

  typed.get(
    '/:id',
    route({ params: S.DataSystemIdParams, response: withErrors({ 200: S.DataSystemResource, 404: ErrorResponse }) }),
    async (request) => dataSystems.get(request.principal, request.params.id),
  );

  typed.patch(
    '/:id',
    takesDataset(
      route({
        params: S.DataSystemIdParams,
        body: S.UpdateDataSystemBody,
        response: withErrors({ 200: S.DataSystemResource, 404: ErrorResponse, 409: ErrorResponse, 413: ErrorResponse }),
      }),
    ),
    async (request) => {
      checkNullable(request.body as Record<string, unknown>);
      return dataSystems.update(request.principal, request.params.id, request.body as UpdateDataSystemInput);
    },
  );

  typed.delete(
    '/:id',
    route({ params: S.DataSystemIdParams, response: withErrors({ 404: ErrorResponse }, false) }),
    async (request, reply) => {
      await dataSystems.remove(request.principal, request.params.id);
      return reply.code(204).send();
    },
  );

  typed.post(
    '/:id/preview',
    route({
      params: S.DataSystemIdParams,
      body: PreviewBody,
      response: withErrors({ 200: PreviewResponse, 404: ErrorResponse, 409: ErrorResponse, 502: ErrorResponse }),
    }),
    async (request) => dataSystemConnectors.preview(request.principal, request.params.id, request.body),
  );

  typed.post(
    '/:id/test',
    route({
      params: S.DataSystemIdParams,
      response: withErrors({ 200: TestResponse, 404: ErrorResponse, 409: ErrorResponse }),
    }),
    async (request) => dataSystemConnectors.test(request.principal, request.params.id),
  );
}
