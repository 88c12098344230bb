import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { decodeCursor, toPage } from '../../lib/cursor.js';
import { normalizeRepository } from '../../modules/policies/policy-merge.fns.js';
import type { ChangeEventService } from '../../workflows/change-events/change-events.js';
import { assertWorkspace } from '../auth/authenticate.js';
import { errors } from '../errors/error-catalogue.js';
import * as S from '../schemas/change-event.schemas.js';
import { DEFAULT_PAGE_LIMIT, withErrors } from '../schemas/common.schemas.js';
import { bearerRoutes } from './bearer-route.js';

/** `GET /api/v1/change-events` (scope `privacy:read`): recorded PR/MR events with their decisions, newest first. */
export async function changeEventRoutes(app: FastifyInstance, opts: { services: { changeEvents: ChangeEventService } }) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { changeEvents } = opts.services;
  const route = bearerRoutes(['change events'], 'privacy:read');
  typed.get(
    '',
    route({ querystring: S.ChangeEventListQuery, response: withErrors({ 200: S.ChangeEventPage }) }),
    async (request) => {
      const { query } = request;
      assertWorkspace(request, query.workspace_id);
      const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'chg');
      if (before === null) throw errors.invalidCursor(query.cursor as string);
      const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
      const rows = await changeEvents.list({
        workspaceId: query.workspace_id,
        ...(query.repository ? { repository: normalizeRepository(query.repository) } : {}),
        ...(before ? { before } : {}),
        limit: limit + 1,
      });
      return toPage(rows, limit);
    },
  );
}
