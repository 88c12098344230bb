/**
 * The HTTP side of the growth benchmark: the same short autocannon runs on the empty and on the
 * seeded database. The request builders are the load bench's (bench/scenarios.ts) for effective
 * policy, create and the GitHub webhook; added here are the periodic reads whose cost could grow
 * with the tables: `GET /metrics` (the deadline gauges count open requests) and the list
 * endpoint with a rare status filter and with `overdue=true`; the queue (issue 13) across every
 * workspace and across three by binding due date, a subject search without a workspace; the audit
 * trail list of a workspace and a request's timeline; the officer's day (issue 26): the queue's
 * counts, the CSV export of a workspace's every request (streamed) and the requests report, all
 * time and over one fixed period (a yearly report's shape: {@link ReportPeriod}).
 */
import autocannon from 'autocannon';
import { type Scenario, scenarios } from '../scenarios.js';
import { createBody, WORKSPACE, type WebhookSecrets } from '../seed.js';

/** Ids measured on both databases, in run order. */
export const GROWTH_SCENARIOS = [
  'effective',
  'create',
  'github',
  'metrics',
  'list-status',
  'list-overdue',
  'queue-due',
  'queue-workspaces-due',
  'subject-search',
  'audit-workspace',
  'audit-timeline',
  'queue-stats',
  'export-csv',
  'report',
  'report-period',
] as const;

/** The goal applies to these: seeded mean latency ≤ 1.5 × empty. */
export const GOAL_SCENARIOS = ['effective', 'create', 'github'];

/**
 * The period the `report-period` row reports on: from the start of the run to the end of the
 * empty phase's `create` run (RFC 3339 UTC; `to` inclusive, as the endpoint reads a time). run.ts
 * sets `to` when that run ends and passes the same object to the seeded phase, so both phases
 * report on the same requests (the empty phase's filings), and the seeded database holds more of
 * the workspace's requests around the period: its seeded history before, the seeded phase's
 * filings after. As a yearly report of a workspace with other years: its cost should follow the
 * period's requests, not the workspace's or the database's.
 */
export interface ReportPeriod {
  from: string;
  to: string | null;
}

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

function okCsv(_headers: unknown, body: string, status: number): string | null {
  if (status !== 200) return `HTTP ${status}`;
  // The export starts with a UTF-8 BOM (PRODUCT §2.21), then its header.
  return body.startsWith('\uFEFFid,request_type,') ? null : `not the export's CSV: ${body.slice(0, 100)}`;
}

function okJson(_headers: unknown, body: string, status: number): string | null {
  if (status !== 200) return `HTTP ${status}`;
  return body.startsWith('{') ? null : `not a JSON object: ${body.slice(0, 100)}`;
}

/**
 * The scenarios for one phase. `runId` must differ per phase: create keys, client_request_ids
 * and delivery ids are made from it and must be new.
 */
export function growthScenarios(
  token: string,
  runId: string,
  webhooks: WebhookSecrets,
  /** A request whose timeline is read (the replay request seeded through the API). */
  timelineRequest: string,
  /** Read when the `report-period` row runs (after `create`), not when the scenarios are built. */
  period: ReportPeriod,
): Scenario[] {
  const replay = { key: `unused-${runId}`, body: createBody(runId, 'unused') };
  const shared = scenarios(token, runId, replay, webhooks).filter((s) => (GROWTH_SCENARIOS as readonly string[]).includes(s.id));
  const auth = { authorization: `Bearer ${token}` };
  const get = (id: string, label: string, path: string): Scenario => ({
    id,
    label,
    target: 'service',
    request: { method: 'GET', path, headers: auth },
    check: okJson,
  });
  const list = (id: string, query: string): Scenario =>
    get(id, `GET requests ?${query}`, `/api/v1/privacy/requests?workspace_id=${WORKSPACE}&${query}&limit=50`);
  // The seed's workspaces are acme, ws-001, ws-002… (seed-plan.ts); its subjects okta u0, u1….
  // A year ahead: every open request is due before it, so both phases read full pages through the range.
  const due = `due_before=${new Date(Date.now() + 365 * 86_400_000).toISOString()}`;
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
    get('queue-due', 'GET queue, all workspaces, sort=due_at', `/api/v1/privacy/requests?sort=due_at&${due}&limit=50`),
    get(
      'queue-workspaces-due',
      'GET queue, 3 workspaces, sort=due_at',
      `/api/v1/privacy/requests?workspace_id=${WORKSPACE}&workspace_id=ws-001&workspace_id=ws-002&sort=due_at&limit=50`,
    ),
    get('subject-search', 'GET requests ?subject_id (all workspaces)', '/api/v1/privacy/requests?subject_id=u17&limit=50'),
    get('audit-workspace', 'GET audit-events ?workspace_id', `/api/v1/audit-events?workspace_id=${WORKSPACE}&limit=50`),
    get(
      'audit-timeline',
      "GET audit-events, a request's timeline",
      `/api/v1/audit-events?target_type=privacy_request&target_id=${timelineRequest}`,
    ),
    get('queue-stats', 'GET requests/stats (queue counts)', `/api/v1/privacy/requests/stats?workspace_id=${WORKSPACE}`),
    {
      ...get(
        'export-csv',
        "GET requests as CSV (a workspace's every request)",
        `/api/v1/privacy/requests?workspace_id=${WORKSPACE}&format=csv`,
      ),
      check: okCsv,
    },
    get('report', 'GET reports/requests (a workspace, all time)', `/api/v1/reports/requests?workspace_id=${WORKSPACE}`),
    {
      ...get('report-period', 'GET reports/requests (a workspace, one period)', '/api/v1/reports/requests'),
      request: {
        method: 'GET',
        path: '/api/v1/reports/requests',
        headers: auth,
        setupRequest: (request) => {
          if (period.to === null) throw new Error('the report period has no end: the create run has not ended');
          return { ...request, path: `/api/v1/reports/requests?workspace_id=${WORKSPACE}&from=${period.from}&to=${period.to}` };
        },
      },
    },
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
