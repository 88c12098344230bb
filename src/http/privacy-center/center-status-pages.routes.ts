import type { FastifyInstance, FastifyReply } from 'fastify';
import { regulationsOf, whenDeclined } from '../../modules/subject-data/rights.fns.js';
import { openStatus, statusReader } from '../../workflows/privacy-center/open-status.js';
import { readStatusPage } from '../../workflows/privacy-center/read-status-page.js';
import { renderAccessLetter } from '../letters/access-letter.js';
import { letterInput, notSearchedInReport } from '../letters/letter-input.js';
import { LETTER_CSP } from '../letters/letter-style.js';
import { html } from './center-html-reply.js';
import { deadEndPage } from './center-layout.js';
import { centerPackageRoute, packagePath } from './center-package.routes.js';
import type { CenterPageServices } from './center-page-context.js';
import { statusPage } from './center-status-page.js';

const HIDDEN = { hide: true };

/**
 * The person's status link's pages (PRODUCT §2.15, §2.17), under its capability token:
 * `GET /privacy-center/{workspace_id}/status/{id}?token=…` (the status page), the JSON package
 * `…/package.json` (center-package.routes.ts) and the readable letter `…/letter` behind it. A
 * wrong token, id or workspace is a 404 page, an answer kept for a limited time and now gone a
 * 410 page; both lead back to the form when the workspace's center is on.
 */
export function centerStatusPageRoutes(app: FastifyInstance, s: CenterPageServices): void {
  /** Workspace `ws` when its center is on (its form is where a dead end leads back to), else null. */
  const formOwner = async (ws: string) => ((await s.privacyCenter.get(ws))?.enabled ? ws : null);
  const notFound = async (reply: FastifyReply, ws: string) =>
    html(
      reply,
      404,
      deadEndPage({
        title: 'Not found',
        heading: 'Not found',
        text: 'This link is not valid. Use the link from your e-mail.',
        workspaceId: await formOwner(ws),
        linkText: 'Or file a new request',
      }),
    );
  /** The page of an answer kept for a limited time and now gone (410). */
  const answerGone = async (reply: FastifyReply, ws: string, title: string) =>
    html(
      reply,
      410,
      deadEndPage({
        title,
        heading: 'Your answer has expired',
        text: 'Your answer was kept for a limited time and is no longer available. You may file a new request.',
        workspaceId: await formOwner(ws),
        linkText: 'File a new request',
      }),
    );

  app.get<{ Params: { workspace_id: string; id: string }; Querystring: { token?: string } }>(
    '/:workspace_id/status/:id',
    { schema: HIDDEN },
    async (request, reply) => {
      const { workspace_id: ws, id } = request.params;
      const token = String(request.query.token ?? '');
      const read = await readStatusPage(s, ws, id, token);
      if (read.kind === 'not_found') return notFound(reply, ws);
      if (read.kind === 'gone') return answerGone(reply, ws, read.title);
      const { request: r, controller } = read;
      return html(
        reply,
        200,
        statusPage({
          title: read.title,
          requestType: r.request_type,
          status: r.status,
          receivedAt: r.received_at,
          dueAt: r.due_at,
          extendedDueAt: r.extended_due_at,
          extensionReason: read.extensionReason,
          statusReason: r.status_reason,
          completedAt: r.completed_at,
          letterUrl: read.answerReady
            ? `/privacy-center/${encodeURIComponent(ws)}/status/${id}/letter?token=${encodeURIComponent(token)}`
            : null,
          packageUrl: read.answerReady ? packagePath(ws, id, token) : null,
          deletionConfirmed: r.status === 'completed' && r.request_type === 'deletion',
          notSearched: read.deletionReport === null ? [] : notSearchedInReport(read.deletionReport),
          kept: read.kept,
          controllerName: controller?.name ?? null,
          whenDeclined: whenDeclined(regulationsOf(r.regulation), controller ?? null),
        }),
      );
    },
  );

  centerPackageRoute(app, s);

  app.get<{ Params: { workspace_id: string; id: string }; Querystring: { token?: string } }>(
    '/:workspace_id/status/:id/letter',
    { schema: HIDDEN },
    async (request, reply) => {
      const { workspace_id: ws, id } = request.params;
      const found = await openStatus(s, ws, id, String(request.query.token ?? ''));
      if (!found) return notFound(reply, ws);
      const result = await s.requestResults.read(statusReader(ws), id, 'package', { deliver: true });
      if (result.kind === 'expired' || result.kind === 'erased') {
        return answerGone(reply, ws, 'Expired');
      }
      if (result.kind !== 'found') return notFound(reply, ws);
      const names = await s.dataSystems.namesIn(ws);
      return html(
        reply,
        200,
        renderAccessLetter(letterInput(JSON.parse(result.json) as Record<string, unknown>, result.request, names)),
        LETTER_CSP,
      );
    },
  );
}
