/**
 * The growth benchmark's audit verification row: `verifyAuditChain` (what `privacyctl audit
 * verify` and `GET /api/v1/audit-events/verify` run) on the small and on the seeded database,
 * in this process, with its time and the process's resident memory growth while it runs. The
 * chain is read in pages of 1,000 entries inside one snapshot, so the growth should not follow
 * the number of entries (the seed adds about 2 per request, 200 k × BENCH_GROWTH_SCALE).
 */
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { verifyAuditChain } from '../../src/modules/audit/audit-read.repository.js';

/** One verification: entries checked, whether intact, time (ms), RSS before and its peak growth during the run (MiB). */
export interface VerifyTiming {
  run: string;
  entries: number;
  intact: boolean;
  ms: number;
  rssBeforeMiB: number;
  rssGrowthMiB: number;
}

const MiB = 1024 * 1024;

/** Verifies the chain of `databaseUrl` once, sampling RSS every 5 ms (between pages: reads are awaited). */
export async function timeAuditVerify(databaseUrl: string, run: string): Promise<VerifyTiming> {
  const database = createDatabase(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }).databaseUrl);
  try {
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
    const start = performance.now();
    const { entries, problem } = await verifyAuditChain(database.db);
    const ms = performance.now() - start;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    return { run, entries, intact: problem === null, ms, rssBeforeMiB: before / MiB, rssGrowthMiB: (peak - before) / MiB };
  } finally {
    await database.close();
  }
}

/** Prints the verification table. */
export function printAuditVerify(timings: readonly VerifyTiming[]): void {
  console.log('\naudit verify (in process, pages of 1,000 in one snapshot)');
  console.log('run         entries   intact        ms   RSS before MiB   RSS growth MiB');
  for (const t of timings)
    console.log(
      `${t.run.padEnd(10)}  ${String(t.entries).padStart(7)}   ${String(t.intact).padEnd(6)}  ${t.ms.toFixed(1).padStart(8)}   ${t.rssBeforeMiB.toFixed(1).padStart(14)}   ${t.rssGrowthMiB.toFixed(1).padStart(14)}`,
    );
}
