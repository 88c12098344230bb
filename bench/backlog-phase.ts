/**
 * `/healthz` while the in-server worker works off a backlog (issue 11 item 1), next to `/healthz`
 * idle, in the same run and on the same database: the service is started twice on the queue the
 * HTTP scenarios left, first without its worker (idle), then with it (`WORKER_IN_SERVER=true`,
 * the default), and `/healthz` is driven by autocannon at the scenarios' load each time. The p99
 * during the backlog shows how long the worker holds the event loop at a time.
 */
import { countByStatus } from './databases.js';
import type { Child } from './processes.js';
import { stop } from './processes.js';
import { type LoadOptions, runScenario, type Scenario, type ScenarioResult } from './scenarios.js';

/** Fewer queued requests than this and there is no backlog to measure under. */
const MIN_BACKLOG = 500;

/** Both measurements, and how the backlog moved during the second. */
export interface BacklogResult {
  idle: ScenarioResult;
  backlog: ScenarioResult;
  queuedAtStart: number;
  /** Requests the worker finished while `/healthz` was measured. */
  finished: number;
  /** Still queued when the measurement ended (> 0: the whole window was under backlog). */
  queuedAtEnd: number;
}

/** Starts the service with `env` added; resolves once it answers. */
export type StartService = (env: Record<string, string>) => Promise<{ child: Child; url: string }>;

/** @returns the two measurements, or null when fewer than {@link MIN_BACKLOG} requests are queued. */
export async function measureHealthzUnderBacklog(
  databaseUrl: string,
  healthz: Scenario,
  load: LoadOptions,
  start: StartService,
): Promise<BacklogResult | null> {
  const before = await countByStatus(databaseUrl);
  const queuedAtStart = before.queued ?? 0;
  if (queuedAtStart < MIN_BACKLOG) return null;
  const idleService = await start({ WORKER_IN_SERVER: 'false' });
  const idle = await runScenario({ ...healthz, id: 'healthz-idle', label: 'GET /healthz, idle' }, idleService.url, load);
  await stop(idleService.child);
  const busyService = await start({ WORKER_IN_SERVER: 'true', WORKER_POLL_MS: '50' });
  const backlog = await runScenario(
    { ...healthz, id: 'healthz-backlog', label: 'GET /healthz, worker on a backlog' },
    busyService.url,
    { ...load, warmupSec: 0 },
  );
  const after = await countByStatus(databaseUrl);
  await stop(busyService.child);
  const done = (counts: Record<string, number>) =>
    Object.entries(counts).reduce((sum, [s, n]) => sum + (s === 'queued' || s === 'processing' ? 0 : n), 0);
  return { idle, backlog, queuedAtStart, finished: done(after) - done(before), queuedAtEnd: after.queued ?? 0 };
}

/** Prints the row: p99 idle next to p99 under the backlog. */
export function printBacklog(result: BacklogResult | null): void {
  if (!result) {
    console.log(
      `healthz under a backlog: not measured (fewer than ${MIN_BACKLOG} requests left queued after the create scenario and the worker phase; raise BENCH_DURATION)`,
    );
    return;
  }
  const { idle, backlog } = result;
  console.log(
    `healthz p99: idle ${idle.p99Ms.toFixed(2)} ms (${idle.requestsPerSec.toFixed(0)} req/s), during a backlog ${backlog.p99Ms.toFixed(2)} ms ` +
      `(${backlog.requestsPerSec.toFixed(0)} req/s; in-server worker finished ${result.finished} of ${result.queuedAtStart} queued, ${result.queuedAtEnd} left)`,
  );
}
