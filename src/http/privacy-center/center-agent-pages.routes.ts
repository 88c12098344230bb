import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ControllerService } from '../../workflows/controllers/controller-profiles.js';
import type { PrivacyCenterSettingsService } from '../../modules/privacy-center/settings.service.js';
import type { AgentRequests } from '../../workflows/privacy-center/agent-requests/agent-requests.js';
import { agentPathOn } from './center-agent.routes.js';
import { agentConfirmedPage, agentConfirmPage, agentDeclinedPage } from './center-agent-pages.js';
import { deadEndPage, noCenterPage } from './center-layout.js';
import { addFormParser, field, type FormFields } from './center-form-fields.js';
import { html } from './center-html-reply.js';
import { PUBLIC_BODY_LIMIT } from './center-public.routes.js';

const HIDDEN = { hide: true };

/** What the confirmation pages need. */
export interface CenterAgentPageServices {
  privacyCenter: PrivacyCenterSettingsService;
  controllers: ControllerService;
  agentRequests: AgentRequests;
}

type ConfirmParams = { workspace_id: string; id: string };

/**
 * The person's side of the privacy center's agent path (PRODUCT §2.19, 11 CCR §7063(a)),
 * server-rendered, no script, under the console's CSP: `GET
 * /privacy-center/{workspace_id}/agent-requests/{id}/confirm?token=…` shows who asks what, and
 * decides nothing (mail scanners follow links); its two buttons POST to the same path with the
 * token in the body: `answer=yes` files the request as the agent, `answer=no` deletes the
 * submission and tells the agent. A wrong or used link is a 404 page; a center without
 * `agent_requests` answers as a center that is off (404).
 */
export async function centerAgentPageRoutes(app: FastifyInstance, opts: { services: CenterAgentPageServices }) {
  const s = opts.services;
  addFormParser(app);

  const off = (reply: FastifyReply) => html(reply, 404, noCenterPage());
  const notFound = (reply: FastifyReply, ws: string) =>
    html(
      reply,
      404,
      deadEndPage({
        title: 'Not found',
        heading: 'This link no longer works',
        text: 'This link is not valid, was already answered, or is older than 14 days. Nothing more is needed from you.',
        workspaceId: ws,
        linkText: 'Make a request of your own',
      }),
    );
  /** The center's title and controller, or null when the workspace takes no agent requests. */
  async function center(ws: string) {
    if (!(await agentPathOn(s.privacyCenter, ws))) return null;
    const settings = await s.privacyCenter.get(ws);
    const controller = await s.controllers.get(ws);
    return {
      title: settings?.title ?? `${controller?.name ?? 'Privacy'} privacy center`,
      controllerName: controller?.name ?? null,
    };
  }
  const path = (ws: string, id: string) =>
    `/privacy-center/${encodeURIComponent(ws)}/agent-requests/${encodeURIComponent(id)}/confirm`;
  /** The confirmation page of submission `id` that `token` opens (with a problem), or the 404 page. */
  async function confirmPage(reply: FastifyReply, ws: string, id: string, token: string, status = 200, problem?: string) {
    const c = await center(ws);
    if (!c) return off(reply);
    const row = await s.agentRequests.open(ws, id, token);
    if (!row) return notFound(reply, ws);
    const view = {
      title: c.title,
      action: path(ws, id),
      token,
      agentName: row.agent_name,
      requestType: row.request_type,
      controllerName: c.controllerName,
      submittedAt: row.submitted_at,
    };
    return html(reply, status, agentConfirmPage(problem === undefined ? view : { ...view, problem }));
  }

  app.get<{ Params: ConfirmParams; Querystring: { token?: string } }>(
    '/:workspace_id/agent-requests/:id/confirm',
    { schema: HIDDEN },
    async (request, reply) =>
      confirmPage(reply, request.params.workspace_id, request.params.id, String(request.query.token ?? '')),
  );

  app.post<{ Params: ConfirmParams; Body: FormFields }>(
    '/:workspace_id/agent-requests/:id/confirm',
    { schema: HIDDEN, bodyLimit: PUBLIC_BODY_LIMIT },
    async (request, reply) => {
      const { workspace_id: ws, id } = request.params;
      const body = request.body ?? {};
      const token = field(body, 'token');
      const answer = field(body, 'answer');
      const c = await center(ws);
      if (!c) return off(reply);
      if (answer === 'yes') {
        const outcome = await s.agentRequests.confirm(ws, id, token);
        if (outcome.kind === 'not_found') return notFound(reply, ws);
        return html(reply, 200, agentConfirmedPage(c.title, outcome.status));
      }
      if (answer === 'no') {
        if (!(await s.agentRequests.decline(ws, id, token))) return notFound(reply, ws);
        return html(reply, 200, agentDeclinedPage(c.title));
      }
      return confirmPage(reply, ws, id, token, 422, 'Please answer with one of the two buttons.');
    },
  );
}
