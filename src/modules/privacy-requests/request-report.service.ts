import type { Executor } from '../../db/executor.js';
import { buildReport, type CcpaFigures, type TypeFigures } from './request-report.fns.js';
import { type ReportRange, reportFigures } from './request-report.repository.js';

/** The report of PRODUCT §2.16. */
export interface RequestReport {
  by_type: TypeFigures[];
  ccpa_7102: CcpaFigures[];
}

/**
 * The requests report (PRODUCT §2.16): per request type and, for CCPA §7102(a), per calendar
 * year, over the requests received in the range ({@link buildReport} says what each figure
 * counts). The database does the work in one statement ({@link reportFigures}: grouped counts
 * and ranked durations), so a few dozen rows come back however many requests the range holds.
 */
export function createRequestReportService(deps: { db: Executor }) {
  return {
    async report(range: ReportRange): Promise<RequestReport> {
      const { counts, completion, ccpa } = await reportFigures(deps.db, range);
      return buildReport(counts, { completion, ccpa });
    },
  };
}

export type RequestReportService = ReturnType<typeof createRequestReportService>;
