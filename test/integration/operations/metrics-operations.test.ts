/**
 * The metrics a platform engineer watches (issue 11, item 19; docs/operations.md, "Metrics"):
 * queue depth by status and the ages of the oldest queued and the longest-overdue request
 * (computed from the database, no per-workspace label); webhook deliveries by source and outcome,
 * counted from real signed deliveries; retention sweeps by result and the last success; and the
 * `/metrics` endpoint of a real `privacyctl worker` process (`WORKER_METRICS_PORT`).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { createDatabase } from '../../../src/db/database.js';
import { createRetentionSweeper } from '../../../src/jobs/retention-sweeper.js';
import { createMetrics, type Metrics } from '../../../src/metrics.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { canonicalEvent, newStandardSecret, standardHeaders } from '../../helpers/identity-webhooks.js';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';
import { createBody, manualClock } from '../../helpers/requests.js';
import { githubPullRequest, gitlabMergeRequest } from '../../helpers/webhook-payloads.js';
import { sendGithub, sendGitlab } from '../../helpers/webhook-requests.js';

const T0 = '2026-03-02T10:00:00.000Z';
const T1 = '2026-03-02T11:00:00.000Z';
const T0_DUE = '2026-04-02T10:00:00.000Z'; // GDPR: one calendar month

/** Resolves once `check` holds (polling every 10 ms), or fails after 5 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The value of the series `name{labels}` (exactly as Prometheus prints it), or undefined when absent. */
function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every series line of metric `name` (its samples, not HELP/TYPE). */
function seriesOf(body: string, name: string): string[] {
  return body.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
}

const silent = pino({ level: 'silent' });

let cli: BuiltCli;
before(() => {
  cli = buildPrivacyctl();
});
after(() => cli?.remove());

for (const dialect of dialects()) {
  describe(`operations metrics (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let app: FastifyInstance;
    let metrics: Metrics;
    let auth: string;
    let approver: string;
    let serial = 0;
    const time = manualClock(T0);

    const scrape = async () => {
      const res = await app.inject('/metrics');
      assert.equal(res.statusCode, 200);
      return res.body;
    };
    const file = async (workspace: string) => {
      serial += 1;
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: auth, 'idempotency-key': `ops-metrics-${serial}` },
        payload: createBody({ workspace_id: workspace, client_request_id: `ops-metrics-${serial}` }),
      });
      assert.equal(res.statusCode, 202, res.body);
      return res.json() as { id: string; status: string };
    };
    const act = async (id: string, action: string, who = auth) => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${id}/${action}`,
        headers: { authorization: who },
        ...(action === 'approve' ? {} : { payload: { reason: 'ticket 4821' } }),
      });
      assert.equal(res.statusCode, 200, res.body);
    };

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: time.clock });
      metrics = createMetrics({ db: t.services.database.db, clock: time.clock, deadlineCacheMs: 0 });
      // The same services, served by an app whose metrics count at every scrape.
      app = await buildApp({ services: t.services, metrics, logLevel: 'silent', bodyLimitBytes: 1 << 20 });
      auth = await t.bearer(['privacy:write', 'privacy:read'], ['acme', 'approvals']);
      approver = await t.bearer(['privacy:write'], ['approvals']);
      await t.services.policies.putLayer('approvals', null, { require_approval: true }, 'test');
    });
    after(async () => {
      await app.close();
      await t.close();
      await database.drop();
    });

    it('queue depth by status, oldest queued and longest-overdue ages, no workspace label', async () => {
      let body = await scrape();
      for (const status of ['pending_approval', 'queued', 'processing', 'action_required'])
        assert.equal(sample(body, `privacy_requests_queue_depth{status="${status}"}`), 0, status);
      assert.equal(sample(body, 'privacy_requests_oldest_queued_age_seconds'), 0);
      assert.equal(sample(body, 'privacy_requests_oldest_overdue_age_seconds'), 0);

      const first = await file('acme');
      time.set(T1);
      await file('acme');
      const pending = await file('approvals');
      const toApprove = await file('approvals');
      await act(toApprove.id, 'approve', approver);
      time.set('2026-03-02T12:00:00.000Z');
      body = await scrape();
      assert.equal(sample(body, 'privacy_requests_queue_depth{status="queued"}'), 3);
      assert.equal(sample(body, 'privacy_requests_queue_depth{status="pending_approval"}'), 1);
      assert.equal(sample(body, 'privacy_requests_queue_depth{status="processing"}'), 0);
      // Since the oldest queued one was filed (T0), two hours ago.
      assert.equal(sample(body, 'privacy_requests_oldest_queued_age_seconds'), 7200);
      assert.equal(sample(body, 'privacy_requests_oldest_overdue_age_seconds'), 0);

      // 90 s past the first request's deadline: it is overdue by 90 s; the others are not yet.
      time.set(new Date(Date.parse(T0_DUE) + 90_000).toISOString());
      body = await scrape();
      assert.equal(sample(body, 'privacy_requests_oldest_overdue_age_seconds'), 90);
      assert.equal(
        sample(body, 'privacy_requests_oldest_queued_age_seconds'),
        (Date.parse(T0_DUE) + 90_000 - Date.parse(T0)) / 1000,
      );
      assert.equal(sample(body, 'privacy_requests_overdue{regulation="gdpr"}'), 1);

      // Once it is canceled: nothing overdue, the oldest queued is the one filed at T1.
      await act(first.id, 'cancel');
      body = await scrape();
      assert.equal(sample(body, 'privacy_requests_oldest_overdue_age_seconds'), 0);
      assert.equal(sample(body, 'privacy_requests_queue_depth{status="queued"}'), 2);
      assert.equal(
        sample(body, 'privacy_requests_oldest_queued_age_seconds'),
        (Date.parse(T0_DUE) + 90_000 - Date.parse(T1)) / 1000,
      );
      // Past the others' deadline (T1 + one month) by 30 s, the pending one included.
      time.set('2026-04-02T11:00:30.000Z');
      body = await scrape();
      assert.equal(sample(body, 'privacy_requests_oldest_overdue_age_seconds'), 30);
      assert.equal(sample(body, 'privacy_requests_overdue{regulation="gdpr"}'), 3);
      await act(pending.id, 'cancel');

      // Bounded labels: none of the queue metrics names a workspace.
      for (const name of [
        'privacy_requests_queue_depth',
        'privacy_requests_oldest_queued_age_seconds',
        'privacy_requests_oldest_overdue_age_seconds',
        'privacy_requests_overdue',
      ])
        for (const line of seriesOf(body, name)) assert.doesNotMatch(line, /workspace|acme|approvals/, line);
    });

    it('webhook deliveries by source and outcome, counted from real deliveries', async () => {
      const github = 'gh-metrics-secret-5d1f';
      const gitlab = 'gl-metrics-token-77aa';
      const identity = newStandardSecret();
      const integrations = t.services.integrations;
      const hub = await integrations.create(
        { kind: 'github', workspace_id: 'acme', namespace: 'Codertocat', secret: github },
        'test',
      );
      await integrations.create({ kind: 'gitlab', workspace_id: 'acme', namespace: 'gitlabhq', secret: gitlab }, 'test');
      await integrations.create(
        { kind: 'identity', workspace_id: 'acme', format: 'standard', subject_provider: 'okta', secret: identity },
        'test',
      );
      time.set(new Date().toISOString()); // identity signatures are checked against the service's clock

      const opened = JSON.stringify(githubPullRequest('opened'));
      // One after the other: the duplicate must follow the accepted delivery.
      const outcomes: [
        string,
        () => Promise<{ statusCode: number; body: string; json(): { status?: string } }>,
        number,
        string?,
      ][] = [
        ['github accepted', () => sendGithub(app, { body: opened, secret: github, delivery: 'metrics-d1' }), 200, 'accepted'],
        ['github duplicate', () => sendGithub(app, { body: opened, secret: github, delivery: 'metrics-d1' }), 200, 'duplicate'],
        [
          'github ignored',
          () => sendGithub(app, { body: JSON.stringify(githubPullRequest('closed')), secret: github }),
          200,
          'ignored',
        ],
        ['github forged', () => sendGithub(app, { body: opened, secret: 'not-the-secret' }), 401],
        [
          'github authentic, bad payload',
          () => sendGithub(app, { body: '{"not json', secret: github, query: `?integration=${hub.id}` }),
          400,
        ],
        [
          'gitlab accepted',
          () => sendGitlab(app, { body: JSON.stringify(gitlabMergeRequest()), token: gitlab }),
          200,
          'accepted',
        ],
        ['gitlab forged', () => sendGitlab(app, { body: JSON.stringify(gitlabMergeRequest()), token: 'wrong' }), 401],
      ];
      for (const [what, send, code, status] of outcomes) {
        const res = await send();
        assert.equal(res.statusCode, code, `${what}: ${res.body}`);
        if (status) assert.equal(res.json().status, status, what);
      }
      const event = canonicalEvent('evt_metrics_1', 'user.created', '2026-01-05T10:00:00Z', { user_id: 'u_m1' });
      const other = canonicalEvent('evt_metrics_2', 'session.created', '2026-01-05T10:00:00Z', { user_id: 'u_m1' });
      const identityDelivery = (body: string, id: string, secret = identity) =>
        app.inject({ method: 'POST', url: '/webhook/identity', headers: standardHeaders(secret, id, body), payload: body });
      for (const [body, id, status] of [
        [event, 'msg_m1', 'accepted'],
        [event, 'msg_m2', 'duplicate'],
        [other, 'msg_m3', 'ignored'],
      ] as const) {
        const res = await identityDelivery(body, id);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().status, status);
      }
      const forged = await identityDelivery(event, 'msg_m9', newStandardSecret());
      assert.equal(forged.statusCode, 401);

      const body = await scrape();
      const expected: Record<string, number> = {
        'source="github",outcome="accepted"': 1,
        'source="github",outcome="duplicate"': 1,
        'source="github",outcome="ignored"': 1,
        'source="github",outcome="rejected"': 2,
        'source="gitlab",outcome="accepted"': 1,
        'source="gitlab",outcome="rejected"': 1,
        'source="identity",outcome="accepted"': 1,
        'source="identity",outcome="duplicate"': 1,
        'source="identity",outcome="ignored"': 1,
        'source="identity",outcome="rejected"': 1,
      };
      const lines = seriesOf(body, 'webhook_deliveries_total');
      assert.deepEqual(
        Object.fromEntries(lines.map((l) => [/\{(.*)\}/.exec(l)?.[1], Number(l.split(' ').at(-1))])),
        expected,
        lines.join('\n'),
      );
    });

    it('retention sweeps by result, and the time of the last success', async () => {
      const at = '2026-05-01T08:00:00.000Z';
      time.set(at);
      const sweeper = createRetentionSweeper({
        database: t.services.database,
        policies: t.services.policies,
        clock: time.clock,
        log: silent,
        metrics,
      });
      let body = await scrape();
      assert.equal(sample(body, 'retention_sweeps_total{result="success"}'), 0);
      assert.equal(sample(body, 'retention_sweeps_total{result="failure"}'), 0);
      assert.equal(sample(body, 'retention_sweep_last_success_timestamp_seconds'), 0);
      // Sweeps at once (stop() would cut a sweep short at its next yield: wait for its end first).
      sweeper.start(60_000);
      await until(async () => sample(await scrape(), 'retention_sweeps_total{result="success"}') === 1);
      await sweeper.stop();
      body = await scrape();
      assert.equal(sample(body, 'retention_sweeps_total{result="success"}'), 1);
      assert.equal(sample(body, 'retention_sweep_last_success_timestamp_seconds'), Date.parse(at) / 1000);

      // A sweep that fails (a database without the tables): counted, the last success kept.
      const empty = await dialect.create();
      const broken = createDatabase(empty.url);
      try {
        time.set('2026-05-01T09:00:00.000Z');
        const failing = createRetentionSweeper({
          database: broken,
          policies: t.services.policies,
          clock: time.clock,
          log: silent,
          metrics,
        });
        failing.start(60_000);
        await until(async () => sample(await scrape(), 'retention_sweeps_total{result="failure"}') === 1);
        await failing.stop();
      } finally {
        await broken.close();
        await empty.drop();
      }
      body = await scrape();
      assert.equal(sample(body, 'retention_sweeps_total{result="failure"}'), 1);
      assert.equal(sample(body, 'retention_sweeps_total{result="success"}'), 1);
      assert.equal(sample(body, 'retention_sweep_last_success_timestamp_seconds'), Date.parse(at) / 1000);
    });
  });

  describe(`privacyctl worker's /metrics (${dialect.name})`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await dialect.create();
    });
    after(async () => {
      await database.drop();
    });

    /** Starts `privacyctl worker` with `env`; resolves once it logged `worker started`. */
    async function startWorkerProcess(env: Record<string, string>) {
      const child = spawn(process.execPath, [cli.bin, 'worker'], {
        env: { ...process.env, DATABASE_URL: database.url, HOST: '127.0.0.1', LOG_LEVEL: 'info', WORKER_POLL_MS: '20', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        const check = () => (output.includes('"worker started"') ? resolve() : undefined);
        child.stdout.on('data', check);
        void exited.then((code) => reject(new Error(`worker exited ${code}: ${output}`)));
      });
      return { child, exited, output: () => output };
    }

    it('WORKER_METRICS_PORT is validated; unset, the worker serves no endpoint', async () => {
      assert.equal(loadConfig({}).worker.metricsPort, undefined);
      assert.equal(loadConfig({ WORKER_METRICS_PORT: '9464' }).worker.metricsPort, 9464);
      for (const bad of ['x', '-1', '65536', '94.5'])
        assert.throws(() => loadConfig({ WORKER_METRICS_PORT: bad }), /WORKER_METRICS_PORT must be an integer from 0 to 65535/);
      const bad = cli.run({ DATABASE_URL: database.url, WORKER_METRICS_PORT: 'metrics' }, ['worker']);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /WORKER_METRICS_PORT must be an integer/);
      const worker = await startWorkerProcess({});
      worker.child.kill('SIGTERM');
      assert.equal(await worker.exited, 0, worker.output());
      assert.doesNotMatch(worker.output(), /worker metrics listening/);
    });

    it('serves processed requests, retention sweeps and process metrics; only /metrics; closes on SIGTERM', async () => {
      const t = await startTestApp(database);
      let filed: string;
      try {
        const auth = await t.bearer(['privacy:write'], ['acme']);
        // An unknown subject on purpose: a named controller and no review of unmatched identities
        // (PRODUCT §2.13) let the access request complete, which is what the metric counts.
        await t.services.controllers.put('acme', { name: 'Acme GmbH', contact_email: 'privacy@acme.example' }, 'test');
        await t.services.policies.putLayer('acme', null, { confirm_no_data: false }, 'test');
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { authorization: auth, 'idempotency-key': 'worker-metrics-1' },
          payload: createBody({ client_request_id: 'worker-metrics-1' }),
        });
        assert.equal(res.statusCode, 202, res.body);
        filed = res.json().id;
      } finally {
        await t.close();
      }
      const worker = await startWorkerProcess({ WORKER_METRICS_PORT: '0' });
      try {
        const url = /"url":"(http:\/\/127\.0\.0\.1:\d+\/metrics)"/.exec(worker.output())?.[1];
        assert.ok(url, worker.output());
        // Until the request is processed and the first retention sweep has run (the worker polls
        // every 20 ms and sweeps at start, each in its own loop: either may come first on a busy
        // machine; generous bound).
        let body = '';
        for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
          const res = await fetch(url);
          assert.equal(res.status, 200);
          assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
          body = await res.text();
          const processed = sample(body, 'privacy_requests_processed_total{request_type="access",outcome="completed"}') === 1;
          if (processed && (sample(body, 'retention_sweeps_total{result="success"}') ?? 0) >= 1) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.equal(sample(body, 'privacy_requests_processed_total{request_type="access",outcome="completed"}'), 1, body);
        assert.equal(sample(body, 'retention_sweeps_total{result="success"}'), 1);
        assert.ok((sample(body, 'retention_sweep_last_success_timestamp_seconds') ?? 0) > Date.parse('2026-01-01') / 1000);
        assert.ok((sample(body, 'process_resident_memory_bytes') ?? 0) > 0);
        assert.match(body, /^nodejs_eventloop_lag_seconds /m);
        // The database-derived gauges are `serve`'s, not the worker's.
        assert.doesNotMatch(body, /privacy_requests_queue_depth|privacy_requests_overdue/);
        assert.equal((await fetch(url.replace('/metrics', '/healthz'))).status, 404);
        assert.equal((await fetch(url, { method: 'POST' })).status, 405);
        assert.ok(filed);
      } finally {
        worker.child.kill('SIGTERM');
      }
      assert.equal(await worker.exited, 0, worker.output());
      const url = /"url":"(http:\/\/[^"]+)"/.exec(worker.output())?.[1] ?? '';
      await assert.rejects(fetch(url), 'the endpoint is closed');
    });
  });
}
