import type { FastifySchema } from 'fastify';
import { BEARER_SECURITY } from '../schemas/common.schemas.js';

/** The scope a route needs (PRODUCT.md §2.2); a list: any one of them. */
export type RouteScope = string | readonly string[];

/**
 * The options of a resource's API routes behind a bearer token: `route(schema)` is a route's
 * `config.scope` (the resource's `scope`, or the one given) and its schema, listed in the OpenAPI
 * document under `tags` with the bearer security, to which `schema` adds its params, query,
 * headers, body and responses.
 */
export function bearerRoutes(tags: string[], scope: RouteScope) {
  return <S extends FastifySchema>(schema: S, routeScope: RouteScope = scope) => ({
    config: { scope: routeScope },
    schema: { tags, security: BEARER_SECURITY, ...schema },
  });
}
