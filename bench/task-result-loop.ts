/**
 * How long results hold the event loop, in-process (no HTTP, no load generator): seeds
 * `PROBE_REQUESTS` (default 6) requests of 50 systems each (bench/seed-tasks.ts), posts every
 * task's result of 64 KiB (bench/task-result-body.ts) one after another through the service's
 * task-result use case, and measures the longest stretch without a turn of the event loop
 * (a `setImmediate` ticker) during each post: for the posts that complete a request (the package
 * assembled, 3.2 MiB) and for the others. Prints one JSON line. Run from a checkout's root, the
 * same way for two revisions, alternating, and compare medians as ratios (bench/README.md,
 * "Task results").
 *
 * With `PROBE_CONCURRENCY=50` the results are posted by 50 callers at once instead (a closed
 * loop, as the `task-result` bench row's connections, without HTTP), and it prints how late a
 * timer due every 20 ms fires (p50, p99: what a `/healthz` would wait), results per second, and
 * how long a post took from call to answer (p50, p99: what a system waits).
 *
 * Usage: `node --import tsx bench/task-result-loop.ts` (SQLite in a temp folder) or with
 * `PROBE_URL=postgres://…?options=-c%20search_path%3D<fresh schema>`.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { bindTaskResults } from '../src/workflows/tasks/task-results.js';
import { seedDataTasks } from './seed-tasks.js';
import { taskResultBody } from './task-result-body.js';

const SYSTEMS = 50;
const dir = join(tmpdir(), `task-result-loop-${process.pid}`);
const url = process.env.PROBE_URL ?? `sqlite:${join(dir, 'probe.db')}`;
if (url.startsWith('sqlite:')) mkdirSync(dir, { recursive: true });
const database = createDatabase(url);
await migrateToLatest(database.db);
const ids = await seedDataTasks(url, `loop${process.pid}`, SYSTEMS * Number(process.env.PROBE_REQUESTS ?? 6), SYSTEMS);
const body = JSON.parse(taskResultBody(65536)) as never;
const results = bindTaskResults({ db: database.db, clock: () => new Date() });
const principal = { id: 'token:bench', name: 'bench', scopes: new Set(['tasks:write']), workspaces: '*' as const };

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const quantile = (a: number[], q: number) => [...a].sort((x, y) => x - y)[Math.floor(a.length * q)]!;
const concurrency = Number(process.env.PROBE_CONCURRENCY ?? 1);

/** Each post alone: the longest stretch without an event-loop turn, per post. */
async function sequential(): Promise<Record<string, number>> {
  let longest = 0;
  let last = performance.now();
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const completing: number[] = [];
  const others: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    await turn();
    longest = 0;
    last = performance.now();
    await results.report(principal, ids[i]!, body);
    await turn();
    ((i + 1) % SYSTEMS === 0 ? completing : others).push(longest);
  }
  ticking = false;
  return {
    completingMedianMs: +median(completing).toFixed(1),
    completingMaxMs: +Math.max(...completing).toFixed(1),
    otherMedianMs: +median(others).toFixed(2),
    otherP95Ms: +quantile(others, 0.95).toFixed(2),
  };
}

/** `concurrency` callers posting at once: how late a 20 ms timer fires, and results per second. */
async function concurrent(): Promise<Record<string, number>> {
  const late: number[] = [];
  let probing = true;
  const probe = () => {
    const due = performance.now() + 20;
    setTimeout(() => {
      late.push(performance.now() - due);
      if (probing) probe();
    }, 20);
  };
  probe();
  let next = 0;
  const posts: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const start = performance.now();
        await results.report(principal, ids[next++]!, body);
        posts.push(performance.now() - start);
      }
    }),
  );
  probing = false;
  return {
    concurrency,
    resultsPerSec: Math.round(ids.length / ((performance.now() - started) / 1000)),
    timerLateP50Ms: +median(late).toFixed(1),
    timerLateP99Ms: +quantile(late, 0.99).toFixed(1),
    postP50Ms: +median(posts).toFixed(1),
    postP99Ms: +quantile(posts, 0.99).toFixed(1),
  };
}

const figures = concurrency > 1 ? await concurrent() : await sequential();
console.log(JSON.stringify({ database: url.split(':')[0], ...figures }));
await database.close();
if (url.startsWith('sqlite:')) rmSync(dir, { recursive: true, force: true });
