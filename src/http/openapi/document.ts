import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ErrorResponse } from '../schemas/common.schemas.js';
import { OPERATIONS } from './operations.js';

/** `/api/v1/privacy/requests/:id` → `/api/v1/privacy/requests/{id}`, as the OpenAPI document names paths. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** The `{"detail"}` answers a route can give beyond its own schema, by where it is and whether it reads a body. */
function commonResponses(url: string, method: string): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  const api = url.startsWith('/api/v1');
  if (api) Object.assign(responses, { 401: ErrorResponse, 403: ErrorResponse });
  if (api || url.startsWith('/webhook/')) Object.assign(responses, { 429: ErrorResponse, 503: ErrorResponse });
  if (method === 'POST' || method === 'PUT') Object.assign(responses, { 413: ErrorResponse, 415: ErrorResponse });
  return responses;
}

/**
 * Completes each documented route's schema for the OpenAPI document (PRODUCT.md §2.12): its
 * `operationId`, summary and description from {@link OPERATIONS}, every `{"detail"}` status the
 * route can answer (401/403 on `/api/v1`, 429 and 503 wherever a limit or the database applies,
 * 413/415 where a body is read), `security: []` on the routes that need no token. Added
 * statuses are `{"detail": string}`, the shape the error handler sends, so serialization of
 * real answers does not change. Must be registered before the routes (an `onRoute` hook).
 */
export function registerOperationDocs(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const method = String(Array.isArray(route.method) ? route.method[0] : route.method);
    if (method === 'HEAD' || (route.schema as { hide?: boolean } | undefined)?.hide) return;
    const doc = OPERATIONS[`${method} ${openApiPath(route.url)}`];
    if (!doc) return;
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const response = { ...commonResponses(route.url, method), ...(schema.response as Record<number, TSchema>), ...doc.responses };
    route.schema = {
      ...schema,
      operationId: doc.operationId,
      summary: doc.summary,
      description: doc.description,
      response,
      ...(route.url.startsWith('/api/v1') ? {} : { security: [] }),
    };
  });
}
