import { OPEN_STATUSES, REQUEST_TYPES } from '../request-model/request-model.js';

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
const oneDecimal = (n: number) => Math.round(n * 10) / 10;

// The definitions of the report's statistics over a group's every duration (days). The report
// itself gets them from the durations the database ranked ({@link buildReport});
// test/integration/privacy-requests/request-report-exact.test.ts checks the two agree.

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
 * How many requests of one type, status, CCPA-or-not and year of receipt (UTC) a range holds, as
 * the repository's `reportFigures` reads them.
 */
export interface CountGroup {
  request_type: string;
  status: string;
  /** The request is under CCPA (its `regulation` names `ccpa`). */
  ccpa: boolean;
  year: number;
  count: number;
  /** Of them, completed after their binding due date (`coalesce(extended_due_at, due_at)`). */
  late: number;
}

/**
 * One duration a statistic of a group needs, by rank, as the repository's `reportFigures` reads it:
 * the group's `n` durations ascending, the `rank`-th (1-based) of them in whole ms.
 */
export interface RankedGroupDuration {
  request_type: string;
  /** Calendar year of receipt (UTC); 0 for `completion` (grouped by type alone). */
  year: number;
  /** Durations in the group. */
  n: number;
  /** 1-based, ascending. */
  rank: number;
  ms: number;
  /** Sum of the group's durations, ms. */
  total_ms: number;
}

/** Median, 90th percentile (nearest rank) and mean of one group, in days with one decimal. */
interface GroupStatistics {
  median: number | null;
  p90: number | null;
  mean: number | null;
}

/**
 * Median, 90th percentile and mean per group from the ranked durations the store picked: the same
 * figures {@link median}, {@link p90} and {@link mean} give on the group's every duration (the
 * middle rank or ranks ⌊(n+1)/2⌋ and ⌊(n+2)/2⌋, rank ⌈0.9·n⌉, the sum over n).
 */
function statisticsByGroup(ranked: readonly RankedGroupDuration[]): Map<string, GroupStatistics> {
  const byGroup = new Map<string, RankedGroupDuration[]>();
  for (const r of ranked) {
    const key = `${r.year}|${r.request_type}`;
    byGroup.set(key, [...(byGroup.get(key) ?? []), r]);
  }
  const out = new Map<string, GroupStatistics>();
  for (const [key, rows] of byGroup) {
    const n = rows[0]!.n;
    const at = (rank: number) => (rows.find((r) => r.rank === rank)?.ms ?? Number.NaN) / DAY_MS;
    const middle = (at(Math.floor((n + 1) / 2)) + at(Math.floor((n + 2) / 2))) / 2;
    out.set(key, {
      median: oneDecimal(middle),
      p90: oneDecimal(at(Math.ceil(0.9 * n))),
      mean: oneDecimal(rows[0]!.total_ms / DAY_MS / n),
    });
  }
  return out;
}

/**
 * The report from what the store counted and ranked (PRODUCT §2.16):
 *
 * - per request type: received, completed, rejected, canceled, open, completed late (after the
 *   binding due date, `extended_due_at ?? due_at`), median and 90th percentile of the days from
 *   receipt to completion (`completion`, ranked per type);
 * - per calendar year of receipt and request type, over requests under CCPA (`regulation`
 *   naming `ccpa`): received, complied with in whole or in part (completed), denied (rejected),
 *   median and mean days to the substantive response (completion or denial; a denial's time is
 *   its last change, `updated_at`, which a final request keeps; `ccpa`, ranked per year and type).
 *
 * Request types in their declared order (then any other, by name); CCPA rows by year, then type.
 */
export function buildReport(
  counts: readonly CountGroup[],
  ranked: { completion: readonly RankedGroupDuration[]; ccpa: readonly RankedGroupDuration[] },
): { by_type: TypeFigures[]; ccpa_7102: CcpaFigures[] } {
  const byType = new Map<string, TypeFigures>(REQUEST_TYPES.map((type) => [type, emptyType(type)]));
  const open = OPEN_STATUSES as readonly string[];
  for (const g of [...counts].sort(
    (a, b) => typeOrder(a.request_type) - typeOrder(b.request_type) || a.request_type.localeCompare(b.request_type),
  )) {
    let t = byType.get(g.request_type);
    if (!t) byType.set(g.request_type, (t = emptyType(g.request_type)));
    t.received += g.count;
    if (g.status === 'completed') {
      t.completed += g.count;
      t.completed_late += g.late;
    } else if (g.status === 'rejected') t.rejected += g.count;
    else if (g.status === 'canceled') t.canceled += g.count;
    else if (open.includes(g.status)) t.open += g.count;
  }
  const completion = statisticsByGroup(ranked.completion);
  const by_type = [...byType.values()].map((figures) => {
    const s = completion.get(`0|${figures.request_type}`);
    return { ...figures, median_days_to_complete: s?.median ?? null, p90_days_to_complete: s?.p90 ?? null };
  });
  const ccpa_7102 = ccpaRows(
    counts.filter((g) => g.ccpa),
    ranked.ccpa,
  ).sort((a, b) => a.year - b.year || typeOrder(a.request_type) - typeOrder(b.request_type));
  return { by_type, ccpa_7102 };
}

/** One group of {@link ccpaRows}: how many of one type (or opt-out row's name), status and year of receipt. */
export type CcpaCountGroup = Pick<CountGroup, 'request_type' | 'status' | 'year' | 'count'>;

/**
 * The §7102(a)(1) rows (11 CCR §7102) from counted groups and the ranked durations to the
 * substantive response, one row per year of receipt and `request_type`: received (every status),
 * complied with in whole or in part (`completed`), denied (`rejected`), median and mean days (one
 * decimal) over `ranked`. Any other status (`failed`, `canceled`, open) counts as received only.
 * The requests' rows and the opt-outs' rows (src/workflows/opt-outs/read-request-report.ts) are
 * both made here, so their figures mean the same. Rows in the order their groups come.
 */
export function ccpaRows(counts: readonly CcpaCountGroup[], ranked: readonly RankedGroupDuration[]): CcpaFigures[] {
  const ccpa = new Map<string, CcpaFigures>();
  for (const g of counts) {
    const key = `${g.year}|${g.request_type}`;
    let c = ccpa.get(key);
    if (!c) ccpa.set(key, (c = emptyCcpa(g.year, g.request_type)));
    c.received += g.count;
    if (g.status === 'completed') c.complied_in_whole_or_in_part += g.count;
    else if (g.status === 'rejected') c.denied += g.count;
  }
  const response = statisticsByGroup(ranked);
  return [...ccpa.entries()].map(([key, figures]) => {
    const s = response.get(key);
    return {
      ...figures,
      median_days_to_substantive_response: s?.median ?? null,
      mean_days_to_substantive_response: s?.mean ?? null,
    };
  });
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
