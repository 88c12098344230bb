import { type CcpaCountGroup, ccpaRows } from '../../modules/privacy-requests/request-report.fns.js';
import type { RequestReport, RequestReportService } from '../../modules/privacy-requests/request-report.service.js';
import type { ReportRange } from '../../modules/privacy-requests/request-report.repository.js';
import { optOutReportFigures } from '../../modules/opt-outs/opt-out-report.repository.js';
import type { OptOutKind } from '../../modules/opt-outs/opt-out.types.js';
import type { OptOutDeps } from './deps.js';
import { OPT_OUT_REQUEST_TYPE } from './opt-out-propagation.js';

/**
 * The kinds whose opt-outs are CCPA §7102(a) requests, in the order their rows come after the
 * request types': "requests to opt out of sale/sharing" (Cal. Civ. Code §1798.120) and "requests
 * to limit" (§1798.121). `direct_marketing` is a GDPR objection: no §7102 row.
 */
export const CCPA_REPORT_KINDS: readonly OptOutKind[] = ['sale_sharing', 'sensitive_use'];

/**
 * The requests report (PRODUCT §2.16) with the opt-outs' §7102(a) rows (§2.18): the requests'
 * figures ({@link RequestReportService}) and, per calendar year (UTC) of receipt, one row per
 * kind of {@link CCPA_REPORT_KINDS} over the opt-outs (choice `opt_out`; an opt-in is not a
 * request to opt out) received in the range, in any workspace's regulation (the CCPA kinds are
 * CCPA's wherever filed), named by the request type a data system names for the kind
 * (`opt_out_sale_sharing`, `limit_sensitive_use`). Figures as a request's row
 * (`ccpaRows`): received; complied with in whole or in part = `completed`; denied = none (an
 * opt-out is never refused once stored: refused input is a 422 that stores nothing, and there is
 * no `rejected` status); `failed` (a system did not confirm) counts as received only, as a
 * failed request does; median and mean days from `received_at` to `completed_at` of the
 * completed ones. Rows sorted by year, the request types' first, then the opt-outs' in kind order.
 */
export async function readRequestReport(
  deps: Pick<OptOutDeps, 'db'> & { requestReports: Pick<RequestReportService, 'report'> },
  range: ReportRange,
): Promise<RequestReport> {
  const [requests, optOuts] = await Promise.all([
    deps.requestReports.report(range),
    optOutReportFigures(deps.db, range, CCPA_REPORT_KINDS),
  ]);
  const rowName = (kind: string) => OPT_OUT_REQUEST_TYPE[kind as OptOutKind];
  const counts: CcpaCountGroup[] = optOuts.counts.map((g) => ({
    request_type: rowName(g.kind),
    status: g.status,
    year: g.year,
    count: g.count,
  }));
  const ranked = optOuts.ranked.map(({ kind, ...r }) => ({ ...r, request_type: rowName(kind) }));
  const order = (row: { request_type: string }) => {
    const i = CCPA_REPORT_KINDS.findIndex((kind) => rowName(kind) === row.request_type);
    return i < 0 ? -1 : i;
  };
  const optOutRows = ccpaRows(counts, ranked);
  // A stable sort: the requests' rows keep their order within a year and come first.
  const ccpa_7102 = [...requests.ccpa_7102, ...optOutRows].sort((a, b) => a.year - b.year || order(a) - order(b));
  return { by_type: requests.by_type, ccpa_7102 };
}
