import { sql } from 'kysely';
import { millisecondsBetween } from '../../db/dialect.js';
import type { Executor } from '../../db/executor.js';

/** Which opt-outs a report reads: received in [`from`, `to`) (RFC 3339 UTC; null: open-ended) in `workspaceIds` (null: all). */
export interface OptOutReportRange {
  workspaceIds: readonly string[] | null;
  from: string | null;
  /** Exclusive. */
  to: string | null;
}

/** How many opt-outs of one kind, status and calendar year of receipt (UTC) the range holds. */
export interface OptOutReportCount {
  kind: string;
  status: string;
  year: number;
  count: number;
}

/** Of one kind and year's completed opt-outs (`n`, durations ascending), the `rank`-th (1-based) duration in whole ms, and their sum. */
export interface OptOutRankedDuration {
  kind: string;
  year: number;
  n: number;
  rank: number;
  ms: number;
  total_ms: number;
}

/**
 * The figures of the yearly report's opt-out rows (CCPA regulations §7102(a); PRODUCT §2.18) in
 * ONE statement, over the range's opt-outs of `kinds` with choice `opt_out` (an opt-in is not a
 * request to opt out): per kind, status and year of receipt how many (`counts`); and per kind
 * and year, of the `completed` ones, only the durations from `received_at` to `completed_at` a
 * median (ranks ⌊(n+1)/2⌋ and ⌊(n+2)/2⌋) and a mean (the sum) need, ranked by a window ordered
 * by duration (`ranked`): the technique of the requests' report
 * (modules/privacy-requests/request-report.repository.ts), so the figures are exact and a few
 * rows leave the database however many opt-outs the range holds.
 */
export async function optOutReportFigures(
  db: Executor,
  range: OptOutReportRange,
  kinds: readonly string[],
): Promise<{ counts: OptOutReportCount[]; ranked: OptOutRankedDuration[] }> {
  if (range.workspaceIds?.length === 0 || kinds.length === 0) return { counts: [], ranked: [] };
  let optOuts = db
    .selectFrom('opt_outs')
    .select((eb) => [
      'kind',
      'status',
      sql<string>`substr(received_at, 1, 4)`.as('year'),
      eb
        .case()
        .when('status', '=', 'completed')
        .then(millisecondsBetween(db, eb.ref('received_at'), eb.fn.coalesce('completed_at', 'received_at')))
        .end()
        .as('ms'),
    ])
    .where('choice', '=', 'opt_out')
    .where('kind', 'in', [...kinds]);
  if (range.workspaceIds !== null) optOuts = optOuts.where('workspace_id', 'in', [...range.workspaceIds]);
  if (range.from !== null) optOuts = optOuts.where('received_at', '>=', range.from);
  if (range.to !== null) optOuts = optOuts.where('received_at', '<', range.to);

  const { rows } = await sql<{
    what: 'count' | 'ranked';
    kind: string;
    status: string | null;
    year: string;
    n: number | string;
    nth: number | string | null;
    ms: number | string | null;
    total_ms: number | string | null;
  }>`with o as ${optOuts}
    select 'count' as what, kind, status, year, count(*) as n, cast(null as bigint) as nth, cast(null as bigint) as ms, cast(null as bigint) as total_ms
      from o group by kind, status, year
    union all select 'ranked' as what, kind, cast(null as text), year, n, nth, ms, total_ms
      from (select kind, year, ms,
              row_number() over (partition by kind, year order by ms) as nth,
              count(*) over (partition by kind, year) as n,
              sum(ms) over (partition by kind, year) as total_ms
            from o where status = 'completed') ranked
      where nth in ((n + 1) / 2, (n + 2) / 2)`.execute(db);

  // PostgreSQL returns bigint and numeric as text.
  const out = { counts: [] as OptOutReportCount[], ranked: [] as OptOutRankedDuration[] };
  for (const r of rows) {
    if (r.what === 'count')
      out.counts.push({ kind: r.kind, status: r.status as string, year: Number(r.year), count: Number(r.n) });
    else
      out.ranked.push({
        kind: r.kind,
        year: Number(r.year),
        n: Number(r.n),
        rank: Number(r.nth),
        ms: Number(r.ms),
        total_ms: Number(r.total_ms),
      });
  }
  return out;
}
