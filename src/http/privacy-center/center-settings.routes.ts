import type { FastifyInstance } from 'fastify';
import type { PrivacyCenterSettingsService } from '../../modules/privacy-center/settings.service.js';
import { errors } from '../errors/error-catalogue.js';
import * as S from '../schemas/privacy-center.schemas.js';
import { workspaceDocumentRoutes } from '../routes/workspace-document.js';

/**
 * `/api/v1/workspaces/{workspace_id}/privacy-center` (PRODUCT §2.15, §2.21): the workspace's switch
 * for its public privacy center. GET with scope privacy:read (404 while never set: the center is
 * off), so the console shows it to every officer; PUT (audited) with scope admin. Both within the
 * token's workspaces (403 outside them).
 */
export async function privacyCenterSettingsRoutes(
  app: FastifyInstance,
  opts: { services: { privacyCenter: PrivacyCenterSettingsService } },
) {
  const { privacyCenter } = opts.services;
  workspaceDocumentRoutes(app, {
    name: 'privacy-center',
    readScope: 'privacy:read',
    body: S.PrivacyCenterSettingsBody,
    response: S.PrivacyCenterSettingsResponse,
    get: (workspaceId) => privacyCenter.get(workspaceId),
    notSet: () => errors.privacyCenterOff(),
    put: (workspaceId, body, principal) => privacyCenter.put(workspaceId, body, principal),
  });
}
