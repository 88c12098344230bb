import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ControllerService } from '../../modules/controllers/controller.service.js';
import type { PrivacyRequestActions } from '../../modules/privacy-requests/lifecycle/operator-actions.js';
import { assertWorkspace } from '../auth/authenticate.js';
import { errors } from '../errors/error-catalogue.js';
import { BEARER_SECURITY, ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/controller.schemas.js';
import { WorkspaceParams } from '../schemas/policy.schemas.js';

/**
 * `/api/v1/workspaces/{workspace_id}/controller`: the workspace's controller profile (PRODUCT
 * §2.10). GET with scope privacy:read (404 when none is set); PUT (the whole profile, audited)
 * with scope admin. A token outside the workspace gets 403. Once a profile is saved, the
 * workspace's requests waiting for it (`controller_unnamed`, PRODUCT §2.13) run on.
 */
export async function controllerProfileRoutes(
  app: FastifyInstance,
  opts: { services: { controllers: ControllerService; requestActions: PrivacyRequestActions } },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { controllers, requestActions } = opts.services;
  const base = { tags: ['workspaces'], security: BEARER_SECURITY, params: WorkspaceParams };

  typed.get(
    '/:workspace_id/controller',
    {
      config: { scope: 'privacy:read' },
      schema: { ...base, response: withErrors({ 200: S.ControllerProfileResponse, 404: ErrorResponse }) },
    },
    async (request) => {
      assertWorkspace(request, request.params.workspace_id);
      const profile = await controllers.get(request.params.workspace_id);
      if (!profile) throw errors.controllerProfileNotSet();
      return profile;
    },
  );

  typed.put(
    '/:workspace_id/controller',
    {
      config: { scope: 'admin' },
      schema: { ...base, body: S.ControllerProfileBody, response: withErrors({ 200: S.ControllerProfileResponse }) },
    },
    async (request) => {
      assertWorkspace(request, request.params.workspace_id);
      const profile = await controllers.put(request.params.workspace_id, request.body, request.principal);
      // The lifecycle's owner sends on what waited for a named controller (the leaf knows no request).
      await requestActions.controllerNamed(request.principal, request.params.workspace_id);
      return profile;
    },
  );
}
