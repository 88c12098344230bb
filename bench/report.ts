/**
 * Turning results into a table, a goal check and `.bench/results.json`.
 * Goals are informative: they never change the exit code (failing requests do, see run.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import type { LoadOptions, ScenarioResult } from './scenarios.js';
import type { WorkerResult } from './worker-phase.js';

/** One goal of the issue and how this run did against it. */
export interface GoalResult {
  goal: string;
  measured: string;
  verdict: 'PASS' | 'SHORT' | 'n/a';
}

/**
 * Adds `ratioToBaseline` to each result: its req/s over the mean req/s of the leg's baseline runs
 * (the bare server is measured first and last, so a drift of the machine's speed during the leg
 * weighs on both ends alike).
 */
export function addRatios(results: ScenarioResult[]): void {
  const bare = results.filter((r) => r.target === 'baseline' && r.requestsPerSec > 0);
  const mean = bare.length > 0 ? bare.reduce((sum, r) => sum + r.requestsPerSec, 0) / bare.length : 0;
  for (const r of results) r.ratioToBaseline = mean > 0 && !r.probe ? r.requestsPerSec / mean : null;
}

/** The issue's goals: throughput relative to bare node, p99 latency, and peak RSS. */
export function evaluateGoals(results: ScenarioResult[], peakRssMb: number | null): GoalResult[] {
  const byId = (id: string) => results.find((r) => r.id === id);
  const goals: GoalResult[] = [];
  const ratioGoal = (id: string, label: string, min: number) => {
    const ratio = byId(id)?.ratioToBaseline;
    goals.push(
      ratio == null
        ? { goal: `${label} ≥ ${min}× bare`, measured: '-', verdict: 'n/a' }
        : { goal: `${label} ≥ ${min}× bare`, measured: `${ratio.toFixed(3)}×`, verdict: ratio >= min ? 'PASS' : 'SHORT' },
    );
  };
  ratioGoal('effective', 'effective policy req/s', 0.6);
  ratioGoal('create', 'create req/s', 0.2);
  ratioGoal('github', 'webhook github req/s', 0.25);
  ratioGoal('gitlab', 'webhook gitlab req/s', 0.25);
  ratioGoal('identity', 'webhook identity req/s', 0.25);
  // Issue 37: a DRP exercise (signature check included) within 1.5× of create's time per request.
  const create = byId('create');
  const drp = byId('drp-exercise');
  if (create && drp && create.requestsPerSec > 0 && drp.requestsPerSec > 0) {
    const times = create.requestsPerSec / drp.requestsPerSec;
    goals.push({
      goal: 'DRP exercise time per request ≤ 1.5× create’s',
      measured: `${times.toFixed(2)}×`,
      verdict: times <= 1.5 ? 'PASS' : 'SHORT',
    });
  }
  for (const r of results.filter((s) => s.target === 'service')) {
    goals.push({
      goal: `p99 ≤ 10 ms (${r.label})`,
      measured: `${r.p99Ms.toFixed(2)} ms`,
      verdict: r.p99Ms <= 10 ? 'PASS' : 'SHORT',
    });
  }
  goals.push(
    peakRssMb === null
      ? { goal: 'service peak RSS ≤ 200 MB', measured: 'unavailable (no /proc)', verdict: 'n/a' }
      : {
          goal: 'service peak RSS ≤ 200 MB',
          measured: `${peakRssMb.toFixed(1)} MB`,
          verdict: peakRssMb <= 200 ? 'PASS' : 'SHORT',
        },
  );
  return goals;
}

function table(header: string[], rows: string[][], rightAligned: (i: number) => boolean): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (rightAligned(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Prints the scenario table, the service's peak RSS, any wrong answers, and the goals. */
export function printReport(
  results: ScenarioResult[],
  peakRssMb: number | null,
  goals: GoalResult[],
  worker: WorkerResult | null,
): void {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'ratio', 'svc RSS MB'];
  const rows = results.map((r) => [
    r.label,
    r.requestsPerSec.toFixed(0),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    String(r.non2xx),
    String(r.errors),
    r.ratioToBaseline === null ? '-' : `${r.ratioToBaseline.toFixed(3)}×`,
    r.serviceMemory ? r.serviceMemory.peakMb.toFixed(1) : '-',
  ]);
  console.log(`\n${table(header, rows, (i) => i > 0)}`);
  console.log(`\nservice peak RSS (VmHWM): ${peakRssMb === null ? 'unavailable' : `${peakRssMb.toFixed(1)} MB`}`);
  if (worker)
    console.log(
      `worker (one process, after the load): ${worker.finished} requests finished, ${worker.perSec.toFixed(0)}/s (${worker.queuedAtStart} queued at start)`,
    );
  for (const r of results.filter((s) => s.firstProblem !== null || s.checkFailures > 0 || s.errors > 0)) {
    console.log(
      `! ${r.label}: ${r.non2xx} non-2xx, ${r.errors} errors (${r.timeouts} timeouts), ${r.checkFailures} wrong 2xx; first: ${r.firstProblem ?? '-'}`,
    );
  }
  console.log(
    `\ngoals (informative)\n${table(
      ['goal', 'measured', 'verdict'],
      goals.map((g) => [g.goal, g.measured, g.verdict]),
      (i) => i === 1,
    )}`,
  );
}

/** Writes everything to `path` as JSON (creating its folder). */
export function writeResults(
  path: string,
  data: {
    load: LoadOptions;
    logLevel: string;
    profiled: boolean;
    legs: {
      database: string;
      results: ScenarioResult[];
      peakRssMb: number | null;
      goals: GoalResult[];
      worker: WorkerResult | null;
      ok: boolean;
    }[];
    ok: boolean;
  },
): void {
  mkdirSync(dirname(path), { recursive: true });
  const environment = {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? null,
  };
  writeFileSync(path, `${JSON.stringify({ generatedAt: new Date().toISOString(), environment, ...data }, null, 2)}\n`);
}

/** True when no measured scenario had errors, non-2xx answers, or wrong 2xx answers. */
export function allRequestsSucceeded(results: ScenarioResult[]): boolean {
  return results.every((r) => r.errors === 0 && r.non2xx === 0 && r.checkFailures === 0);
}
