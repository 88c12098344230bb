import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csvRow } from '../../lib/csv.js';
import type { ListRequestsInput, PrivacyRequestService } from '../../modules/privacy-requests/privacy-request.service.js';
import type { RequestReport } from '../../modules/privacy-requests/request-report.service.js';

/** The export's columns (PRODUCT §2.16): no subject identity. */
export const EXPORT_COLUMNS = [
  'id',
  'request_type',
  'workspace_id',
  'status',
  'regulation',
  'received_at',
  'due_at',
  'extended_due_at',
  'completed_at',
  'assignee',
] as const;

/** Requests per page the export reads. */
const EXPORT_PAGE = 500;

/** True when the caller asked for CSV: `format=csv`, or an `Accept` naming `text/csv` (and no `format=json`). */
export function wantsCsv(request: FastifyRequest, format: string | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  return /\btext\/csv\b/i.test(request.headers.accept ?? '');
}

/**
 * Streams the list as CSV: every request the filters select (from the first, whatever `cursor`
 * and `limit` say), a page of {@link EXPORT_PAGE} at a time through the list's own cursor, each
 * page written before the next is read, so memory stays flat however many there are.
 */
export function sendRequestsCsv(reply: FastifyReply, service: PrivacyRequestService, input: ListRequestsInput) {
  async function* lines() {
    yield csvRow(EXPORT_COLUMNS);
    let cursor: string | undefined;
    do {
      const { cursor: _from, ...rest } = input;
      const page = await service.list({ ...rest, ...(cursor === undefined ? {} : { cursor }), limit: EXPORT_PAGE });
      yield page.items.map((r) => csvRow(EXPORT_COLUMNS.map((c) => r[c]))).join('');
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', 'attachment; filename="privacy-requests.csv"')
    .send(Readable.from(lines()));
}

/** The report's CSV columns: one table, `section` `by_type` or `ccpa_7102`, the other's cells empty. */
export const REPORT_COLUMNS = [
  'section',
  'year',
  'request_type',
  'received',
  'completed',
  'rejected',
  'canceled',
  'open',
  'completed_late',
  'median_days_to_complete',
  'p90_days_to_complete',
  'complied_in_whole_or_in_part',
  'denied',
  'median_days_to_substantive_response',
  'mean_days_to_substantive_response',
] as const;

/** The report as CSV text (a few rows: per type, per year and type). */
export function reportCsv(report: RequestReport): string {
  const rows = [
    ...report.by_type.map((r) => ({ section: 'by_type', ...r })),
    ...report.ccpa_7102.map((r) => ({ section: 'ccpa_7102', ...r })),
  ] as Record<string, string | number | null>[];
  return csvRow(REPORT_COLUMNS) + rows.map((r) => csvRow(REPORT_COLUMNS.map((c) => r[c]))).join('');
}
