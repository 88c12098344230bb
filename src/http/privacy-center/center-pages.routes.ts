import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_TYPES } from '../../modules/request-model/request-model.js';
import { regulationsOf, whenDeclined } from '../../modules/subject-data/rights.fns.js';
import type { ControllerService } from '../../workflows/controllers/controller-profiles.js';
import type { DataSystemService } from '../../modules/data-systems/data-system.service.js';
import type { PrivacyCenterSettingsService } from '../../modules/privacy-center/settings.service.js';
import type { CenterStatusService } from '../../modules/privacy-center/status.service.js';
import type { CenterIntake } from '../../workflows/filing/center-intake.js';
import type { CenterSubmit } from '../../workflows/privacy-center/center-submit.js';
import { OPT_OUT_KINDS, type OptOutKind } from '../../modules/opt-outs/opt-out.types.js';
import type { PrivacyRequestService } from '../../modules/privacy-requests/privacy-request.service.js';
import type { RequestResultsService } from '../../workflows/results/request-results.js';
import { CONSOLE_CSP } from '../console/console-csp.js';
import { HttpError, RequestValidationError } from '../errors/http-error.js';
import { renderAccessLetter } from '../letters/access-letter.js';
import { letterInput, notSearchedInReport } from '../letters/letter-input.js';
import { LETTER_CSP } from '../letters/letter-style.js';
import { EMAIL_PATTERN } from '../schemas/controller.schemas.js';
import { type CenterGuards, gpcSignal } from './center-guards.js';
import { verifyError, PUBLIC_BODY_LIMIT } from './center-public.routes.js';
import { CENTER_CSS } from './center-style.js';
import { drpVerifyRoutes } from './drp-verify.routes.js';
import type { DrpPerson } from '../../workflows/drp/verify-drp-person.js';
import {
  codePage,
  type DeadCode,
  deadCodePage,
  deadEndPage,
  formPage,
  type OptOutFormState,
  optOutRecordedPage,
  page,
  statusPage,
  verifiedPage,
  withGpcNotice,
} from './center-pages.js';
import { centerPackageRoute, packagePath } from './center-package.routes.js';
import { openStatus, statusReader } from '../../workflows/privacy-center/open-status.js';
import { readStatusPage } from '../../workflows/privacy-center/read-status-page.js';

const EMAIL = new RegExp(EMAIL_PATTERN);
const HIDDEN = { hide: true };

/** What the pages need. */
export interface CenterPageServices {
  privacyCenter: PrivacyCenterSettingsService;
  centerSubmit: CenterSubmit;
  centerIntake: CenterIntake;
  centerStatus: CenterStatusService;
  privacyRequests: PrivacyRequestService;
  requestResults: RequestResultsService;
  controllers: ControllerService;
  dataSystems: DataSystemService;
  drpPerson: DrpPerson;
}

/**
 * Sends a page; to a request with `Sec-GPC: 1` with the "Opt-Out Request Honored" notice (11 CCR
 * §7025(c)(6)): every center page goes through here.
 */
export function html(reply: FastifyReply, status: number, body: string, csp = CONSOLE_CSP) {
  return reply
    .code(status)
    .header('Content-Security-Policy', csp)
    .header('Vary', 'Sec-GPC')
    .type('text/html; charset=utf-8')
    .serializer((p: string) => p)
    .send(gpcSignal(reply.request) ? withGpcNotice(body) : body);
}

/** A form's fields: a field sent more than once (the opt-out form's `kinds`) holds every value, in order. */
type FormFields = Record<string, string | string[]>;

/** The fields of an `application/x-www-form-urlencoded` body. */
function formFields(body: string): FormFields {
  const fields: FormFields = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const had = fields[name];
    fields[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return fields;
}

/**
 * A field's value (the last, when sent more than once), '' when absent. As text whatever was
 * posted: a JSON body reaches these routes as it was parsed.
 */
function field(fields: FormFields, name: string): string {
  const value: unknown = fields[name];
  if (Array.isArray(value)) return String(value.at(-1) ?? '');
  return value === undefined || value === null ? '' : String(value);
}

/** Every value of a field, in order, as text. */
function fieldValues(fields: FormFields, name: string): string[] {
  const value: unknown = fields[name];
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => String(v));
}

/** The message of an error a page shows (the catalogue's sentence, or the first validation message). */
function messageOf(error: unknown): { status: number; text: string; headers: Record<string, string> } | null {
  if (error instanceof HttpError) return { status: error.statusCode, text: error.message, headers: error.headers ?? {} };
  if (error instanceof RequestValidationError) {
    const first = error.errors[0];
    const field = first?.loc.at(-1);
    const text =
      field === 'captcha_token'
        ? 'Please complete the anti-abuse check.'
        : (first?.msg.replace(/^Value error, /, '') ?? 'Please check what you entered.');
    return { status: 422, text, headers: {} };
  }
  return null;
}

/**
 * The privacy center's pages (PRODUCT §2.15), server-rendered, working without JavaScript, under
 * the console's CSP: the form (`GET/POST /privacy-center/{workspace_id}/`), the code page posting
 * to `…/verify`, and the status page `…/status/{id}?token=…` with the letter and the JSON package
 * (`…/package.json`, center-package.routes.ts) behind it, or a deletion's list of what was kept.
 */
export async function centerPageRoutes(
  app: FastifyInstance,
  opts: { services: CenterPageServices; guards: CenterGuards; captchaSiteKey: string | null },
) {
  const { services: s, guards } = opts;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: PUBLIC_BODY_LIMIT },
    (_req, body, done) => {
      done(null, formFields(body as string));
    },
  );

  // The page of a DRP request waiting for the person's code (PRODUCT §2.19), with this form parser.
  await app.register(drpVerifyRoutes, { services: s });

  app.get('/assets/center.css', { schema: HIDDEN }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(CENTER_CSS),
  );

  async function center(workspaceId: string) {
    const settings = await s.privacyCenter.get(workspaceId);
    if (!settings?.enabled) return null;
    const controller = await s.controllers.get(workspaceId);
    const title = settings.title ?? `${controller?.name ?? 'Privacy'} privacy center`;
    return { settings, controller, title };
  }
  type Center = NonNullable<Awaited<ReturnType<typeof center>>>;
  /** The form of workspace `workspaceId`'s center, with a problem and the values to show again. */
  const formOf = (
    workspaceId: string,
    c: Center,
    again: { problem?: string; values?: { request_type: string; email: string }; optOut?: OptOutFormState } = {},
  ) =>
    formPage({
      workspaceId,
      title: c.title,
      controllerName: c.controller?.name ?? null,
      types: c.settings.request_types,
      captchaSiteKey: opts.captchaSiteKey,
      ...again,
    });
  const off = (reply: FastifyReply) =>
    html(reply, 404, page('Not found', '<p>There is no privacy center at this address.</p>', 'Not found'));

  app.get<{ Params: { workspace_id: string } }>('/:workspace_id/', { schema: HIDDEN }, async (request, reply) => {
    const c = await center(request.params.workspace_id);
    if (!c) return off(reply);
    return html(reply, 200, formOf(request.params.workspace_id, c));
  });

  /** What a POST handler gets: the workspace, its enabled center, the form fields and the reply. */
  interface CenterPost {
    ws: string;
    c: Center;
    body: FormFields;
    request: FastifyRequest;
    reply: FastifyReply;
  }
  /** Registers a form POST under `/:workspace_id{path}`; a workspace without an enabled center is a 404 page. */
  const centerPost = (path: string, handle: (post: CenterPost) => Promise<FastifyReply>) =>
    app.post<{ Params: { workspace_id: string }; Body: FormFields }>(
      `/:workspace_id${path}`,
      { schema: HIDDEN, bodyLimit: PUBLIC_BODY_LIMIT },
      async (request, reply) => {
        const ws = request.params.workspace_id;
        const c = await center(ws);
        if (!c) return off(reply);
        return handle({ ws, c, body: request.body ?? {}, request, reply });
      },
    );

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

  // The opt-out form (PRODUCT §2.18): no code; each problem at its field, nothing recorded then.
  centerPost('/opt-outs', async ({ ws, c, body, request, reply }) => {
    const kinds = fieldValues(body, 'kinds');
    const email = field(body, 'email').trim();
    const values = { kinds, email };
    const again = (status: number, problems: NonNullable<OptOutFormState['problems']>, headers: Record<string, string> = {}) =>
      html(reply.headers(headers), status, formOf(ws, c, { optOut: { problems, values } }));
    const problems: NonNullable<OptOutFormState['problems']> = {};
    if (kinds.length === 0) problems.kinds = 'Please choose at least one.';
    else if (!kinds.every((k) => (OPT_OUT_KINDS as readonly string[]).includes(k)))
      problems.kinds = 'Please choose from the listed choices.';
    if (email.length > 254 || !EMAIL.test(email)) problems.email = 'Please enter a valid e-mail address, like name@example.com.';
    if (problems.kinds !== undefined || problems.email !== undefined) return again(422, problems);
    try {
      const captcha = field(body, 'captcha_token');
      await guards.admitWithoutCode(request, captcha ? { captcha_token: captcha } : {});
    } catch (error) {
      const m = messageOf(error);
      if (!m) throw error;
      const text = m.status === 429 ? 'Too many requests from here right now; please try again later.' : m.text;
      return again(m.status, { form: text }, m.headers);
    }
    const unique = [...new Set(kinds)] as OptOutKind[];
    const outcome = await s.centerSubmit.optOuts(ws, { email, kinds: unique, gpc: gpcSignal(request) });
    if (outcome.kind === 'center_off') return off(reply);
    return html(reply, 202, optOutRecordedPage({ workspaceId: ws, title: c.title, email, recorded: outcome.opt_outs }));
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
