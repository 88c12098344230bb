import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Bound } from '../../lib/bind-deps.js';
import type { readRequestReport } from '../../workflows/opt-outs/read-request-report.js';
import { withErrors } from '../schemas/common.schemas.js';
import * as O from '../schemas/officer.schemas.js';
import { bearerRoutes } from './bearer-route.js';
import { readableWorkspaces } from './officer.routes.js';
import { reportRange } from './report-range.js';
import { reportCsv, wantsCsv } from './request-csv.js';

/** `GET /api/v1/reports/requests` (PRODUCT §2.16, with the opt-outs' §7102(a) rows of §2.18): the requests report, JSON or CSV. */
export async function reportRoutes(app: FastifyInstance, opts: { services: { requestReport: Bound<typeof readRequestReport> } }) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const route = bearerRoutes(['reports'], 'privacy:read');
  typed.get(
    '/requests',
    route({ querystring: O.ReportQuery, response: withErrors({ 200: O.RequestReport }) }),
    async (request, reply) => {
      const { query } = request;
      const workspaceIds = readableWorkspaces(request, query.workspace_id);
      const range = reportRange(query.from, query.to);
      const figures = await opts.services.requestReport({ workspaceIds, ...range });
      if (wantsCsv(request, query.format)) {
        return reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', 'attachment; filename="privacy-requests-report.csv"')
          .send(reportCsv(figures));
      }
      return { from: range.from, to: range.to, workspaces: workspaceIds === null ? null : [...workspaceIds], ...figures };
    },
  );
}
