import { identityFound } from '../../subject-data/subject-data.repository.js';
import { exportPackage } from '../../subject-data/subject-package.js';
import { waitForController } from './controller-named.js';
import type { HandlerContext, HandlerOutcome, RequestHandler } from './handler.types.js';

/**
 * `export` (right to data portability, GDPR Art. 20): completes with the export package, the
 * structured, machine-readable JSON of all data in scope about the subject and its linked
 * identities. Read-only (`readOnly`: run outside any transaction, reading in pages). A subject the service has never seen completes with every category empty.
 */
export const exportHandler: RequestHandler = Object.assign(
  async ({ tx, request, now, pseudonymKey, pause }: HandlerContext): Promise<HandlerOutcome> =>
    (await waitForController(tx, request.workspace_id)) ?? {
      status: 'completed',
      package: await exportPackage(tx, request, pseudonymKey, now, pause),
      found: await identityFound(tx, request, pseudonymKey),
    },
  { readOnly: true },
);
