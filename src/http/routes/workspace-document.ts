import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../modules/principals/principal.js';
import { assertWorkspace } from '../auth/authenticate.js';
import { ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import { WorkspaceParams } from '../schemas/policy.schemas.js';
import { bearerRoutes } from './bearer-route.js';

/** One document a workspace has at most one of (its controller profile, its privacy center switch). */
export interface WorkspaceDocument<Body extends TSchema, Doc extends TSchema> {
  /** The last path segment: `/:workspace_id/<name>`. */
  name: string;
  /** The scope GET needs (PUT needs `admin`). */
  readScope: string;
  body: Body;
  response: Doc;
  /** The stored document, or null/undefined when none is. */
  get(workspaceId: string): Promise<Static<Doc> | null | undefined>;
  /** The 404 GET answers while none is stored. */
  notSet(): Error;
  /** Replaces the document whole (audited by the service) and answers it. */
  put(workspaceId: string, body: Static<Body>, principal: Principal): Promise<Static<Doc>>;
}

/**
 * `GET` and `PUT /:workspace_id/<name>` of a {@link WorkspaceDocument}, tagged `workspaces`, within
 * the caller's workspaces (403 outside them).
 */
export function workspaceDocumentRoutes<Body extends TSchema, Doc extends TSchema>(
  app: FastifyInstance,
  doc: WorkspaceDocument<Body, Doc>,
): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const route = bearerRoutes(['workspaces'], 'admin');
  const path = `/:workspace_id/${doc.name}`;
  typed.get(
    path,
    route({ params: WorkspaceParams, response: withErrors({ 200: doc.response, 404: ErrorResponse }) }, doc.readScope),
    async (request) => {
      assertWorkspace(request, request.params.workspace_id);
      const found = await doc.get(request.params.workspace_id);
      if (!found) throw doc.notSet();
      return found;
    },
  );
  typed.put(
    path,
    route({ params: WorkspaceParams, body: doc.body, response: withErrors({ 200: doc.response }) }),
    async (request) => {
      assertWorkspace(request, request.params.workspace_id);
      return doc.put(request.params.workspace_id, request.body, request.principal);
    },
  );
}
