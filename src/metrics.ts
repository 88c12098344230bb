import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Executor } from './db/executor.js';
import { type Clock, systemClock } from './lib/clock.js';
import { registerQueueGauges } from './metrics/queue-gauges.js';
import { registerTaskGauge } from './metrics/task-gauge.js';

/** Where a webhook delivery came from: the receiver's source (label `source`). */
export type WebhookSource = 'github' | 'gitlab' | 'identity';

/**
 * What became of a webhook delivery (label `outcome`): the 200 body's `status` (`accepted`,
 * `duplicate`, `ignored`), `rejected` for a 4xx (unverified, bad payload, too large, rate
 * limited…) or `error` for a 5xx.
 */
export type WebhookOutcome = 'accepted' | 'duplicate' | 'ignored' | 'rejected' | 'error';

/** What the retention sweeper reports after each sweep (src/jobs/retention-sweeper.ts). */
export interface SweepMetrics {
  /** One sweep ended at `at`: `ok` when it completed, false when it failed. */
  sweepEnded(ok: boolean, at: Date): void;
  /** SQLite WAL checkpoint attempts after erasures and sweeps (db/wal-checkpoint.ts), by `result` (`clean`, `busy`). */
  readonly walCheckpoints?: Counter<'result'>;
}

/** The service's Prometheus metrics, on a registry of its own (no global state). */
export interface Metrics extends SweepMetrics {
  readonly registry: Registry;
  /** Seconds per HTTP request, by method, route pattern and status code. */
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Privacy requests filed, by type (replays not counted). */
  readonly requestsFiled: Counter<'request_type'>;
  /**
   * Processing attempts that ended, by request type and `outcome`: `completed`, `action_required`,
   * `retried` (failed, another attempt is scheduled) or `failed` (attempts exhausted). Incremented
   * by the worker of this process.
   */
  readonly requestsProcessed: Counter<'request_type' | 'outcome'>;
  /** DRP exercises answered by this process (PRODUCT §2.19), by `exercise` and `outcome` (`filed`, `denied`, `fulfilled`). */
  readonly drpRequests: Counter<'exercise' | 'outcome'>;
  /** DRP calls refused by this process, by `reason` (src/modules/drp/drp-failure.types.ts). */
  readonly drpRefused: Counter<'reason'>;
  /** Webhook deliveries answered by this process, by source and {@link WebhookOutcome}. */
  readonly webhookDeliveries: Counter<'source' | 'outcome'>;
  /** Retention sweeps of this process's worker, by `result` (`success`, `failure`). */
  readonly retentionSweeps: Counter<'result'>;
  /** Unix time (seconds) at which this process's last successful retention sweep ended; 0 before the first. */
  readonly retentionLastSuccess: Gauge;
  readonly walCheckpoints: Counter<'result'>;
  /** Outbound delivery attempts of this process's worker, by `result`: `delivered`, `retried`, `failed` (no attempt left). */
  readonly outboundAttempts: Counter<'result'>;
  /** Webhook endpoints this process's worker disabled after 5 days of failures. */
  readonly outboundEndpointsDisabled: Counter;
}

/**
 * How long the database-derived gauges' counts are reused, ms: a scrape within this time of the
 * last count answers from memory instead of querying the database. The count reads every open
 * request, so its cost grows with them; every `serve` process reports the same database-derived
 * numbers anyway, and a deadline is a matter of days. `createMetrics({ deadlineCacheMs })` overrides it.
 */
export const DEADLINE_GAUGE_CACHE_MS = 5_000;

/**
 * A counter labelled by `result`, registered in `registry` and set to 0 for each of `results`, so
 * every series is scraped from the start (a rate over a series that appears later misses its first
 * increments).
 */
function resultCounter(registry: Registry, name: string, help: string, results: readonly string[]): Counter<'result'> {
  const counter = new Counter({ name, help, labelNames: ['result'], registers: [registry] });
  for (const result of results) counter.inc({ result }, 0);
  return counter;
}

/**
 * Creates the registry with process metrics (CPU, memory, event-loop lag) and the service's own.
 *
 * @param deps.db - when given, the gauges computed from the open requests (`privacy_requests_overdue`,
 *   `privacy_requests_due_soon`, `privacy_requests_queue_depth`, the oldest queued and oldest
 *   overdue ages) read them from it; without it they are absent (a `privacyctl worker`'s registry).
 * @param deps.clock - "now" for those gauges and their cache; the system clock by default.
 * @param deps.deadlineCacheMs - how long a count is reused, ms (default
 *   {@link DEADLINE_GAUGE_CACHE_MS}; 0 counts at every scrape).
 */
export function createMetrics(deps: { db?: Executor; clock?: Clock; deadlineCacheMs?: number } = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (deps.db) registerQueueGauges(registry, deps.db, deps.clock ?? systemClock, deps.deadlineCacheMs ?? DEADLINE_GAUGE_CACHE_MS);
  if (deps.db) registerTaskGauge(registry, deps.db, deps.clock ?? systemClock, deps.deadlineCacheMs ?? DEADLINE_GAUGE_CACHE_MS);
  const retentionSweeps = resultCounter(
    registry,
    'retention_sweeps_total',
    "Retention sweeps run by this process's worker, by result (success, failure).",
    ['success', 'failure'],
  );
  const retentionLastSuccess = new Gauge({
    name: 'retention_sweep_last_success_timestamp_seconds',
    help: "Unix time at which this process's last successful retention sweep ended; 0 before the first.",
    registers: [registry],
  });
  const walCheckpoints = resultCounter(
    registry,
    'sqlite_wal_checkpoints_total',
    'SQLite WAL checkpoints after erasures and retention sweeps, by result (clean, busy: another process held a read snapshot; retried).',
    ['clean', 'busy'],
  );
  const outboundAttempts = resultCounter(
    registry,
    'outbound_delivery_attempts_total',
    "Outbound webhook delivery attempts of this process's worker, by result (delivered; retried: another attempt is scheduled; failed: none left).",
    ['delivered', 'retried', 'failed'],
  );
  return {
    outboundAttempts,
    outboundEndpointsDisabled: new Counter({
      name: 'outbound_endpoints_disabled_total',
      help: "Webhook endpoints this process's worker disabled after 5 days of failed deliveries.",
      registers: [registry],
    }),
    registry,
    walCheckpoints,
    retentionSweeps,
    retentionLastSuccess,
    sweepEnded(ok, at) {
      retentionSweeps.inc({ result: ok ? 'success' : 'failure' });
      if (ok) retentionLastSuccess.set(at.getTime() / 1000);
    },
    drpRequests: new Counter({
      name: 'drp_requests_total',
      help: 'DRP exercises answered by this process, by exercise (the DRP action) and outcome (filed, denied, fulfilled).',
      labelNames: ['exercise', 'outcome'],
      registers: [registry],
    }),
    drpRefused: new Counter({
      name: 'drp_refused_total',
      help: 'DRP calls refused by this process, by reason (signature_invalid, expired, replayed, token_invalid, …).',
      labelNames: ['reason'],
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook deliveries answered by this process, by source (github, gitlab, identity) and outcome (accepted, duplicate, ignored, rejected, error).',
      labelNames: ['source', 'outcome'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration in seconds, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    requestsFiled: new Counter({
      name: 'privacy_requests_filed_total',
      help: 'Privacy requests filed (idempotent replays not counted), by request type.',
      labelNames: ['request_type'],
      registers: [registry],
    }),
    requestsProcessed: new Counter({
      name: 'privacy_requests_processed_total',
      help: 'Processing attempts that ended, by request type and outcome (completed, action_required, retried, failed).',
      labelNames: ['request_type', 'outcome'],
      registers: [registry],
    }),
  };
}
