import type { Executor } from '../../db/executor.js';
import { nextTurn } from '../../lib/yielding.js';
import { type CcpaFigures, createReportAccumulator, type TypeFigures } from './request-report.fns.js';
import { type ReportRange, reportPage } from './request-report.repository.js';

/** Requests read per page by the report. */
const PAGE = 1000;

/** The report of PRODUCT §2.16. */
export interface RequestReport {
  by_type: TypeFigures[];
  ccpa_7102: CcpaFigures[];
}

/**
 * The requests report (PRODUCT §2.16): per request type and, for CCPA §7102(a), per calendar
 * year, over the requests received in the range ({@link createReportAccumulator} says what each
 * figure counts). Reads a page of {@link PAGE} requests at a time, yielding between pages.
 */
export function createRequestReportService(deps: { db: Executor }) {
  return {
    async report(range: ReportRange): Promise<RequestReport> {
      const acc = createReportAccumulator();
      let after: string | null = null;
      for (;;) {
        const rows = await reportPage(deps.db, range, after, PAGE);
        for (const row of rows) acc.add(row);
        if (rows.length < PAGE) break;
        after = rows[rows.length - 1]!.id;
        await nextTurn();
      }
      return acc.result();
    },
  };
}

export type RequestReportService = ReturnType<typeof createRequestReportService>;
