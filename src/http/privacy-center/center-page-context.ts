import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ControllerService } from '../../workflows/controllers/controller-profiles.js';
import type { DataSystemService } from '../../modules/data-systems/data-system.service.js';
import type { PrivacyCenterSettingsService } from '../../modules/privacy-center/settings.service.js';
import type { CenterStatusService } from '../../modules/privacy-center/status.service.js';
import type { CenterIntake } from '../../workflows/filing/center-intake.js';
import type { CenterSubmit } from '../../workflows/privacy-center/center-submit.js';
import type { PrivacyRequestService } from '../../modules/privacy-requests/privacy-request.service.js';
import type { RequestResultsService } from '../../workflows/results/request-results.js';
import type { DrpPerson } from '../../workflows/drp/verify-drp-person.js';
import { HttpError, RequestValidationError } from '../errors/http-error.js';
import type { FormFields } from './center-form-fields.js';
import { html } from './center-html-reply.js';
import { noCenterPage } from './center-layout.js';
import type { OptOutFormState } from './center-opt-out-pages.js';
import { formPage } from './center-request-pages.js';
import { PUBLIC_BODY_LIMIT } from './center-public.routes.js';

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

/** Workspace `workspaceId`'s center when it is on: its settings, controller and title; else null. */
async function openCenter(s: CenterPageServices, workspaceId: string) {
  const settings = await s.privacyCenter.get(workspaceId);
  if (!settings?.enabled) return null;
  const controller = await s.controllers.get(workspaceId);
  const title = settings.title ?? `${controller?.name ?? 'Privacy'} privacy center`;
  return { settings, controller, title };
}

/** An enabled center, as {@link openCenter} reads it. */
export type Center = NonNullable<Awaited<ReturnType<typeof openCenter>>>;

/** The message of an error a page shows (the catalogue's sentence, or the first validation message). */
export function messageOf(error: unknown): { status: number; text: string; headers: Record<string, string> } | null {
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

/** What a POST handler gets: the workspace, its enabled center, the form fields and the reply. */
export interface CenterPost {
  ws: string;
  c: Center;
  body: FormFields;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What the form shows again after a problem: the request form's problem and values, the opt-out form's state. */
export interface FormAgain {
  problem?: string;
  values?: { request_type: string; email: string };
  optOut?: OptOutFormState;
}

/** What the routes of the center's form pages share (center-pages.routes.ts makes it once). */
export interface CenterPageContext {
  services: CenterPageServices;
  /** Workspace `workspaceId`'s center when it is on, else null. */
  center(workspaceId: string): Promise<Center | null>;
  /** The form of workspace `workspaceId`'s center, with a problem and the values to show again. */
  formOf(workspaceId: string, c: Center, again?: FormAgain): string;
  /** The 404 page of a workspace without an enabled center. */
  off(reply: FastifyReply): FastifyReply;
  /** Registers a form POST under `/:workspace_id{path}`; a workspace without an enabled center is a 404 page. */
  centerPost(path: string, handle: (post: CenterPost) => Promise<FastifyReply>): void;
}

/**
 * The shared parts of the center's form pages on `app`, over services `s`; the forms show the
 * anti-abuse field when `captchaSiteKey` is set.
 */
export function centerPageContext(app: FastifyInstance, s: CenterPageServices, captchaSiteKey: string | null): CenterPageContext {
  const center = (workspaceId: string) => openCenter(s, workspaceId);
  const formOf = (workspaceId: string, c: Center, again: FormAgain = {}) =>
    formPage({
      workspaceId,
      title: c.title,
      controllerName: c.controller?.name ?? null,
      types: c.settings.request_types,
      captchaSiteKey,
      ...again,
    });
  const off = (reply: FastifyReply) => html(reply, 404, noCenterPage());
  const centerPost = (path: string, handle: (post: CenterPost) => Promise<FastifyReply>) => {
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
  };
  return { services: s, center, formOf, off, centerPost };
}
