import type { FastifyInstance } from 'fastify';
import type { ControllerService } from '../../workflows/controllers/controller-profiles.js';
import type { PrivacyRequestActions } from '../../workflows/requests/request-actions.js';
import { errors } from '../errors/error-catalogue.js';
import * as S from '../schemas/controller.schemas.js';
import { workspaceDocumentRoutes } from './workspace-document.js';

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
  const { controllers, requestActions } = opts.services;
  workspaceDocumentRoutes(app, {
    name: 'controller',
    readScope: 'privacy:read',
    body: S.ControllerProfileBody,
    response: S.ControllerProfileResponse,
    get: (workspaceId) => controllers.get(workspaceId),
    notSet: () => errors.controllerProfileNotSet(),
    put: async (workspaceId, body, principal) => {
      const profile = await controllers.put(workspaceId, body, principal);
      // The lifecycle's owner sends on what waited for a named controller (the leaf knows no request).
      await requestActions.controllerNamed(principal, workspaceId);
      return profile;
    },
  });
}
