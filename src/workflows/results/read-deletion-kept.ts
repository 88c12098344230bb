import type { Executor } from '../../db/executor.js';
import { findRequestById } from '../../modules/privacy-requests/privacy-request.repository.js';
import { findResult } from '../../modules/privacy-requests/result.repository.js';
import type { KeptItem } from '../../modules/subject-data/erasure-report.fns.js';
import { reportWithContext } from './report-context.fns.js';

/**
 * What completed deletion `id` kept, and why, in plain words to the person (PRODUCT §2.17:
 * the deletion confirmation of the status page and the "done" mail), from its stored report.
 * For the service's own use (the caller checked the person's capability); no principal.
 * @returns the items, or null when `id` is not a completed deletion with a report.
 */
export async function readDeletionKept(deps: { db: Executor }, id: string): Promise<KeptItem[] | null> {
  const { db } = deps;
  const request = await findRequestById(db, id);
  if (!request || request.request_type !== 'deletion' || request.status !== 'completed') return null;
  const report = (await findResult(db, id))?.report;
  if (!report) return null;
  const served = JSON.parse(reportWithContext(report, request)) as { kept?: KeptItem[] };
  return served.kept ?? null;
}
