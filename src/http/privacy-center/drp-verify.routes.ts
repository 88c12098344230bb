import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ControllerService } from '../../workflows/controllers/controller-profiles.js';
import type { DrpPerson, DrpWaitView } from '../../workflows/drp/verify-drp-person.js';
import { CONSOLE_CSP } from '../console/console-csp.js';
import { type DrpVerifyContext, drpFiledPage, drpGonePage, drpVerifyPage } from './drp-verify-pages.js';

const HIDDEN = { hide: true };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What the pages need. */
export interface DrpVerifyServices {
  drpPerson: DrpPerson;
  controllers: Pick<ControllerService, 'get'>;
}

type Params = { workspace_id: string; request_id: string };

function send(reply: FastifyReply, status: number, body: string) {
  return reply
    .code(status)
    .header('Content-Security-Policy', CONSOLE_CSP)
    .header('Referrer-Policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .serializer((p: string) => p)
    .send(body);
}

/** A field of a parsed form (the center's parser: the last value of a repeated field), '' when absent. */
function text(fields: unknown, name: string): string {
  const value = (fields as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(value)) return String(value.at(-1) ?? '');
  return typeof value === 'string' ? value : '';
}

/**
 * The page of `user_verification_url` (PRODUCT §2.19 "Identity"):
 * `GET /privacy-center/{workspace_id}/agent-requests/{request_id}/verify?token=…[&redirect_to=…&request_id=…]`
 * shows what the agent asked and posts to itself: `step=send` mails a code, `step=confirm` with
 * `code` files the request and redirects to `redirect_to` (only `https://`, or loopback with
 * `OUTBOUND_ALLOW_PRIVATE_NETWORKS=true`). A `request_id` other than the path's, an unknown
 * request or a wrong token is a 404 page; a wrong code 403, a void one 429, an expired one 410,
 * too many codes 429. Registered inside the center's pages (their form parser and stylesheet).
 */
export async function drpVerifyRoutes(app: FastifyInstance, opts: { services: DrpVerifyServices }) {
  const { drpPerson, controllers } = opts.services;
  const path = '/:workspace_id/agent-requests/:request_id/verify';

  async function context(params: Params, token: string, redirectTo: string): Promise<DrpVerifyContext> {
    const controller = (await controllers.get(params.workspace_id))?.name ?? null;
    return {
      title: `${controller ?? 'Privacy'}: confirm a request`,
      controller,
      action: `/privacy-center/${encodeURIComponent(params.workspace_id)}/agent-requests/${params.request_id}/verify`,
      token,
      redirectTo,
    };
  }

  async function viewOrGone(params: Params, token: string): Promise<DrpWaitView | null> {
    if (!UUID.test(params.request_id) || token === '') return null;
    const view = await drpPerson.view(params.workspace_id, params.request_id, token);
    return 'kind' in view ? null : view;
  }

  app.get<{ Params: Params; Querystring: Record<string, string | undefined> }>(
    path,
    { schema: HIDDEN },
    async (request, reply) => {
      const { token = '', redirect_to: redirectTo = '', request_id: named } = request.query;
      const c = await context(request.params, token, redirectTo);
      if (named !== undefined && named !== request.params.request_id) return send(reply, 404, drpGonePage(c.title));
      const view = await viewOrGone(request.params, token);
      if (view === null) return send(reply, 404, drpGonePage(c.title));
      return send(reply, 200, drpVerifyPage(c, view));
    },
  );

  app.post<{ Params: Params }>(path, { schema: HIDDEN }, async (request, reply) => {
    const fields = request.body;
    const token = text(fields, 'token');
    const c = await context(request.params, token, text(fields, 'redirect_to'));
    const view = await viewOrGone(request.params, token);
    if (view === null) return send(reply, 404, drpGonePage(c.title));
    const { workspace_id: workspaceId, request_id: requestId } = request.params;
    if (text(fields, 'step') === 'send') {
      const sent = await drpPerson.sendCode(workspaceId, requestId, token);
      if (sent.kind === 'not_found') return send(reply, 404, drpGonePage(c.title));
      if (sent.kind === 'too_many_codes')
        return send(
          reply,
          429,
          drpVerifyPage(c, view, {
            kind: 'problem',
            text: 'Five codes were sent already; no more can be sent for this request. Ask your agent to file it again.',
          }),
        );
      return send(reply, 200, drpVerifyPage(c, view, { kind: 'sent' }));
    }
    const outcome = await drpPerson.enterCode(workspaceId, requestId, token, text(fields, 'code'));
    switch (outcome.kind) {
      case 'filed': {
        const to = drpPerson.redirectFor(c.redirectTo === '' ? undefined : c.redirectTo);
        return to === null ? send(reply, 200, drpFiledPage(c, view.agentName)) : reply.code(303).header('location', to).send();
      }
      case 'not_found':
        return send(reply, 404, drpGonePage(c.title));
      case 'wrong':
        return send(
          reply,
          403,
          drpVerifyPage(c, view, { kind: 'problem', text: `That code is not right. Tries left: ${outcome.attemptsLeft}.` }),
        );
      case 'void':
        return send(
          reply,
          429,
          drpVerifyPage(
            c,
            { ...view, codeSent: false },
            { kind: 'problem', text: 'The code was tried three times and no longer works. Send a new one.' },
          ),
        );
      case 'expired':
        return send(
          reply,
          410,
          drpVerifyPage(
            c,
            { ...view, codeSent: false },
            { kind: 'problem', text: 'The code is older than 10 minutes. Send a new one.' },
          ),
        );
      case 'no_code':
        return send(reply, 409, drpVerifyPage(c, view, { kind: 'problem', text: 'No code was sent yet. Send one first.' }));
    }
  });
}
