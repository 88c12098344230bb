/**
 * A `/healthz` probe as its own process (so the load generator's event loop is not in its
 * figures): one `GET $PROBE_URL/healthz` every `PROBE_INTERVAL_MS` (default 20) on one keep-alive
 * connection. Each latency is counted from the moment the probe was **due**, not from when it
 * was sent: when an answer takes longer than the interval, the probes that fell due meanwhile go
 * out at once and carry the time they waited (no coordinated omission: a server that holds its
 * event loop for 1 s shows ~50 slow probes, not one).
 *
 * Protocol (stdout, one JSON line each): `{"ready":true}` once the first probe was answered;
 * SIGUSR1 starts a window (samples reset), SIGUSR2 ends it and prints its summary
 * (`ProbeSummary` of bench/task-result-probe.ts); SIGTERM/SIGINT exit.
 */
import { Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';

const base = new URL(process.env.PROBE_URL ?? 'http://127.0.0.1:3000');
const interval = Number(process.env.PROBE_INTERVAL_MS ?? 20);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

interface ProbeWindow {
  startedAt: number;
  latencies: number[];
  statusCodes: Record<string, number>;
  errors: number;
  firstProblem: string | null;
}

// Set and cleared by the signal handlers below (so not narrowed to null).
let window = null as ProbeWindow | null;
let running = true;

/** One GET /healthz: its status code, or the error's message. */
function probe(): Promise<number | string> {
  return new Promise((resolve) => {
    const request = get({ agent, host: base.hostname, port: base.port, path: '/healthz', timeout: 30_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', (error) => resolve(error.message));
    });
    request.on('timeout', () => request.destroy(new Error('no answer in 30 s')));
    request.on('error', (error) => resolve(error.message));
  });
}

function percentile(sorted: number[], q: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function summary() {
  if (!window) return null;
  const sorted = [...window.latencies].sort((a, b) => a - b);
  return {
    durationMs: performance.now() - window.startedAt,
    count: sorted.length,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.at(-1) ?? 0,
    statusCodes: window.statusCodes,
    errors: window.errors,
    firstProblem: window.firstProblem,
  };
}

process.on('SIGUSR1', () => {
  window = { startedAt: performance.now(), latencies: [], statusCodes: {}, errors: 0, firstProblem: null };
});
process.on('SIGUSR2', () => {
  process.stdout.write(`${JSON.stringify(summary())}\n`);
  window = null;
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => (running = false));

const first = await probe();
if (first !== 200) {
  console.error(`healthz probe: first answer ${first}`);
  process.exit(1);
}
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
let due = performance.now();
while (running) {
  const outcome = await probe();
  const latency = performance.now() - due;
  if (window) {
    if (typeof outcome === 'number') {
      window.statusCodes[outcome] = (window.statusCodes[outcome] ?? 0) + 1;
      if (outcome === 200) window.latencies.push(latency);
      else window.firstProblem ??= `HTTP ${outcome}`;
    } else {
      window.errors += 1;
      window.firstProblem ??= outcome;
    }
  }
  due += interval;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
agent.destroy();
process.exit(0);
