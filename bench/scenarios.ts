/**
 * What is measured: one autocannon run per scenario, against the baseline or the service.
 * Each response is also checked (status class, and the replay header where it matters), so a
 * scenario that "ran fast" by failing is reported as failing.
 */
import autocannon from 'autocannon';
import { Webhook } from 'standardwebhooks';
import { createBody, effectivePath, HOOKED_WORKSPACE, type WebhookSecrets, WORKSPACE } from './seed.js';
import { githubPullRequestOpened, githubSignature, gitlabMergeRequestOpen, identityUserUpdated } from './webhook-payloads.js';

type Request = autocannon.Request;
type Headers = NonNullable<Request['headers']>;

/** One scenario: where it goes, what it sends, and what a right answer looks like. */
export interface Scenario {
  /** Short id used in JSON and BENCH_ONLY: baseline, healthz, effective, create, replay, github, gitlab, identity, task-result, center-submit, opt-out, center-opt-out. */
  readonly id: string;
  readonly label: string;
  readonly target: 'baseline' | 'service';
  readonly request: Request;
  /** A problem with a 2xx answer (e.g. "not a replay", a 202 where 200 is due), or null when it is right. */
  readonly check?: (headers: Headers, body: string, status: number) => string | null;
  /**
   * Work the load generator does before the scenario's warm-up, outside the measured time (the
   * DRP row signs its bodies here, so signing does not take the two cores from the service).
   */
  readonly prepare?: (load: LoadOptions) => void;
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
  /** A probe's row (bench/task-result-probe.ts): a fixed rate, not a load, so no ratio to the baseline. */
  probe?: true;
  serviceMemory: { peakMb: number; rssMb: number } | null;
}

function header(headers: Headers, name: string): string | undefined {
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return found ? String(found[1]) : undefined;
}

/** A webhook answer is right when it is a 200 with `"status":"accepted"` (a new event was recorded). */
function accepted(_headers: Headers, body: string, status: number): string | null {
  if (status !== 200) return `HTTP ${status} instead of 200: ${body.slice(0, 300)}`;
  try {
    const parsed = JSON.parse(body) as { status?: unknown };
    return parsed.status === 'accepted' ? null : `status ${String(parsed.status)} instead of accepted: ${body.slice(0, 300)}`;
  } catch {
    return `not JSON: ${body.slice(0, 300)}`;
  }
}

/** How many identity subjects the identity scenario spreads its events over (keeps each fold small). */
const IDENTITY_SUBJECTS = 1000;

/**
 * The three webhook scenarios: every request is a new delivery (unique delivery id / event id),
 * so each one records a new change event or identity event and must be answered "accepted".
 */
function webhookScenarios(secrets: WebhookSecrets, runId: string): Scenario[] {
  const githubBody = githubPullRequestOpened();
  const githubHeaders = {
    'content-type': 'application/json',
    'x-github-event': 'pull_request',
    'x-hub-signature-256': githubSignature(secrets.github, githubBody),
  };
  const gitlabHeaders = {
    'content-type': 'application/json',
    'x-gitlab-event': 'Merge Request Hook',
    'x-gitlab-token': secrets.gitlab,
  };
  const identity = new Webhook(secrets.identity);
  let github = 0;
  let gitlab = 0;
  let events = 0;
  return [
    {
      id: 'github',
      label: 'POST /webhook/prhost (GitHub PR)',
      target: 'service',
      request: {
        method: 'POST',
        path: '/webhook/prhost',
        headers: githubHeaders,
        body: githubBody,
        setupRequest: (request) => {
          github += 1;
          return { ...request, headers: { ...request.headers, 'x-github-delivery': `gh-${runId}-${github}` } };
        },
      },
      check: accepted,
    },
    {
      id: 'gitlab',
      label: 'POST /webhook/mrhost (GitLab MR)',
      target: 'service',
      request: {
        method: 'POST',
        path: '/webhook/mrhost',
        headers: gitlabHeaders,
        body: gitlabMergeRequestOpen(),
        setupRequest: (request) => {
          gitlab += 1;
          return { ...request, headers: { ...request.headers, 'x-gitlab-event-uuid': `gl-${runId}-${gitlab}` } };
        },
      },
      check: accepted,
    },
    {
      id: 'identity',
      label: 'POST /webhook/identity (user.updated)',
      target: 'service',
      request: {
        method: 'POST',
        path: '/webhook/identity',
        headers: { 'content-type': 'application/json' },
        // The event id is in the body and in the signed content, so both are made per request.
        setupRequest: (request) => {
          events += 1;
          const id = `msg-${runId}-${events}`;
          const body = identityUserUpdated(id, `bench-user-${events % IDENTITY_SUBJECTS}`);
          const at = new Date();
          return {
            ...request,
            headers: {
              ...request.headers,
              'webhook-id': id,
              'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
              'webhook-signature': identity.sign(id, at, body),
            },
            body,
          };
        },
      },
      check: accepted,
    },
  ];
}

/**
 * The scenarios of the issues, in run order.
 * @param runId - makes this run's Idempotency-Keys, client_request_ids and delivery ids unique.
 * @param replay - the key and body already filed once (see seedThroughApi).
 * @param webhookSecrets - the seeded integrations' secrets (see seedDatabase).
 */
export function scenarios(
  token: string,
  runId: string,
  replay: { key: string; body: string },
  webhookSecrets: WebhookSecrets,
  tasks: { ids: readonly string[]; body: string } = { ids: [], body: '' },
): Scenario[] {
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  let n = 0;
  /** A new filing on every request: a fresh Idempotency-Key and client_request_id each time (autocannon `setupRequest`). */
  const filing = (id: string, label: string, workspace: string): Scenario => ({
    id,
    label,
    target: 'service',
    request: {
      method: 'POST',
      path: '/api/v1/privacy/requests',
      headers: json,
      setupRequest: (request) => {
        n += 1;
        return {
          ...request,
          headers: { ...request.headers, 'idempotency-key': `key-${runId}-${n}` },
          body: createBody(runId, n, workspace),
        };
      },
    },
    check: (headers) => (header(headers, 'idempotent-replayed') ? 'a new key was answered as a replay' : null),
  });
  return [
    { id: 'baseline', label: 'bare node:http GET', target: 'baseline', request: { method: 'GET', path: '/' } },
    { id: 'healthz', label: 'GET /healthz', target: 'service', request: { method: 'GET', path: '/healthz' } },
    {
      id: 'effective',
      label: 'GET effective policy',
      target: 'service',
      request: { method: 'GET', path: effectivePath(), headers: auth },
    },
    filing('create', 'POST privacy request (new)', WORKSPACE),
    // The same filing in a workspace with two subscribed webhook endpoints: each request also
    // writes two outbox messages in its commit (issue 14: at most 10 % below `create`).
    filing('create_hooked', 'POST privacy request, 2 endpoints', HOOKED_WORKSPACE),
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
    {
      // The officer's queue across every workspace the token reads, by binding due date (issue 13).
      id: 'queue',
      label: 'GET queue, all workspaces, by due date',
      target: 'service',
      request: { method: 'GET', path: '/api/v1/privacy/requests?sort=due_at&limit=50', headers: auth },
      check: (_headers, body) => (body.startsWith('{"items":[{') ? null : `no items: ${body.slice(0, 200)}`),
    },
    {
      // A workspace's audit trail, first page (issue 13).
      id: 'audit',
      label: 'GET audit events of a workspace',
      target: 'service',
      request: { method: 'GET', path: `/api/v1/audit-events?workspace_id=${WORKSPACE}&limit=50`, headers: auth },
      check: (_headers, body) => (body.startsWith('{"items":[{') ? null : `no items: ${body.slice(0, 200)}`),
    },
    ...webhookScenarios(webhookSecrets, runId),
    ...(tasks.ids.length > 0 ? [taskResultScenario(json, tasks.ids, tasks.body)] : []),
    centerSubmitScenario(runId),
    optOutScenario(json, runId),
    centerOptOutScenario(runId),
  ];
}

/**
 * `POST /api/v1/privacy/opt-outs` (PRODUCT §2.18): a **new** opt-out of sale and sharing on
 * every request, a fresh Idempotency-Key, `client_request_id` and subject (a subject of its own,
 * so no filing waits on another's preference row). No data system of `acme` names the kind, so
 * each is honoured and `completed` in its one commit (row, preference, two audit entries, the
 * key's record). Right: 202 `"status":"completed"`, not a replay.
 */
function optOutScenario(json: Headers, runId: string): Scenario {
  let n = 0;
  return {
    id: 'opt-out',
    label: 'POST opt-out (new)',
    target: 'service',
    request: {
      method: 'POST',
      path: '/api/v1/privacy/opt-outs',
      headers: json,
      setupRequest: (request) => {
        n += 1;
        return {
          ...request,
          headers: { ...request.headers, 'idempotency-key': `oo-key-${runId}-${n}` },
          body: JSON.stringify({
            workspace_id: WORKSPACE,
            subject_provider: 'email',
            subject_id: `bench-oo-${runId}-${n}@example.com`,
            kind: 'sale_sharing',
            choice: 'opt_out',
            source: 'form',
            client_request_id: `bench-oo-${runId}-${n}`,
          }),
        };
      },
    },
    check: (headers, body, status) => {
      if (status !== 202) return `HTTP ${status}: ${body.slice(0, 200)}`;
      if (header(headers, 'idempotent-replayed')) return 'a new key was answered as a replay';
      return body.includes('"status":"completed"') ? null : `not completed: ${body.slice(0, 200)}`;
    },
  };
}

/**
 * `POST /privacy-center/v1/acme/opt-outs` (PRODUCT §2.18): the center's opt-out, no token, no
 * code, `{"email":…,"kinds":["sale_sharing"]}` with a **new** address on every request (the
 * center derives the Idempotency-Key and `client_request_id` from the address, kind and day, so
 * a new address is a new filing), the center's abuse limits off. Right: 202 with one opt-out,
 * `"source":"form"`, `completed`.
 */
function centerOptOutScenario(runId: string): Scenario {
  let n = 0;
  return {
    id: 'center-opt-out',
    label: 'POST privacy-center opt-out (new address)',
    target: 'service',
    request: {
      method: 'POST',
      path: `/privacy-center/v1/${WORKSPACE}/opt-outs`,
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => {
        n += 1;
        return { ...request, body: JSON.stringify({ email: `bench-coo-${runId}-${n}@example.com`, kinds: ['sale_sharing'] }) };
      },
    },
    check: (_headers, body, status) => {
      if (status !== 202) return `HTTP ${status}: ${body.slice(0, 200)}`;
      try {
        const { opt_outs } = JSON.parse(body) as { opt_outs?: { kind?: string; source?: string; status?: string }[] };
        const [one] = opt_outs ?? [];
        return opt_outs?.length === 1 && one?.kind === 'sale_sharing' && one.source === 'form' && one.status === 'completed'
          ? null
          : `not one completed form opt-out: ${body.slice(0, 200)}`;
      } catch {
        return `not JSON: ${body.slice(0, 200)}`;
      }
    },
  };
}

/**
 * `POST /privacy-center/v1/acme/requests` (PRODUCT §2.15): the public submission, no token, a
 * **new** address on every request, with the center's abuse limits off (bench/processes.ts) and
 * no SMTP server (each code mail waits in the outbox). Each one stores a submission and its code
 * mail in one commit. Right: 202 `identity_unverified`.
 */
function centerSubmitScenario(runId: string): Scenario {
  let n = 0;
  return {
    id: 'center-submit',
    label: 'POST privacy-center submission (new address)',
    target: 'service',
    request: {
      method: 'POST',
      path: `/privacy-center/v1/${WORKSPACE}/requests`,
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => {
        n += 1;
        return { ...request, body: JSON.stringify({ request_type: 'access', email: `bench-${runId}-${n}@example.com` }) };
      },
    },
    check: (_headers, body, status) =>
      status === 202 && body.includes('"status":"identity_unverified"') ? null : `HTTP ${status}: ${body.slice(0, 200)}`,
  };
}

/**
 * `POST /api/v1/data-tasks/{id}/result` (PRODUCT.md §2.9): every request answers a new pending task
 * (bench/seed-tasks.ts) with `body` (a system's result with data for the package,
 * bench/task-result-body.ts); the last task of each seeded request also completes it. Right: 200
 * with the task `completed`; once the seeded tasks run out, answers are 409s and fail the check.
 */
function taskResultScenario(json: Headers, taskIds: readonly string[], body: string): Scenario {
  let next = 0;
  return {
    id: 'task-result',
    label: 'POST data-task result (completes its request)',
    target: 'service',
    request: {
      method: 'POST',
      path: `/api/v1/data-tasks/${taskIds[0]}/result`,
      headers: json,
      body,
      setupRequest: (request) => {
        const id = taskIds[next % taskIds.length];
        next += 1;
        return { ...request, path: `/api/v1/data-tasks/${id}/result` };
      },
    },
    check: (_headers, body, status) =>
      status === 200 && body.includes('"status":"completed"') ? null : `HTTP ${status}: ${body.slice(0, 200)}`,
  };
}

/** Load settings shared by every scenario. */
export interface LoadOptions {
  connections: number;
  durationSec: number;
  /** Discarded run before the measured one (JIT, caches, SQLite pages); 0 for none. */
  warmupSec: number;
}

/**
 * Runs `scenario` against `baseUrl` (warm-up first, if any) and returns the measured run.
 * @param onMeasuredStart - called right before the measured run starts (after the warm-up).
 */
export async function runScenario(
  scenario: Scenario,
  baseUrl: string,
  load: LoadOptions,
  onMeasuredStart?: () => void,
): Promise<ScenarioResult> {
  scenario.prepare?.(load);
  if (load.warmupSec > 0) await fire(scenario, baseUrl, load.connections, load.warmupSec);
  onMeasuredStart?.();
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
      status < 200 || status > 299
        ? `HTTP ${status}: ${body.slice(0, 300)}`
        : (scenario.check?.(headers ?? {}, body, status) ?? null);
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
