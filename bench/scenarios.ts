/**
 * What is measured: one autocannon run per scenario, against the baseline or the service.
 * Each response is also checked (status class, and the replay header where it matters), so a
 * scenario that "ran fast" by failing is reported as failing.
 */
import autocannon from 'autocannon';
import { createBody, effectivePath } from './seed.js';

type Request = autocannon.Request;
type Headers = NonNullable<Request['headers']>;

/** One scenario: where it goes, what it sends, and what a right answer looks like. */
export interface Scenario {
  /** Short id used in JSON and BENCH_ONLY: baseline, healthz, effective, create, replay. */
  readonly id: string;
  readonly label: string;
  readonly target: 'baseline' | 'service';
  readonly request: Request;
  /** A problem with a 2xx answer (e.g. "not a replay"), or null when it is right. */
  readonly check?: (headers: Headers) => string | null;
}

/** The numbers kept for one scenario. Latencies in ms; memory in MiB (service only). */
export interface ScenarioResult {
  id: string;
  label: string;
  target: 'baseline' | 'service';
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  totalRequests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  checkFailures: number;
  statusCodes: Record<string, number>;
  /** The first wrong answer seen, for diagnosis. */
  firstProblem: string | null;
  ratioToBaseline: number | null;
  serviceMemory: { peakMb: number; rssMb: number } | null;
}

function header(headers: Headers, name: string): string | undefined {
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return found ? String(found[1]) : undefined;
}

/**
 * The five scenarios of the issue, in run order.
 * @param runId - makes this run's Idempotency-Keys and client_request_ids unique.
 * @param replay - the key and body already filed once (see seedThroughApi).
 */
export function scenarios(token: string, runId: string, replay: { key: string; body: string }): Scenario[] {
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  let n = 0;
  return [
    { id: 'baseline', label: 'bare node:http GET', target: 'baseline', request: { method: 'GET', path: '/' } },
    { id: 'healthz', label: 'GET /healthz', target: 'service', request: { method: 'GET', path: '/healthz' } },
    {
      id: 'effective',
      label: 'GET effective policy',
      target: 'service',
      request: { method: 'GET', path: effectivePath(), headers: auth },
    },
    {
      id: 'create',
      label: 'POST privacy request (new)',
      target: 'service',
      request: {
        method: 'POST',
        path: '/api/v1/privacy/requests',
        headers: json,
        // Called before every request: a fresh key and client_request_id each time.
        setupRequest: (request) => {
          n += 1;
          return {
            ...request,
            headers: { ...request.headers, 'idempotency-key': `key-${runId}-${n}` },
            body: createBody(runId, n),
          };
        },
      },
      check: (headers) => (header(headers, 'idempotent-replayed') ? 'a new key was answered as a replay' : null),
    },
    {
      id: 'replay',
      label: 'POST privacy request (replay)',
      target: 'service',
      request: {
        method: 'POST',
        path: '/api/v1/privacy/requests',
        headers: { ...json, 'idempotency-key': replay.key },
        body: replay.body,
      },
      check: (headers) => (header(headers, 'idempotent-replayed') === 'true' ? null : 'no Idempotent-Replayed: true'),
    },
  ];
}

/** Load settings shared by every scenario. */
export interface LoadOptions {
  connections: number;
  durationSec: number;
  /** Discarded run before the measured one (JIT, caches, SQLite pages); 0 for none. */
  warmupSec: number;
}

/** Runs `scenario` against `baseUrl` (warm-up first, if any) and returns the measured run. */
export async function runScenario(scenario: Scenario, baseUrl: string, load: LoadOptions): Promise<ScenarioResult> {
  if (load.warmupSec > 0) await fire(scenario, baseUrl, load.connections, load.warmupSec);
  const { result, checkFailures, firstProblem } = await fire(scenario, baseUrl, load.connections, load.durationSec);
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0]));
  return {
    id: scenario.id,
    label: scenario.label,
    target: scenario.target,
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    totalRequests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    checkFailures,
    statusCodes,
    firstProblem,
    ratioToBaseline: null,
    serviceMemory: null,
  };
}

async function fire(scenario: Scenario, baseUrl: string, connections: number, durationSec: number) {
  let checkFailures = 0;
  let firstProblem: string | null = null;
  const onResponse = (status: number, body: string, _context: object, headers: Headers | undefined) => {
    const problem =
      status < 200 || status > 299 ? `HTTP ${status}: ${body.slice(0, 300)}` : (scenario.check?.(headers ?? {}) ?? null);
    if (problem === null) return;
    if (status >= 200 && status <= 299) checkFailures += 1;
    firstProblem ??= problem;
  };
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: durationSec,
    requests: [{ ...scenario.request, onResponse }],
  });
  return { result, checkFailures, firstProblem };
}
