import type { FastifyInstance } from 'fastify';
import type { CenterGuards } from './center-guards.js';
import { addFormParser } from './center-form-fields.js';
import { centerOptOutPageRoutes } from './center-opt-out-pages.routes.js';
import { centerPageContext, type CenterPageServices } from './center-page-context.js';
import { centerRequestPageRoutes } from './center-request-pages.routes.js';
import { centerStatusPageRoutes } from './center-status-pages.routes.js';
import { CENTER_CSS } from './center-style.js';
import { drpVerifyRoutes } from './drp-verify.routes.js';

const HIDDEN = { hide: true };

/**
 * The privacy center's pages (PRODUCT §2.15), server-rendered, working without JavaScript, under
 * the console's CSP: the form (`GET/POST /privacy-center/{workspace_id}/`), the code page posting
 * to `…/verify` (center-request-pages.routes.ts), the opt-out form's `…/opt-outs`
 * (center-opt-out-pages.routes.ts), and the status page `…/status/{id}?token=…` with the letter
 * and the JSON package (`…/package.json`, center-package.routes.ts) behind it, or a deletion's
 * list of what was kept (center-status-pages.routes.ts). Also the stylesheet, and the DRP
 * verification page (drp-verify.routes.ts), which reads its POST with this scope's form parser.
 */
export async function centerPageRoutes(
  app: FastifyInstance,
  opts: { services: CenterPageServices; guards: CenterGuards; captchaSiteKey: string | null },
) {
  const { services: s, guards } = opts;
  addFormParser(app);

  // The page of a DRP request waiting for the person's code (PRODUCT §2.19), with this form parser.
  await app.register(drpVerifyRoutes, { services: s });

  app.get('/assets/center.css', { schema: HIDDEN }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(CENTER_CSS),
  );

  const pages = centerPageContext(app, s, opts.captchaSiteKey);
  centerRequestPageRoutes(app, pages, guards);
  centerOptOutPageRoutes(pages, guards);
  centerStatusPageRoutes(app, s);
}
