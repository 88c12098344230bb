import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AuditService } from '../../modules/audit/audit.service.js';
import { assertWorkspace } from '../auth/authenticate.js';
import { errors } from '../errors/error-catalogue.js';
import * as S from '../schemas/audit-event.schemas.js';
import { DEFAULT_PAGE_LIMIT, withErrors } from '../schemas/common.schemas.js';
import { bearerRoutes } from './bearer-route.js';

/** `/api/v1/audit-events`: the audit trail, read (PRODUCT.md §2.7). */
export async function auditEventRoutes(app: FastifyInstance, opts: { services: { audit: AuditService } }) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { audit } = opts.services;
  const tags = ['audit'];
  const route = bearerRoutes(tags, 'privacy:read');

  typed.get(
    '',
    route({ querystring: S.AuditEventListQuery, response: withErrors({ 200: S.AuditEventPage }) }),
    async (request) => {
      const { query } = request;
      if (query.workspace_id !== undefined) assertWorkspace(request, query.workspace_id);
      return audit.list(request.principal, { ...query, limit: query.limit ?? DEFAULT_PAGE_LIMIT });
    },
  );

  typed.get('/verify', route({ response: withErrors({ 200: S.AuditVerification }, false) }, 'admin'), async (request) => {
    // One hash chain spans every workspace: only an admin of every workspace may recompute it (issue 23 item 7).
    if (request.principal.workspaces !== '*') throw errors.allWorkspacesAdminOnly();
    return audit.verify();
  });
}
