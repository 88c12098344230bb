import { accessPackage } from '../subject-data/subject-package.js';
import { packageHandler } from './package-handler.js';

/**
 * `access` (right of access, GDPR Art. 15): completes with the access package of the subject and
 * its linked identities in scope, with purposes, recipients, retention and source per category.
 * Without a controller profile it waits first. A subject the service has never seen completes
 * with every category in scope empty. Read-only ({@link packageHandler}).
 */
export const accessHandler = packageHandler(({ tx, ...source }) => accessPackage({ db: tx, ...source }));
