/**
 * The HTTP side of the growth benchmark: the same short autocannon runs on the empty and on the
 * seeded database. The request builders are the load bench's (bench/scenarios.ts) for effective
 * policy, create and the GitHub webhook; added here are the periodic reads whose cost could grow
 * with the tables: `GET /metrics` (the deadline gauges count open requests) and the list
 * endpoint with a rare status filter and with `overdue=true`.
 */
import autocannon from 'autocannon';
import { type Scenario, scenarios } from '../scenarios.js';
import { createBody, WORKSPACE, type WebhookSecrets } from '../seed.js';

/** Ids measured on both databases, in run order. */
export const GROWTH_SCENARIOS = ['effective', 'create', 'github', 'metrics', 'list-status', 'list-overdue'] as const;

/** The goal applies to these: seeded mean latency ≤ 1.5 × empty. */
export const GOAL_SCENARIOS = ['effective', 'create', 'github'];

/** Settings of every measured run. */
export interface GrowthLoad {
  connections: number;
  durationSec: number;
  warmupSec: number;
}

/** One measured run. Latencies in ms (autocannon, 1 ms resolution for percentiles). */
export interface Measured {
  id: string;
  label: string;
  requestsPerSec: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  checkFailures: number;
  firstProblem: string | null;
}

function okJson(_headers: unknown, body: string, status: number): string | null {
  if (status !== 200) return `HTTP ${status}`;
  return body.startsWith('{') ? null : `not a JSON object: ${body.slice(0, 100)}`;
}

/**
 * The scenarios for one phase. `runId` must differ per phase: create keys, client_request_ids
 * and delivery ids are made from it and must be new.
 */
export function growthScenarios(token: string, runId: string, webhooks: WebhookSecrets): Scenario[] {
  const replay = { key: `unused-${runId}`, body: createBody(runId, 'unused') };
  const shared = scenarios(token, runId, replay, webhooks).filter((s) => (GROWTH_SCENARIOS as readonly string[]).includes(s.id));
  const auth = { authorization: `Bearer ${token}` };
  const list = (id: string, query: string): Scenario => ({
    id,
    label: `GET requests ?${query}`,
    target: 'service',
    request: { method: 'GET', path: `/api/v1/privacy/requests?workspace_id=${WORKSPACE}&${query}&limit=50`, headers: auth },
    check: okJson,
  });
  return [
    ...shared,
    {
      id: 'metrics',
      label: 'GET /metrics',
      target: 'service',
      request: { method: 'GET', path: '/metrics' },
      check: (_h, body, status) =>
        status === 200 && body.includes('privacy_requests_overdue{') ? null : 'no privacy_requests_overdue gauge',
    },
    list('list-status', 'status=failed'),
    list('list-overdue', 'overdue=true'),
  ];
}

async function fire(scenario: Scenario, url: string, connections: number, duration: number) {
  let checkFailures = 0;
  let firstProblem: string | null = null;
  const onResponse = (status: number, body: string, _context: object, headers: Record<string, unknown> | undefined) => {
    const ok = status >= 200 && status <= 299;
    const problem = ok
      ? (scenario.check?.((headers ?? {}) as never, body, status) ?? null)
      : `HTTP ${status}: ${body.slice(0, 200)}`;
    if (problem === null) return;
    if (ok) checkFailures += 1;
    firstProblem ??= problem;
  };
  const result = await autocannon({ url, connections, duration, requests: [{ ...scenario.request, onResponse }] });
  return { result, checkFailures, firstProblem };
}

/** Runs `scenario` against the service at `url`: warm-up (discarded), then the measured run. */
export async function measure(scenario: Scenario, url: string, load: GrowthLoad): Promise<Measured> {
  if (load.warmupSec > 0) await fire(scenario, url, load.connections, load.warmupSec);
  const { result, checkFailures, firstProblem } = await fire(scenario, url, load.connections, load.durationSec);
  return {
    id: scenario.id,
    label: scenario.label,
    requestsPerSec: result.requests.average,
    meanMs: result.latency.mean,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    checkFailures,
    firstProblem,
  };
}
