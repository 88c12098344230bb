import { eraseSubjectData } from '../subject-data/erasure.js';
import { identityFound } from '../../modules/subject-data/subject-data.repository.js';
import type { RequestHandler } from './handler.types.js';

/**
 * `deletion` (right to erasure, GDPR Art. 17): erases or pseudonymizes every record of the
 * subject and its linked identities in scope, writes the tombstones, and completes with the
 * erasure report (per category: erased counts, kept records and why; no personal data). A
 * subject the service has never seen completes with zero counts (its tombstone still written).
 * Runs in the worker's transaction (atomic), reading in pages and writing in batches with
 * `pause` between them. Idempotent inside `tx`: a rolled-back attempt leaves nothing, a rerun erases what is left.
 */
export const deletionHandler: RequestHandler = Object.assign(
  async ({ tx, request, now, pseudonymKey, pause }: Parameters<RequestHandler>[0]) => {
    // Read before the erasure, which removes what it finds (PRODUCT §2.13).
    const found = await identityFound(tx, request, pseudonymKey);
    return { status: 'completed' as const, report: await eraseSubjectData(tx, request, pseudonymKey, now, pause), found };
  },
  { erases: true },
);
