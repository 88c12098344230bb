import { exportPackage } from '../../modules/subject-data/subject-package.js';
import type { RequestHandler } from './handler.types.js';

/**
 * `export` (right to data portability, GDPR Art. 20): completes with the export package, the
 * structured, machine-readable JSON of all data in scope about the subject and its linked
 * identities. A subject the service has never seen completes with every category empty.
 */
export const exportHandler: RequestHandler = async ({ tx, request, now, pseudonymKey }) => ({
  status: 'completed',
  package: await exportPackage(tx, request, pseudonymKey, now),
});
