import type { FastifyInstance } from 'fastify';
import type { DrpAdmin } from '../../workflows/drp/drp-admin.js';
import { errors } from '../errors/error-catalogue.js';
import * as S from '../schemas/drp.schemas.js';
import { workspaceDocumentRoutes } from './workspace-document.js';

/**
 * `/api/v1/workspaces/{workspace_id}/drp` (PRODUCT §2.19): the workspace's Data Rights Protocol
 * switch and its directory entry. GET with scope privacy:read (404 while never set: DRP is off);
 * PUT (audited `drp.settings_updated`) with scope admin; 409 when another workspace holds the
 * `business_id`.
 */
export async function drpSettingsRoutes(app: FastifyInstance, opts: { services: { drpAdmin: DrpAdmin } }) {
  const { drpAdmin } = opts.services;
  workspaceDocumentRoutes(app, {
    name: 'drp',
    readScope: 'privacy:read',
    body: S.DrpSettingsBody,
    response: S.DrpSettingsResponse,
    get: (workspaceId) => drpAdmin.getSettings(workspaceId),
    notSet: () => errors.drpNotSet(),
    put: (workspaceId, body, principal) => drpAdmin.putSettings(workspaceId, body, principal),
  });
}
