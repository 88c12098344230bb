import { exportPackage } from '../subject-data/subject-package.js';
import { packageHandler } from './package-handler.js';

/**
 * `export` (right to data portability, GDPR Art. 20): completes with the export package, the
 * structured, machine-readable JSON of all data in scope about the subject and its linked
 * identities. A subject the service has never seen completes with every category empty.
 * Read-only ({@link packageHandler}).
 */
export const exportHandler = packageHandler(({ tx, ...source }) => exportPackage({ db: tx, ...source }));
