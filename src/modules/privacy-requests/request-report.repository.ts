import { type ExpressionBuilder, sql } from 'kysely';
import { millisecondsBetween } from '../../db/dialect.js';
import type { Executor } from '../../db/executor.js';
import type { DB } from '../../db/schema.js';
import type { CountGroup, RankedGroupDuration } from './request-report.fns.js';

/** Which requests a report reads: received in [`from`, `to`) (RFC 3339 UTC; null: open-ended) in `workspaceIds` (null: all). */
export interface ReportRange {
  workspaceIds: readonly string[] | null;
  from: string | null;
  /** Exclusive. */
  to: string | null;
}

/** How many requests of one type, status, CCPA-or-not and year of receipt the range holds. */
export type ReportCount = CountGroup;

/** One duration a statistic of a group needs, by rank (defined with the statistics that read it). */
export type RankedDuration = RankedGroupDuration;

/** What {@link reportFigures} reads: the counts and the ranked durations of both kinds. */
export interface ReportFigures {
  counts: ReportCount[];
  /** Completed requests, per type, receipt to completion. */
  completion: RankedDuration[];
  /** Completed or rejected requests under CCPA, per year of receipt and type, receipt to that response. */
  ccpa: RankedDuration[];
}

type Eb = ExpressionBuilder<DB, 'privacy_requests'>;

/** `regulation` names `ccpa` (`ccpa`, `ccpa+gdpr`…: regulations joined by `+`). */
const underCcpa = (eb: Eb) => eb(sql<string>`'+' || ${eb.ref('regulation')} || '+'`, 'like', '%+ccpa+%');
/** When a final request got its answer: `completed_at`, else its last change (a rejection's time). */
const answeredAt = (eb: Eb) => eb.fn.coalesce('completed_at', 'updated_at');

/**
 * The report's figures in ONE statement (one snapshot on both databases, one round trip), over
 * one read of the range's requests (`workspace_id IN (…)`, `received_at` in the range, through
 * `privacy_requests_workspace_received_idx`: a period's requests only, not the workspace's; the
 * CTE `r`, one row per request with only what the figures need: no subject identity):
 *
 * - `count` rows: per request type, status, CCPA or not and year of receipt (the first four
 *   characters of the RFC 3339 UTC text), how many and how many were completed late;
 * - `completion` and `ccpa` rows: per group, only the durations a median (ranks ⌊(n+1)/2⌋ and
 *   ⌊(n+2)/2⌋), a 90th percentile by nearest rank (⌈0.9·n⌉ = ⌊(9n+9)/10⌋, integer division on
 *   both databases) and a mean (the group's sum) need, ranked by a window ordered by duration.
 *
 * A few dozen rows come back however many requests the range holds. Durations are whole
 * milliseconds from `received_at` to `completed_at` (else `updated_at`): {@link millisecondsBetween}.
 */
export async function reportFigures(db: Executor, range: ReportRange): Promise<ReportFigures> {
  const empty: ReportFigures = { counts: [], completion: [], ccpa: [] };
  if (range.workspaceIds?.length === 0) return empty;
  let requests = db.selectFrom('privacy_requests').select((eb) => [
    'request_type',
    'status',
    eb.case().when(underCcpa(eb)).then(1).else(0).end().as('ccpa'),
    sql<string>`substr(received_at, 1, 4)`.as('year'),
    eb
      .case()
      .when('status', 'in', ['completed', 'rejected'])
      .then(millisecondsBetween(db, eb.ref('received_at'), answeredAt(eb)))
      .end()
      .as('ms'),
    eb
      .case()
      .when(eb.and([eb('status', '=', 'completed'), eb(answeredAt(eb), '>', eb.fn.coalesce('extended_due_at', 'due_at'))]))
      .then(1)
      .else(0)
      .end()
      .as('late'),
  ]);
  if (range.workspaceIds !== null) requests = requests.where('workspace_id', 'in', [...range.workspaceIds]);
  if (range.from !== null) requests = requests.where('received_at', '>=', range.from);
  if (range.to !== null) requests = requests.where('received_at', '<', range.to);

  const ranked = (kind: 'completion' | 'ccpa') => {
    const group = kind === 'ccpa' ? sql`partition by request_type, year` : sql`partition by request_type`;
    const which = kind === 'ccpa' ? sql`status in ('completed', 'rejected') and ccpa = 1` : sql`status = 'completed'`;
    return sql`select ${sql.lit(kind)} as kind, request_type, ${kind === 'ccpa' ? sql`year` : sql`'0'`} as year, n, nth, ms, total_ms, cast(null as bigint) as late
      from (select request_type, year, ms,
              row_number() over (${group} order by ms) as nth,
              count(*) over (${group}) as n,
              sum(ms) over (${group}) as total_ms
            from r where ${which}) ranked
      where nth in ((n + 1) / 2, (n + 2) / 2, (9 * n + 9) / 10)`;
  };
  const { rows } = await sql<{
    kind: 'count' | 'completion' | 'ccpa';
    request_type: string;
    status: string | null;
    ccpa: number | string | null;
    year: string;
    n: number | string;
    nth: number | string | null;
    ms: number | string | null;
    total_ms: number | string | null;
    late: number | string | null;
  }>`with r as ${requests}
    select 'count' as kind, request_type, status, ccpa, year, count(*) as n, cast(null as bigint) as nth, cast(null as bigint) as ms, cast(null as bigint) as total_ms, sum(late) as late
      from r group by request_type, status, ccpa, year
    union all select kind, request_type, cast(null as text), cast(null as integer), year, n, nth, ms, total_ms, late from (${ranked('completion')}) c
    union all select kind, request_type, cast(null as text), cast(null as integer), year, n, nth, ms, total_ms, late from (${ranked('ccpa')}) p`.execute(
    db,
  );

  // PostgreSQL returns bigint and numeric as text.
  const out = empty;
  for (const r of rows) {
    if (r.kind === 'count') {
      out.counts.push({
        request_type: r.request_type,
        status: r.status as string,
        ccpa: Number(r.ccpa) === 1,
        year: Number(r.year),
        count: Number(r.n),
        late: Number(r.late),
      });
    } else {
      out[r.kind].push({
        request_type: r.request_type,
        year: Number(r.year),
        n: Number(r.n),
        rank: Number(r.nth),
        ms: Number(r.ms),
        total_ms: Number(r.total_ms),
      });
    }
  }
  return out;
}
