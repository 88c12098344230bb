import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { PrivacyCenterSettingsService } from '../../modules/privacy-center/settings.service.js';
import { assertWorkspace } from '../auth/authenticate.js';
import { errors } from '../errors/error-catalogue.js';
import { BEARER_SECURITY, ErrorResponse, withErrors } from '../schemas/common.schemas.js';
import * as S from '../schemas/privacy-center.schemas.js';
import { WorkspaceParams } from '../schemas/policy.schemas.js';

/**
 * `/api/v1/workspaces/{workspace_id}/privacy-center` (PRODUCT §2.15): the workspace's switch for
 * its public privacy center. GET and PUT (audited) with scope admin, within the token's workspaces.
 */
export async function privacyCenterSettingsRoutes(
  app: FastifyInstance,
  opts: { services: { privacyCenter: PrivacyCenterSettingsService } },
) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { privacyCenter } = opts.services;
  const base = { tags: ['workspaces'], security: BEARER_SECURITY, params: WorkspaceParams };

  typed.get(
    '/:workspace_id/privacy-center',
    {
      config: { scope: 'admin' },
      schema: { ...base, response: withErrors({ 200: S.PrivacyCenterSettingsResponse, 404: ErrorResponse }) },
    },
    async (request) => {
      assertWorkspace(request, request.params.workspace_id);
      const settings = await privacyCenter.get(request.params.workspace_id);
      if (!settings) throw errors.privacyCenterOff();
      return settings;
    },
  );

  typed.put(
    '/:workspace_id/privacy-center',
    {
      config: { scope: 'admin' },
      schema: { ...base, body: S.PrivacyCenterSettingsBody, response: withErrors({ 200: S.PrivacyCenterSettingsResponse }) },
    },
    async (request) => {
      assertWorkspace(request, request.params.workspace_id);
      return privacyCenter.put(request.params.workspace_id, request.body, request.principal);
    },
  );
}
