/**
 * Cost as data grows (issue 5, item 2), in one run: the service on an empty database, measured;
 * erasures and a retention sweep timed; then 1 M change events and 100 k privacy requests (times
 * BENCH_GROWTH_SCALE) bulk-seeded into the same database, and everything measured again.
 * Prints the tables and writes `.bench/growth.json`.
 *
 * Usage: `npm run bench:growth` (builds first) or `node --import tsx bench/growth/run.ts`.
 * Environment: BENCH_GROWTH_SCALE (default 1), BENCH_DATABASE_URL (PostgreSQL server URL: a
 * fresh schema is created and dropped; SQLite temp file when unset), BENCH_DURATION (s per run,
 * default 3), BENCH_WARMUP (s, default 1), BENCH_CONNECTIONS (default 10).
 * Exit code: 0, or 1 when setup failed or any measured request failed or was answered wrongly.
 */
import { NO_RATE_LIMITS } from '../processes.js';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort, killAllNow, startNode, stop, stopAll, waitForHttp } from '../processes.js';
import { createBody, type Seeded, seedDatabase, seedThroughApi } from '../seed.js';
import { printAuditVerify, timeAuditVerify } from './audit-verify.js';
import { type ErasureTiming, timeErasures, timeSweep } from './in-process.js';
import { type GrowthLoad, growthScenarios, type Measured, measure, type ReportPeriod } from './measure.js';
import { type ExportTiming, officerScope, printOfficerDay, timeCsvExport } from './officer-day.js';
import { allAnsweredRight, compare, printGrowth, writeGrowth } from './report.js';
import { seedGrowth } from './seed-growth.js';
import { seedPlan } from './seed-plan.js';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT_DIR = join(ROOT, '.bench');
const ERASURE_SIZES = [10, 100, 1000];

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}

/** The database under test: a SQLite file in `workDir`, or a fresh schema on BENCH_DATABASE_URL. */
async function openTarget(workDir: string): Promise<{ url: string; dialect: string; drop: () => Promise<void> }> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return { url: `sqlite:${join(workDir, 'privacy.db')}`, dialect: 'sqlite', drop: async () => undefined };
  const schema = `bench_growth_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create schema ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), dialect: 'postgres', drop: () => admin(`drop schema ${schema} cascade`) };
}

async function startService(databaseUrl: string, phase: string) {
  const server = join(ROOT, 'dist/server.js');
  if (!existsSync(server)) throw new Error('dist/server.js is missing: run `npm run build` first');
  const port = await freePort();
  // No worker or sweeper in the service: the sweep is timed on its own, and nothing else writes meanwhile.
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    WORKER_IN_SERVER: 'false',
    ...NO_RATE_LIMITS,
  };
  const child = startNode('service', [server], env, join(OUT_DIR, `growth-service-${phase}.log`));
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${url}/healthz`);
  return { child, url };
}

async function phase(
  name: string,
  databaseUrl: string,
  seeded: Seeded,
  load: GrowthLoad,
  timelineRequest: string,
  period: ReportPeriod,
) {
  const service = await startService(databaseUrl, name);
  try {
    const results: Measured[] = [];
    for (const scenario of growthScenarios(
      seeded.token,
      `${name}${randomBytes(3).toString('hex')}`,
      seeded.webhooks,
      timelineRequest,
      period,
    )) {
      console.error(`  ${name}: ${scenario.label}…`);
      results.push(await measure(scenario, service.url, load));
      // The empty phase's filings end the report period (measure.ts, ReportPeriod).
      if (scenario.id === 'create') period.to ??= new Date().toISOString();
    }
    console.error(`  ${name}: CSV export of every request…`);
    const csvExport = await timeCsvExport(service.url, seeded.token, service.child.process.pid as number);
    return { results, csvExport };
  } finally {
    await stop(service.child);
  }
}

async function main(workDir: string): Promise<number> {
  const scale = numberFromEnv('BENCH_GROWTH_SCALE', 1);
  const load: GrowthLoad = {
    connections: numberFromEnv('BENCH_CONNECTIONS', 10),
    durationSec: numberFromEnv('BENCH_DURATION', 3),
    warmupSec: numberFromEnv('BENCH_WARMUP', 1),
  };
  mkdirSync(OUT_DIR, { recursive: true });
  const target = await openTarget(workDir);
  const period: ReportPeriod = { from: new Date().toISOString(), to: null };
  try {
    console.error(
      `bench:growth on ${target.dialect}, scale ${scale}, ${load.connections} connections, ${load.durationSec} s per run`,
    );
    const base = await seedDatabase(target.url);
    const first = await startService(target.url, 'setup');
    const replayId = await seedThroughApi(
      first.url,
      base.token,
      `replay-${randomBytes(4).toString('hex')}`,
      createBody('setup', 1),
    );
    await stop(first.child);

    const { results: empty, csvExport: emptyExport } = await phase('empty', target.url, base, load, replayId, period);
    const emptyScope = await officerScope(target.url, period);
    const erasures: { empty: ErasureTiming[]; seeded: ErasureTiming[] } = { empty: [], seeded: [] };
    erasures.empty = await timeErasures(target.url, ERASURE_SIZES, 3);
    const sweeps: Record<string, { ms: number; counts: object }> = { 'small db': await timeSweep(target.url) };
    const verifications = [await timeAuditVerify(target.url, 'small db')];

    console.error('  seeding…');
    const seed = await seedGrowth(target.url, seedPlan(scale), Date.now());
    console.error(`  seeded in ${seed.seconds.toFixed(1)} s: ${JSON.stringify(seed.rows)}`);

    const { results: grown, csvExport: seededExport } = await phase('seeded', target.url, base, load, replayId, period);
    const scope = { empty: emptyScope, seeded: await officerScope(target.url, period) };
    const exports: Record<'empty' | 'seeded', ExportTiming> = { empty: emptyExport, seeded: seededExport };
    erasures.seeded = await timeErasures(target.url, ERASURE_SIZES, 3);
    sweeps['seeded db, 1st'] = await timeSweep(target.url);
    sweeps['seeded db, 2nd'] = await timeSweep(target.url);
    verifications.push(await timeAuditVerify(target.url, 'seeded db'));

    const comparisons = compare(empty, grown);
    console.log(`\nseeded in ${seed.seconds.toFixed(1)} s (${target.dialect}, scale ${scale}): ${JSON.stringify(seed.rows)}`);
    printGrowth(comparisons, erasures, sweeps);
    printOfficerDay(scope, exports, comparisons);
    printAuditVerify(verifications);
    const ok =
      allAnsweredRight(comparisons) &&
      verifications.every((v) => v.intact) &&
      [...erasures.empty, ...erasures.seeded].every((e) => e.erasedChangeEvents === e.ownChangeEvents);
    writeGrowth(join(OUT_DIR, 'growth.json'), {
      dialect: target.dialect,
      scale,
      load,
      seed,
      comparisons,
      erasures,
      sweeps,
      verifications,
      officerScope: scope,
      reportPeriod: period,
      csvExports: exports,
      ok,
    });
    console.log(`\nresults: ${join(OUT_DIR, 'growth.json')}`);
    if (!ok)
      console.error(
        'FAILED: some requests failed, an erasure missed change events, or the audit chain did not verify; these numbers measure nothing.',
      );
    return ok ? 0 : 1;
  } finally {
    await target.drop();
  }
}

const workDir = mkdtempSync(join(tmpdir(), 'privacy-growth-'));
process.on('exit', () => {
  killAllNow();
  rmSync(workDir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

let exitCode = 1;
try {
  exitCode = await main(workDir);
} catch (error) {
  console.error('bench:growth failed:', error instanceof Error ? (error.stack ?? error.message) : error);
} finally {
  await stopAll();
}
process.exit(exitCode);
