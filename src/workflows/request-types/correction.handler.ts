import { type CorrectionReport, correctionReadiness, UNKNOWN_SUBJECT } from '../subject-data/correction.js';
import type { RequestHandler } from './handler.types.js';

/**
 * `correction` (right to rectification, GDPR Art. 16): parks the request in `action_required`
 * until an operator supplies the corrected values (`POST …/{id}/corrections`, which applies
 * them and completes it). When nothing could be corrected (the service holds no profile of the
 * subject, or no correctable field is in scope), it completes at once with an empty correction
 * report rather than waiting for values that would be refused.
 */
export const correctionHandler: RequestHandler = async ({ tx, request }) => {
  const nothing = await correctionReadiness(tx, request);
  if (nothing !== null) {
    const report: CorrectionReport = { format: 'correction-report/1', corrected: [], note: nothing };
    // An unknown subject is an unmatched identity (PRODUCT §2.13): reviewed unless no system knows it either.
    return { status: 'completed', report, found: nothing !== UNKNOWN_SUBJECT };
  }
  return { status: 'action_required', reason: 'waiting for corrected values' };
};
