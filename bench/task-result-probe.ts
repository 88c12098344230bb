/**
 * The task-result scenario with a `/healthz` probe beside it (issue 23 item 2: "p99 `/healthz`
 * while results arrive"): bench/healthz-probe.ts in its own process sends one `GET /healthz`
 * every 20 ms on its own connection, first for the scenario's duration with nothing else running
 * (idle), then during the scenario's measured run. Two rows follow the scenario's own: the probe
 * idle and while results arrive, so the ratio of their p99s says how long posting results holds
 * the service's event loop.
 */
import { join } from 'node:path';
import { type Child, readMemory, startNode, stop } from './processes.js';
import { runScenario, type LoadOptions, type Scenario, type ScenarioResult } from './scenarios.js';

/** Milliseconds between two probes. */
export const PROBE_INTERVAL_MS = 20;

/** One window of the probe (bench/healthz-probe.ts); latencies in ms, from when each probe was due. */
export interface ProbeSummary {
  durationMs: number;
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  statusCodes: Record<string, number>;
  errors: number;
  firstProblem: string | null;
}

/** The probe's stdout, one JSON line at a time. */
function lineReader(child: Child): () => Promise<unknown> {
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = '';
  child.process.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  return () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('healthz probe: no answer in 30 s')), 30_000);
      const take = (line: string) => {
        clearTimeout(timer);
        resolve(JSON.parse(line) as unknown);
      };
      const line = lines.shift();
      if (line !== undefined) take(line);
      else waiting.push(take);
    });
}

function asResult(id: string, label: string, summary: ProbeSummary, pid: number | undefined): ScenarioResult {
  const non2xx = Object.entries(summary.statusCodes).reduce((sum, [code, n]) => sum + (code === '200' ? 0 : n), 0);
  return {
    id,
    label,
    target: 'service',
    probe: true,
    requestsPerSec: summary.durationMs > 0 ? (summary.count * 1000) / summary.durationMs : 0,
    p50Ms: summary.p50Ms,
    p99Ms: summary.p99Ms,
    totalRequests: summary.count + non2xx + summary.errors,
    non2xx,
    errors: summary.errors,
    timeouts: 0,
    checkFailures: 0,
    statusCodes: summary.statusCodes,
    firstProblem: summary.firstProblem,
    ratioToBaseline: null,
    serviceMemory: readMemory(pid),
  };
}

/**
 * Runs `scenario` (task-result) against `service` with the probe: the idle window first, then the
 * scenario with a window over its measured run.
 * @returns the scenario's result, then the probe's idle and busy rows (`task-result-healthz-idle`,
 *   `task-result-healthz`).
 */
export async function runTaskResultWithProbe(
  scenario: Scenario,
  service: { child: Child; url: string },
  load: LoadOptions,
): Promise<ScenarioResult[]> {
  const probe = startNode(
    'healthz-probe',
    ['--import', 'tsx', join(import.meta.dirname, 'healthz-probe.ts')],
    { PROBE_URL: service.url, PROBE_INTERVAL_MS: String(PROBE_INTERVAL_MS) },
    null,
  );
  const next = lineReader(probe);
  const pid = service.child.process.pid;
  try {
    await next(); // {"ready":true}
    probe.process.kill('SIGUSR1');
    await new Promise((resolve) => setTimeout(resolve, load.durationSec * 1000));
    probe.process.kill('SIGUSR2');
    const idle = asResult(
      'task-result-healthz-idle',
      `  GET /healthz every ${PROBE_INTERVAL_MS} ms, idle`,
      (await next()) as ProbeSummary,
      pid,
    );
    const result = await runScenario(scenario, service.url, load, () => probe.process.kill('SIGUSR1'));
    result.serviceMemory = readMemory(pid);
    probe.process.kill('SIGUSR2');
    const busy = asResult(
      'task-result-healthz',
      `  GET /healthz every ${PROBE_INTERVAL_MS} ms, while results arrive`,
      (await next()) as ProbeSummary,
      pid,
    );
    return [result, idle, busy];
  } finally {
    await stop(probe);
  }
}

/**
 * The line under the table: the probe's p50/p99 idle and while results arrive, their ratio, and
 * the `healthz` scenario's p99 (50 connections, closed loop) when it ran.
 */
export function printTaskResultProbe(
  results: readonly ScenarioResult[],
  setup: { resultBytes: number; systems: number; connections: number },
): void {
  const { resultBytes, systems, connections } = setup;
  const idle = results.find((r) => r.id === 'task-result-healthz-idle');
  const busy = results.find((r) => r.id === 'task-result-healthz');
  if (!idle || !busy) return;
  const healthz = results.find((r) => r.id === 'healthz');
  const ratio = idle.p99Ms > 0 ? `${(busy.p99Ms / idle.p99Ms).toFixed(1)}×` : '-';
  console.log(
    `task-result /healthz p99 (one GET every ${PROBE_INTERVAL_MS} ms on its own connection; results of ${resultBytes} B of data, ${systems} systems a request): ` +
      `idle p50 ${idle.p50Ms.toFixed(2)} p99 ${idle.p99Ms.toFixed(2)} ms, while results arrive p50 ${busy.p50Ms.toFixed(2)} p99 ${busy.p99Ms.toFixed(2)} ms (${ratio})` +
      (healthz ? `; healthz scenario (${connections} connections) p99 ${healthz.p99Ms.toFixed(2)} ms` : ''),
  );
}
