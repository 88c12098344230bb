import { identityFound } from '../../subject-data/subject-data.repository.js';
import { accessPackage } from '../../subject-data/subject-package.js';
import { waitForController } from './controller-named.js';
import type { HandlerContext, HandlerOutcome, RequestHandler } from './handler.types.js';

/**
 * `access` (right of access, GDPR Art. 15): completes with the access package of the subject and
 * its linked identities in scope, with purposes, recipients, retention and source per category.
 * Without a controller profile it waits first ({@link waitForController}). A subject the service has never seen completes with every category in scope empty.
 * Read-only (`readOnly`: run outside any transaction, reading in pages), so a retry gives the same package (but a later `generated_at`).
 */
export const accessHandler: RequestHandler = Object.assign(
  async ({ tx, request, now, pseudonymKey, pause }: HandlerContext): Promise<HandlerOutcome> =>
    (await waitForController(tx, request.workspace_id)) ?? {
      status: 'completed',
      package: await accessPackage(tx, request, pseudonymKey, now, pause),
      found: await identityFound(tx, request, pseudonymKey),
    },
  { readOnly: true },
);
