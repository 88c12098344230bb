import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TArray, TObject, TOptional, TString } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { listedWorkspaces } from '../auth/authenticate.js';
import { withErrors } from '../schemas/common.schemas.js';
import type { bearerRoutes } from './bearer-route.js';

/** A list's query: `workspace_id`, one of the caller's workspaces (absent: all of them). */
export type WorkspaceListQuery = TObject<{ workspace_id: TOptional<TString> }>;

/**
 * `GET ''` of a resource: `{ items }`, what `items` finds in the workspaces the request lists
 * (`listedWorkspaces`: the one `workspace_id` names, a 403 outside the caller's; else every
 * workspace of the caller).
 * @param route - the resource's route options (its scope, tags and security).
 */
export function listRoute(
  app: FastifyInstance,
  route: ReturnType<typeof bearerRoutes>,
  schema: { querystring: WorkspaceListQuery; response: TObject<{ items: TArray }> },
  items: (workspaces: readonly string[] | '*') => Promise<unknown[]>,
): void {
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get('', route({ querystring: schema.querystring, response: withErrors({ 200: schema.response }) }), async (request) => ({
      items: await items(listedWorkspaces(request, request.query.workspace_id)),
    }));
}
