/**
 * The growth benchmark's officer's-day rows beside the HTTP table (issue 26):
 *
 * - **scope**: how many requests of the bench workspace the stats, export and report rows read
 *   in each phase (all of acme's, its open ones, and those received in the report period). Those
 *   rows are exact, so they read every request in their scope, and the `create` runs of both
 *   phases leave theirs `queued` in acme: the seeded phase's scope holds both phases' creates
 *   besides acme's seeded history. The period's scope is the empty phase's creates in both.
 * - **CSV export of every request**: one `GET /api/v1/privacy/requests?format=csv` with the
 *   admin token (`*`, no workspace filter: at scale 1 the 100 k seeded requests and the creates),
 *   read to its end by this process; rows, time, and the service's resident memory while it
 *   streams (`VmRSS` of /proc/<pid>/status sampled every 5 ms, growth over its value before).
 *   The export reads a page of 500 at a time, so the growth should not follow the rows.
 */
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { OPEN_STATUSES } from '../../src/modules/request-model/request-model.js';
import { WORKSPACE } from '../seed.js';
import type { ReportPeriod } from './measure.js';

const MiB = 1024 * 1024;

/** The requests of the bench workspace the officer's rows read: all, the open ones, those received in the report period. */
export interface OfficerScope {
  requests: number;
  open: number;
  period: number;
}

/** Counts the bench workspace's requests (service stopped or not: three reads). */
export async function officerScope(databaseUrl: string, period: ReportPeriod): Promise<OfficerScope> {
  const database = createDatabase(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }).databaseUrl);
  try {
    const count = async (which: 'all' | 'open' | 'period') => {
      let query = database.db
        .selectFrom('privacy_requests')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('workspace_id', '=', WORKSPACE);
      if (which === 'open') query = query.where('status', 'in', [...OPEN_STATUSES]);
      if (which === 'period') {
        query = query.where('received_at', '>=', period.from);
        // `to` is inclusive (a time the endpoint reads as that instant); times are fixed-width text.
        if (period.to !== null) query = query.where('received_at', '<=', period.to);
      }
      return Number((await query.executeTakeFirstOrThrow()).n);
    };
    return { requests: await count('all'), open: await count('open'), period: await count('period') };
  } finally {
    await database.close();
  }
}

/** One export: CSV records (header excluded), bytes, time (ms), the service's RSS before and its peak growth during it (MiB). */
export interface ExportTiming {
  rows: number;
  bytes: number;
  ms: number;
  rssBeforeMiB: number;
  rssGrowthMiB: number;
}

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** Exports every request as CSV from the service at `url` (process `pid`), reading the stream to its end. */
export async function timeCsvExport(url: string, token: string, pid: number): Promise<ExportTiming> {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 5);
  const start = performance.now();
  try {
    const res = await fetch(`${url}/api/v1/privacy/requests?format=csv`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200 || !res.body) throw new Error(`CSV export answered ${res.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const ms = performance.now() - start;
    peak = Math.max(peak, rssOf(pid));
    return { rows: lines - 1, bytes, ms, rssBeforeMiB: before / MiB, rssGrowthMiB: (peak - before) / MiB };
  } finally {
    clearInterval(sampler);
  }
}

/** The officer's rows of the HTTP table and what each reads: acme's open requests (stats) or all of them. */
const SCOPE_OF: Record<string, keyof OfficerScope> = {
  'queue-stats': 'open',
  'export-csv': 'requests',
  report: 'requests',
  'report-period': 'period',
};

/**
 * Per officer's row, its seeded/empty mean latency over the growth of what it reads (seeded
 * scope / empty scope): 1× when the cost follows the requests in its scope and nothing else of
 * the database (other workspaces, final requests for the stats, other tables).
 */
export function perScopeRatios(
  comparisons: readonly { id: string; latencyRatio: number }[],
  scope: { empty: OfficerScope; seeded: OfficerScope },
): { id: string; latencyRatio: number; scopeRatio: number; perRequest: number }[] {
  return comparisons.flatMap((c) => {
    const key = SCOPE_OF[c.id];
    if (key === undefined) return [];
    const scopeRatio = scope.seeded[key] / scope.empty[key];
    return [{ id: c.id, latencyRatio: c.latencyRatio, scopeRatio, perRequest: c.latencyRatio / scopeRatio }];
  });
}

/** Prints the scope lines and the export table. */
export function printOfficerDay(
  scope: { empty: OfficerScope; seeded: OfficerScope },
  exports: { empty: ExportTiming; seeded: ExportTiming },
  comparisons: readonly { id: string; latencyRatio: number }[],
): void {
  console.log(
    `\nofficer's rows read ${WORKSPACE}'s requests: empty ${scope.empty.requests} (${scope.empty.open} open, ${scope.empty.period} in the report period), seeded ${scope.seeded.requests} (${scope.seeded.open} open, ${scope.seeded.period} in the period)`,
  );
  for (const r of perScopeRatios(comparisons, scope))
    console.log(
      `  ${r.id.padEnd(13)} seeded/empty ${r.latencyRatio.toFixed(2)}× over a scope ${r.scopeRatio.toFixed(2)}× larger: ${r.perRequest.toFixed(2)}× per request read`,
    );
  console.log('\nCSV export of every request (streamed, pages of 500; service RSS sampled every 5 ms)');
  console.log('run        rows       MiB        ms   rows/s   RSS before MiB   RSS growth MiB');
  for (const [run, t] of Object.entries(exports))
    console.log(
      `${run.padEnd(7)} ${String(t.rows).padStart(7)}  ${(t.bytes / MiB).toFixed(1).padStart(8)}  ${t.ms.toFixed(0).padStart(8)}  ${((t.rows / t.ms) * 1000).toFixed(0).padStart(7)}   ${t.rssBeforeMiB.toFixed(1).padStart(14)}   ${t.rssGrowthMiB.toFixed(1).padStart(14)}`,
    );
}
