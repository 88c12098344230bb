import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RequestResultsService } from '../../workflows/results/request-results.js';
import { openStatus, type StatusAccessServices, statusReader } from '../../workflows/privacy-center/open-status.js';

/** The JSON answers of the package link besides the package: `{"detail"}` as the API's errors. */
function detail(reply: FastifyReply, status: 404 | 410, text: string) {
  return reply.code(status).header('Cache-Control', 'no-store').type('application/json').send({ detail: text });
}

/** The path of a completed access/export request's machine-readable package, under its status link's token. */
export function packagePath(ws: string, id: string, token: string): string {
  return `/privacy-center/${encodeURIComponent(ws)}/status/${id}/package.json?token=${encodeURIComponent(token)}`;
}

/**
 * `GET /privacy-center/{workspace_id}/status/{id}/package.json?token=…` (PRODUCT §2.17, GDPR
 * Art. 20): the machine-readable JSON package of a completed access or export request, as the
 * API's `…/package` serves it, under the status page's capability token and expiry: 404 for a
 * wrong token (or a request with no package: not completed, or a deletion), 410 once the package
 * expired or was erased. A download counts as the package's fetch (§2.13), as the letter does.
 * Sent as an attachment, never cached.
 */
export function centerPackageRoute(
  app: FastifyInstance,
  s: StatusAccessServices & { requestResults: RequestResultsService },
): void {
  app.get<{ Params: { workspace_id: string; id: string }; Querystring: { token?: string } }>(
    '/:workspace_id/status/:id/package.json',
    { schema: { hide: true } },
    async (request, reply) => {
      const { workspace_id: ws, id } = request.params;
      const found = await openStatus(s, ws, id, String(request.query.token ?? ''));
      if (!found) return detail(reply, 404, 'This link is not valid. Use the link from your e-mail.');
      const result = await s.requestResults.read(statusReader(ws), id, 'package', { deliver: true });
      if (result.kind === 'expired' || result.kind === 'erased')
        return detail(reply, 410, 'Your answer was kept for a limited time and is no longer available.');
      if (result.kind !== 'found') return detail(reply, 404, 'This request has no answer to download.');
      return reply
        .header('Cache-Control', 'no-store')
        .header('Content-Disposition', `attachment; filename="personal-data-${id}.json"`)
        .type('application/json; charset=utf-8')
        .serializer((p: string) => p)
        .send(result.json);
    },
  );
}
