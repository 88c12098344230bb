/**
 * The growth benchmark's output: the empty-vs-seeded table with the 1.5× goal, the erasure
 * table, the sweeps, and `.bench/growth.json`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import type { ErasureTiming } from './in-process.js';
import { GOAL_SCENARIOS, type Measured } from './measure.js';

/** Seeded mean latency over empty mean latency, per scenario; the goal for those in {@link GOAL_SCENARIOS}. */
export interface Comparison {
  id: string;
  label: string;
  empty: Measured;
  seeded: Measured;
  latencyRatio: number;
  goal: 'PASS' | 'SHORT' | '-';
}

/** Pairs the two phases' runs by scenario id. */
export function compare(empty: Measured[], seeded: Measured[]): Comparison[] {
  return empty.flatMap((e) => {
    const s = seeded.find((m) => m.id === e.id);
    if (!s) return [];
    const latencyRatio = e.meanMs > 0 ? s.meanMs / e.meanMs : Number.NaN;
    const goal = GOAL_SCENARIOS.includes(e.id) ? (latencyRatio <= 1.5 ? 'PASS' : 'SHORT') : '-';
    return [{ id: e.id, label: e.label, empty: e, seeded: s, latencyRatio, goal }];
  });
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const f = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** Prints every table. */
export function printGrowth(
  comparisons: Comparison[],
  erasures: { empty: ErasureTiming[]; seeded: ErasureTiming[] },
  sweeps: Record<string, { ms: number; counts: object }>,
): void {
  const rows = comparisons.map((c) => [
    c.label,
    f(c.empty.requestsPerSec, 0),
    f(c.empty.meanMs),
    f(c.empty.p99Ms),
    f(c.seeded.requestsPerSec, 0),
    f(c.seeded.meanMs),
    f(c.seeded.p99Ms),
    `${f(c.latencyRatio)}×`,
    c.goal,
  ]);
  console.log(
    `\n${table(['scenario', 'empty req/s', 'mean ms', 'p99 ms', 'seeded req/s', 'mean ms', 'p99 ms', 'seeded/empty', 'goal ≤1.5×'], rows)}`,
  );
  for (const c of comparisons)
    for (const [phase, m] of [
      ['empty', c.empty],
      ['seeded', c.seeded],
    ] as const)
      if (m.non2xx + m.errors + m.checkFailures > 0)
        console.log(
          `! ${c.label} (${phase}): ${m.non2xx} non-2xx, ${m.errors} errors, ${m.checkFailures} wrong; first: ${m.firstProblem ?? '-'}`,
        );
  const erasureRows = erasures.empty.map((e, i) => {
    const s = erasures.seeded[i];
    return [String(e.ownChangeEvents), f(e.ms, 1), s ? f(s.ms, 1) : '-', s ? `${f(s.ms / e.ms)}×` : '-'];
  });
  console.log(
    `\nerasure of one subject (median)\n${table(["subject's change events", 'small db ms', 'seeded db ms', 'seeded/small'], erasureRows)}`,
  );
  const sweepRows = Object.entries(sweeps).map(([name, s]) => [name, f(s.ms, 1), JSON.stringify(s.counts)]);
  console.log(`\nretention sweep\n${table(['run', 'ms', 'deleted'], sweepRows)}`);
}

/** Writes everything to `path` as JSON. */
export function writeGrowth(path: string, data: Record<string, unknown>): void {
  mkdirSync(dirname(path), { recursive: true });
  const environment = { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? null };
  writeFileSync(path, `${JSON.stringify({ generatedAt: new Date().toISOString(), environment, ...data }, null, 2)}\n`);
}

/** True when every measured request was answered right. */
export function allAnsweredRight(comparisons: Comparison[]): boolean {
  return comparisons.every((c) => [c.empty, c.seeded].every((m) => m.non2xx + m.errors + m.checkFailures === 0));
}
