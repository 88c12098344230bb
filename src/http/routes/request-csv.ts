import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csvRow } from '../../lib/csv.js';
import type { ListRequestsInput, PrivacyRequestService } from '../../modules/privacy-requests/privacy-request.service.js';
import type { PrivacyRequestResource } from '../../modules/privacy-requests/privacy-request.types.js';
import type { RequestReport } from '../../modules/privacy-requests/request-report.service.js';
import { isFinal } from '../../modules/request-model/request-model.js';

const DAY_MS = 86_400_000;

/** A UTF-8 byte order mark: spreadsheet programs then read the file as UTF-8 (names with accents). */
export const UTF8_BOM = '\uFEFF';

/**
 * The export's columns (PRODUCT §2.16, §2.21): no subject identity; §2.16's ten, then
 * `status_reason`, `days_left` ({@link daysLeft}) and `agent` (the `agent-id` of the authorized agent
 * that filed it, PRODUCT §2.19; empty for every other request).
 */
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
  'status_reason',
  'days_left',
  'agent',
] as const;

/**
 * Whole days from `now` to the request's binding due date (`extended_due_at ?? due_at`), rounded
 * down: 0 on the due day's last 24 hours, negative once overdue (-1 within the first day past
 * it), null for a final request (PRODUCT §2.21). The console's "due in N days" reads the same.
 */
export function daysLeft(
  request: Pick<PrivacyRequestResource, 'status' | 'due_at' | 'extended_due_at'>,
  now: Date,
): number | null {
  if (isFinal(request.status)) return null;
  return Math.floor((Date.parse(request.extended_due_at ?? request.due_at) - now.getTime()) / DAY_MS);
}

/** One request as the export's cells, in {@link EXPORT_COLUMNS} order. */
function exportCells(request: PrivacyRequestResource, now: Date): (string | number | null)[] {
  const cells: Record<(typeof EXPORT_COLUMNS)[number], string | number | null> = {
    ...request,
    days_left: daysLeft(request, now),
    agent: request.agent?.id ?? null,
  };
  return EXPORT_COLUMNS.map((c) => cells[c]);
}

/** Requests per page the export reads. */
const EXPORT_PAGE = 500;

/** True when the caller asked for CSV: `format=csv`, or an `Accept` naming `text/csv` (and no `format=json`). */
export function wantsCsv(request: FastifyRequest, format: string | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  return /\btext\/csv\b/i.test(request.headers.accept ?? '');
}

/**
 * Streams the list as CSV: a UTF-8 BOM, then every request the filters select (from the first,
 * whatever `cursor` and `limit` say), a page of {@link EXPORT_PAGE} at a time through the list's
 * own cursor, each page written before the next is read, so memory stays flat however many there
 * are. `days_left` counts from `now` (the service's clock when the export starts).
 */
export function sendRequestsCsv(reply: FastifyReply, service: PrivacyRequestService, input: ListRequestsInput, now: Date) {
  async function* lines() {
    yield UTF8_BOM + csvRow(EXPORT_COLUMNS);
    let cursor: string | undefined;
    do {
      const { cursor: _from, ...rest } = input;
      const page = await service.list({ ...rest, ...(cursor === undefined ? {} : { cursor }), limit: EXPORT_PAGE });
      yield page.items.map((r) => csvRow(exportCells(r, now))).join('');
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
