import { OPEN_STATUSES, REQUEST_TYPES } from '../request-model/request-model.js';

/** What the report reads of a request (PRODUCT §2.16). Times RFC 3339 UTC. */
export interface ReportInput {
  request_type: string;
  status: string;
  regulation: string;
  received_at: string;
  due_at: string;
  extended_due_at: string | null;
  completed_at: string | null;
  /** The time of its last change: for a rejected request, when it was rejected. */
  updated_at: string;
}

/** Per request type. Days with one decimal; null when there is nothing to measure. */
export interface TypeFigures {
  request_type: string;
  received: number;
  completed: number;
  rejected: number;
  canceled: number;
  open: number;
  completed_late: number;
  median_days_to_complete: number | null;
  p90_days_to_complete: number | null;
}

/** CCPA regulations §7102(a)(1) (11 CCR §7102), per calendar year (UTC) of receipt and request type. */
export interface CcpaFigures {
  year: number;
  request_type: string;
  received: number;
  complied_in_whole_or_in_part: number;
  denied: number;
  median_days_to_substantive_response: number | null;
  mean_days_to_substantive_response: number | null;
}

const DAY_MS = 86_400_000;
const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS;
const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/** The median (the mean of the two middle values for an even count), one decimal; null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return oneDecimal(value);
}

/** The 90th percentile by nearest rank (the ⌈0.9·n⌉-th smallest), one decimal; null for none. */
export function p90(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return oneDecimal(sorted[Math.ceil(0.9 * sorted.length) - 1] as number);
}

/** The mean, one decimal; null for none. */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return oneDecimal(values.reduce((a, b) => a + b, 0) / values.length);
}

/**
 * Accumulates the report over requests fed one at a time (a page at a time from the store), so
 * only the durations are held, never the rows:
 *
 * - per request type: received, completed, rejected, canceled, open, completed late (after the
 *   binding due date, `extended_due_at ?? due_at`), median and 90th percentile of the days from
 *   receipt to completion;
 * - per calendar year of receipt and request type, over requests under CCPA (`regulation`
 *   naming `ccpa`): received, complied with in whole or in part (completed), denied (rejected),
 *   median and mean days to the substantive response (completion or denial; a denial's time is
 *   its last change, `updated_at`, which a final request keeps).
 */
export function createReportAccumulator() {
  const byType = new Map<string, { figures: TypeFigures; durations: number[] }>();
  const ccpa = new Map<string, { figures: CcpaFigures; durations: number[] }>();
  for (const type of REQUEST_TYPES) byType.set(type, { figures: emptyType(type), durations: [] });

  return {
    add(r: ReportInput): void {
      let entry = byType.get(r.request_type);
      if (!entry) byType.set(r.request_type, (entry = { figures: emptyType(r.request_type), durations: [] }));
      const t = entry.figures;
      t.received += 1;
      if (r.status === 'completed') {
        t.completed += 1;
        const completedAt = r.completed_at ?? r.updated_at;
        entry.durations.push(days(r.received_at, completedAt));
        if (completedAt > (r.extended_due_at ?? r.due_at)) t.completed_late += 1;
      } else if (r.status === 'rejected') t.rejected += 1;
      else if (r.status === 'canceled') t.canceled += 1;
      else if ((OPEN_STATUSES as readonly string[]).includes(r.status)) t.open += 1;

      if (!r.regulation.split('+').includes('ccpa')) return;
      const year = Number(r.received_at.slice(0, 4));
      const key = `${year}|${r.request_type}`;
      let c = ccpa.get(key);
      if (!c) ccpa.set(key, (c = { figures: emptyCcpa(year, r.request_type), durations: [] }));
      c.figures.received += 1;
      if (r.status === 'completed') {
        c.figures.complied_in_whole_or_in_part += 1;
        c.durations.push(days(r.received_at, r.completed_at ?? r.updated_at));
      } else if (r.status === 'rejected') {
        c.figures.denied += 1;
        c.durations.push(days(r.received_at, r.completed_at ?? r.updated_at));
      }
    },

    /** The figures: request types in their declared order; CCPA rows by year, then type. */
    result(): { by_type: TypeFigures[]; ccpa_7102: CcpaFigures[] } {
      const by_type = [...byType.values()].map(({ figures, durations }) => ({
        ...figures,
        median_days_to_complete: median(durations),
        p90_days_to_complete: p90(durations),
      }));
      const ccpa_7102 = [...ccpa.values()]
        .map(({ figures, durations }) => ({
          ...figures,
          median_days_to_substantive_response: median(durations),
          mean_days_to_substantive_response: mean(durations),
        }))
        .sort((a, b) => a.year - b.year || typeOrder(a.request_type) - typeOrder(b.request_type));
      return { by_type, ccpa_7102 };
    },
  };
}

function typeOrder(type: string): number {
  const i = (REQUEST_TYPES as readonly string[]).indexOf(type);
  return i < 0 ? REQUEST_TYPES.length : i;
}

function emptyType(request_type: string): TypeFigures {
  return {
    request_type,
    received: 0,
    completed: 0,
    rejected: 0,
    canceled: 0,
    open: 0,
    completed_late: 0,
    median_days_to_complete: null,
    p90_days_to_complete: null,
  };
}

function emptyCcpa(year: number, request_type: string): CcpaFigures {
  return {
    year,
    request_type,
    received: 0,
    complied_in_whole_or_in_part: 0,
    denied: 0,
    median_days_to_substantive_response: null,
    mean_days_to_substantive_response: null,
  };
}
