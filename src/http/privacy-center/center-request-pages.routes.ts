import type { FastifyInstance } from 'fastify';
import { REQUEST_TYPES } from '../../modules/request-model/request-model.js';
import { EMAIL_PATTERN } from '../schemas/controller.schemas.js';
import { type CenterGuards, gpcSignal } from './center-guards.js';
import { field } from './center-form-fields.js';
import { html } from './center-html-reply.js';
import { type CenterPageContext, messageOf } from './center-page-context.js';
import { verifyError } from './center-public.routes.js';
import { codePage, type DeadCode, deadCodePage, verifiedPage } from './center-request-pages.js';

const EMAIL = new RegExp(EMAIL_PATTERN);
const HIDDEN = { hide: true };

/**
 * The request form's pages (PRODUCT §2.15): `GET /privacy-center/{workspace_id}/` shows the form
 * (with the opt-out form under it), `POST …/` checks it, admits it past `guards` and mails a code
 * (the code page), `POST …/verify` files the request with the code (the filed page), shows the
 * code page again after a wrong code with tries left, else the page of a code that no longer
 * works. A workspace without an enabled center is a 404 page.
 */
export function centerRequestPageRoutes(app: FastifyInstance, pages: CenterPageContext, guards: CenterGuards): void {
  const { services: s, center, formOf, off, centerPost } = pages;

  app.get<{ Params: { workspace_id: string } }>('/:workspace_id/', { schema: HIDDEN }, async (request, reply) => {
    const c = await center(request.params.workspace_id);
    if (!c) return off(reply);
    return html(reply, 200, formOf(request.params.workspace_id, c));
  });

  centerPost('/', async ({ ws, c, body, request, reply }) => {
    const requestType = field(body, 'request_type');
    const email = field(body, 'email').trim();
    const again = (status: number, text: string, headers: Record<string, string> = {}) =>
      html(reply.headers(headers), status, formOf(ws, c, { problem: text, values: { request_type: requestType, email } }));
    if (!(REQUEST_TYPES as readonly string[]).includes(requestType) || !c.settings.request_types.includes(requestType as never)) {
      return again(422, 'Please choose one of the listed requests.');
    }
    if (email.length > 254 || !EMAIL.test(email))
      return again(422, 'Please enter a valid e-mail address, like name@example.com.');
    try {
      const captcha = field(body, 'captcha_token') ? { captcha_token: field(body, 'captcha_token') } : {};
      await guards.admit(request, { email, ...captcha });
    } catch (error) {
      const m = messageOf(error);
      if (!m) throw error;
      return again(
        m.status,
        m.status === 429 ? 'Too many requests from here right now; please try again later.' : m.text,
        m.headers,
      );
    }
    const outcome = await s.centerSubmit.request(ws, { request_type: requestType as never, email }, { gpc: gpcSignal(request) });
    if (outcome.kind !== 'submitted') return again(422, 'Please choose one of the listed requests.');
    return html(reply, 200, codePage({ workspaceId: ws, title: c.title, submissionId: outcome.id }));
  });

  centerPost('/verify', async ({ ws, c, body, reply }) => {
    const id = field(body, 'id');
    const code = field(body, 'code').trim();
    const again = (status: number, text: string, headers: Record<string, string> = {}) =>
      html(reply.headers(headers), status, codePage({ workspaceId: ws, title: c.title, submissionId: id, problem: text }));
    const dead = (why: DeadCode, status: number, headers: Record<string, string> = {}) =>
      html(reply.headers(headers), status, deadCodePage({ workspaceId: ws, title: c.title, why }));
    if (!/^[0-9]{6}$/.test(code)) return again(422, 'The code is six digits.');
    // A submission id is opaque (`form_…`, older `pcs_…`): only its length is checked, as the API's schema does.
    if (id.length === 0 || id.length > 40) return dead('unknown', 404);
    const outcome = await s.centerIntake.verify(ws, id, code);
    if (outcome.kind === 'filed') return html(reply, 200, verifiedPage(c.title, outcome.status, outcome.statusReason));
    const m = messageOf(verifyError(outcome))!;
    if (outcome.kind === 'wrong' && outcome.attemptsLeft > 0) return again(m.status, m.text, m.headers);
    const why: DeadCode = outcome.kind === 'expired' ? 'expired' : outcome.kind === 'not_found' ? 'unknown' : 'void';
    return dead(why, m.status, m.headers);
  });
}
