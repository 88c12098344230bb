/**
 * The benchmark, in one run, once per database leg (a fresh SQLite file; and PostgreSQL in a
 * fresh schema when BENCH_DATABASE_URL is set): a bare node:http baseline and the real service
 * (`node dist/server.js`, without its in-server worker) as child processes on free loopback
 * ports; an admin token, the three webhook integrations and policy layers seeded; every scenario
 * driven by autocannon; then one `privacyctl worker` works the filed queue; a table, a goal
 * check and `.bench/results.json`. Children are stopped on every exit path.
 *
 * Usage: `npm run bench` (builds first) or `node --import tsx bench/run.ts [--quick]`.
 * Environment: BENCH_DURATION (s, default 10; 2 with --quick), BENCH_CONNECTIONS (50),
 * BENCH_WARMUP (s, default 1; 0 with --quick), BENCH_LOG_LEVEL (service LOG_LEVEL, default warn),
 * BENCH_ONLY (comma-separated scenario ids; the baseline always runs, first and last), BENCH_DATABASE_URL
 * (postgres://…: adds the PostgreSQL leg), BENCH_DATABASES (`sqlite`, `postgres` or both), BENCH_PROFILE=1
 * (service under --cpu-prof, profiles in .bench/profiles/; its numbers are not comparable),
 * BENCH_TASK_RESULT_BYTES (each posted task result's `data`, default 65536) and BENCH_TASK_SYSTEMS
 * (tasks per seeded request, default 50) for the task-result scenario and its /healthz probe.
 * Exit code: 0, or 1 when setup failed or any request errored, was non-2xx or was a wrong 2xx.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type Child,
  firstJsonLine,
  freePort,
  killAllNow,
  NO_RATE_LIMITS,
  UNREACHABLE_RATE_LIMITS,
  logTail,
  readMemory,
  startNode,
  stop,
  stopAll,
  waitForHttp,
  SERVICE_NODE_FLAGS,
} from './processes.js';
import { addRatios, allRequestsSucceeded, evaluateGoals, printReport, writeResults } from './report.js';
import { type LoadOptions, runScenario, type ScenarioResult, scenarios } from './scenarios.js';
import { type BenchDatabase, benchDatabases } from './databases.js';
import { createBody, seedDatabase, seedThroughApi } from './seed.js';
import { seedDrp } from './drp-seed.js';
import { drpExerciseScenario } from './drp-scenario.js';
import { seedDataTasks } from './seed-tasks.js';
import { taskResultBody } from './task-result-body.js';
import { printTaskResultProbe, runTaskResultWithProbe } from './task-result-probe.js';
import { measureWorker, type WorkerResult } from './worker-phase.js';
import { type BacklogResult, measureHealthzUnderBacklog, printBacklog } from './backlog-phase.js';
import { type DeliveryResult, measureDelivery, printDelivery } from './delivery-phase.js';
import { type FairnessResult, measureFairness, printFairness } from './fairness-phase.js';
import { type ConsoleLoadResult, measureConsoleLoad, printConsoleLoad } from './console-phase.js';
import { startReceiver, type Receiver } from './receiver.js';
import { cancelQueued, disableEndpoints, refreshPlannerStatistics } from './databases.js';

const ROOT = resolve(import.meta.dirname, '..');
/** Pending tasks seeded per measured second of the task-result scenario: more than it can answer here. */
const TASKS_PER_SECOND = 4000;
const OUT_DIR = join(ROOT, '.bench');
/** Scenarios that read what the filing scenarios wrote: PostgreSQL's statistics are refreshed first. */
const READ_SCENARIOS = new Set(['queue', 'audit']);

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}

function settings() {
  const quick = process.argv.includes('--quick');
  const load: LoadOptions = {
    connections: numberFromEnv('BENCH_CONNECTIONS', 50),
    durationSec: numberFromEnv('BENCH_DURATION', quick ? 2 : 10),
    warmupSec: numberFromEnv('BENCH_WARMUP', quick ? 0 : 1),
  };
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // Each posted result's `data` (bytes of JSON; 0: the small one of earlier runs) and the systems a seeded request waits for.
  const tasks = {
    resultBytes: numberFromEnv('BENCH_TASK_RESULT_BYTES', 64 * 1024),
    systems: numberFromEnv('BENCH_TASK_SYSTEMS', 50),
  };
  return { load, only, tasks, logLevel: process.env.BENCH_LOG_LEVEL || 'warn', profiled: process.env.BENCH_PROFILE === '1' };
}

async function startBaseline(): Promise<string> {
  const child = startNode('baseline', ['--import', 'tsx', join(ROOT, 'bench/baseline-server.ts')], { PORT: '0' }, null);
  const { port } = await firstJsonLine<{ port: number }>(child);
  return `http://127.0.0.1:${port}`;
}

/** Warns when a file under src/ is newer than dist/server.js: the old build would be measured. */
function warnIfStale(server: string): void {
  const built = statSync(server).mtimeMs;
  const src = join(ROOT, 'src');
  const newer = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && statSync(join(src, f)).mtimeMs > built,
  );
  if (newer.length > 0)
    console.error(`WARNING: dist/ is older than src/ (${newer.slice(0, 3).join(', ')}…); run \`npm run build\``);
}

async function startService(
  databaseUrl: string,
  logLevel: string,
  profiled: boolean,
  leg: string,
  extraEnv: Record<string, string> = {},
): Promise<{ child: Child; url: string }> {
  const server = join(ROOT, 'dist/server.js');
  if (!existsSync(server)) throw new Error('dist/server.js is missing: run `npm run build` first');
  warnIfStale(server);
  const port = await freePort();
  const profileArgs = profiled ? ['--cpu-prof', `--cpu-prof-dir=${join(OUT_DIR, 'profiles')}`] : [];
  // The in-server worker would share the event loop with the load; it is measured on its own.
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: logLevel,
    WORKER_IN_SERVER: 'false',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    // BENCH_RATE_LIMITS=on: limits too high to trigger, to measure what counting costs.
    ...(process.env.BENCH_RATE_LIMITS === 'on' ? UNREACHABLE_RATE_LIMITS : NO_RATE_LIMITS),
    ...extraEnv,
  };
  const child = startNode('service', [...SERVICE_NODE_FLAGS, ...profileArgs, server], env, join(OUT_DIR, `service-${leg}.log`));
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${url}/healthz`);
  return { child, url };
}

type Settings = ReturnType<typeof settings>;

/** One leg: seed, start the service, run the scenarios and the worker phase, report. */
async function runLeg(database: BenchDatabase, baselineUrl: string, runId: string, options: Settings, receiver: Receiver) {
  const { load, only, logLevel, profiled } = options;
  console.error(`\n== ${database.name}`);
  const taskBody = taskResultBody(options.tasks.resultBytes);
  const { token, webhooks } = await seedDatabase(database.url, receiver.url);
  // One pending task per answer the task-result scenario can send (closed loop; generous).
  const wantsTasks = only.length === 0 || only.includes('task-result');
  const taskIds = wantsTasks
    ? await seedDataTasks(database.url, runId, TASKS_PER_SECOND * (load.durationSec + load.warmupSec + 1), options.tasks.systems)
    : [];
  const service = await startService(database.url, logLevel, profiled, database.name);
  try {
    const replay = { key: `replay-${runId}`, body: createBody(runId, 'replay') };
    await seedThroughApi(service.url, token, replay.key, replay.body);
    const drp = await seedDrp(service.url, token);
    const results: ScenarioResult[] = [];
    const all = [...scenarios(token, runId, replay, webhooks, { ids: taskIds, body: taskBody }), drpExerciseScenario(drp, runId)];
    // The baseline runs first and again last: the machine's speed drifts, and the ratios use the mean.
    const bare = all.find((scenario) => scenario.target === 'baseline')!;
    const again = { ...bare, id: 'baseline-after', label: `${bare.label} (again, last)` };
    for (const scenario of [...all, again]) {
      if (only.length > 0 && scenario.target !== 'baseline' && !only.includes(scenario.id)) continue;
      if (READ_SCENARIOS.has(scenario.id)) await refreshPlannerStatistics(database);
      console.error(`  ${scenario.label}…`);
      if (scenario.id === 'task-result') {
        // With a /healthz probe beside it: the scenario's row, then the probe idle and during it.
        results.push(...(await runTaskResultWithProbe(scenario, service, load)));
        continue;
      }
      const result = await runScenario(scenario, scenario.target === 'baseline' ? baselineUrl : service.url, load);
      result.serviceMemory = readMemory(service.child.process.pid);
      results.push(result);
    }
    addRatios(results);
    let consoleLoad: ConsoleLoadResult | null = null;
    if (only.length === 0 || only.includes('console')) {
      console.error('  console first load in Chromium…');
      consoleLoad = await measureConsoleLoad(service.url, load.durationSec >= 10 ? 10 : 3);
    }
    // VmHWM only grows, so the last reading is the peak of the whole leg.
    const peakRssMb = readMemory(service.child.process.pid)?.peakMb ?? null;
    await stop(service.child);
    // The create_hooked scenario's messages are not the worker's to send here (see disableEndpoints).
    await disableEndpoints(database.url);
    let worker: WorkerResult | null = null;
    if (only.length === 0 || only.includes('worker')) {
      console.error('  privacyctl worker on the filed queue…');
      worker = await measureWorker(database.url, load.durationSec, join(OUT_DIR, `worker-${database.name}.log`));
    }
    let backlog: BacklogResult | null = null;
    const healthz = all.find((scenario) => scenario.id === 'healthz');
    if (healthz && (only.length === 0 || only.includes('backlog'))) {
      console.error('  /healthz idle and with the in-server worker on the queue…');
      backlog = await measureHealthzUnderBacklog(database.url, healthz, load, (env) =>
        startService(database.url, logLevel, false, `${database.name}-backlog`, env),
      );
    }
    const deliveries: DeliveryResult[] = [];
    if (only.length === 0 || only.includes('delivery')) {
      await cancelQueued(database.url);
      const messages = load.durationSec >= 10 ? 3000 : 500;
      for (const workers of database.name === 'postgres' ? [1, 2] : [1]) {
        console.error(`  outbound delivery, ${workers} worker(s), ${messages} messages…`);
        deliveries.push(await measureDelivery(database.name, database.url, receiver, workers, messages, OUT_DIR));
      }
    }
    let fairness: FairnessResult | null = null;
    if (only.length === 0 || only.includes('delivery') || only.includes('fairness')) {
      console.error('  outbound delivery to a healthy endpoint, idle and while 10 others hang…');
      fairness = await measureFairness(database.name, database.url, receiver, load.durationSec >= 10 ? 200 : 50, OUT_DIR);
    }
    const goals = evaluateGoals(results, peakRssMb);
    const ok = allRequestsSucceeded(results);
    console.log(`\n### ${database.name}`);
    printReport(results, peakRssMb, goals, worker);
    printTaskResultProbe(results, { ...options.tasks, connections: load.connections });
    printBacklog(backlog);
    printDelivery(deliveries);
    printFairness(fairness);
    printConsoleLoad(consoleLoad);
    const delivered =
      deliveries.every((d) => d.missing === 0 && (d.workers < 2 || d.duplicates === 0)) &&
      (fairness === null || (fairness.idle.received === fairness.messages && fairness.hanging.received === fairness.messages));
    return {
      database: database.name,
      results,
      peakRssMb,
      goals,
      worker,
      backlog,
      deliveries,
      fairness,
      consoleLoad,
      ok: ok && delivered,
    };
  } catch (error) {
    console.error(`service log tail:\n${logTail(service.child)}`);
    throw error;
  }
}

async function main(workDir: string, options: Settings): Promise<number> {
  const { load, logLevel, profiled } = options;
  mkdirSync(OUT_DIR, { recursive: true });
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  console.error(
    `bench: ${load.connections} connections, ${load.durationSec} s per scenario (+${load.warmupSec} s warm-up), service LOG_LEVEL=${logLevel}${profiled ? ', PROFILING' : ''}`,
  );
  const baselineUrl = await startBaseline();
  const receiver = await startReceiver();
  const legs = [];
  for (const open of await benchDatabases(workDir)) {
    const database = await open();
    try {
      legs.push(await runLeg(database, baselineUrl, runId, options, receiver));
    } finally {
      await database.drop();
    }
  }
  await receiver.close();
  const ok = legs.every((leg) => leg.ok);
  writeResults(join(OUT_DIR, 'results.json'), { load, logLevel, profiled, legs, ok });
  console.log(`\nresults: ${join(OUT_DIR, 'results.json')}; service logs: ${join(OUT_DIR, 'service-*.log')}`);
  if (!ok) console.error('FAILED: some requests errored or were answered wrongly; these numbers measure nothing.');
  return ok ? 0 : 1;
}

const workDir = mkdtempSync(join(tmpdir(), 'privacy-bench-'));
const cleanUp = () => rmSync(workDir, { recursive: true, force: true });
// Last resort for any exit path (a crash, a closed stdout): no child or temp folder outlives us.
process.on('exit', () => {
  killAllNow();
  cleanUp();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping children`);
    process.exit(130);
  });
}

let exitCode = 1;
let profiled = false;
try {
  const options = settings();
  profiled = options.profiled;
  exitCode = await main(workDir, options);
} catch (error) {
  console.error('bench failed:', error instanceof Error ? error.message : error);
} finally {
  await stopAll();
  cleanUp();
  if (profiled) console.error(`profiles: ${join(OUT_DIR, 'profiles')} (summarise with bench/profile-summary.ts)`);
}
process.exit(exitCode);
