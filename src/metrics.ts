import type { Expression, SqlBool } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Executor } from './db/executor.js';
import { type Clock, systemClock, toTimestamp } from './lib/clock.js';
import { addDays, OPEN_STATUSES } from './modules/privacy-requests/deadline.fns.js';

/** The service's Prometheus metrics, on a registry of its own (no global state). */
export interface Metrics {
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
}

/** "Due soon" means due within this many days (and not yet overdue). */
export const DUE_SOON_DAYS = 7;

/** The `regulation` values a request can carry (docs/decisions.md): always exported, 0 when none. */
const REGULATIONS = ['gdpr', 'ccpa', 'ccpa+gdpr'];

/** Open (not final) requests per regulation: how many are past their (extended) deadline, how many due soon. */
interface DeadlineCounts {
  regulation: string;
  overdue: number;
  due_soon: number;
}

/**
 * Counts open requests by regulation: `overdue` when the (extended) deadline is before `now`
 * (as `isOverdue` in deadline.fns.ts), `due_soon` when it falls in [`now`, `now` + 7 days].
 */
async function countOpenByDeadline(db: Executor, now: Date): Promise<DeadlineCounts[]> {
  const at = toTimestamp(now);
  const soon = toTimestamp(addDays(now, DUE_SOON_DAYS));
  const rows = await db
    .selectFrom('privacy_requests')
    .select((eb) => {
      const due = eb.fn.coalesce('extended_due_at', 'due_at');
      const count = (condition: Expression<SqlBool>) =>
        eb.fn.sum<number | string>(eb.case().when(condition).then(1).else(0).end());
      return [
        'regulation',
        count(eb(due, '<', at)).as('overdue'),
        count(eb.and([eb(due, '>=', at), eb(due, '<=', soon)])).as('due_soon'),
      ];
    })
    .where('status', 'in', [...OPEN_STATUSES])
    .groupBy('regulation')
    .execute();
  // PostgreSQL returns sum() as numeric text.
  return rows.map((r) => ({ regulation: r.regulation, overdue: Number(r.overdue), due_soon: Number(r.due_soon) }));
}

/**
 * How long the deadline gauges' counts are reused, ms: a scrape within this time of the last
 * count answers from memory instead of querying the database. The count reads every open
 * request, so its cost grows with them; every `serve` process reports the same database-derived
 * numbers anyway, and a deadline is a matter of days. `createMetrics({ deadlineCacheMs })` overrides it.
 */
export const DEADLINE_GAUGE_CACHE_MS = 5_000;

/**
 * `privacy_requests_overdue` and `privacy_requests_due_soon` by regulation, computed from the
 * database at most once per `cacheMs` (by `clock`; at every scrape when 0). Both gauges share one
 * query (prom-client collects them concurrently). A failed query is not kept: the gauges are left
 * out of that scrape rather than failing it, and the next scrape queries again.
 */
function registerDeadlineGauges(registry: Registry, db: Executor, clock: Clock, cacheMs: number): void {
  let last: { at: number; counts: DeadlineCounts[] } | null = null;
  let pending: Promise<DeadlineCounts[]> | null = null;
  const snapshot = async () => {
    const now = clock();
    const age = last ? now.getTime() - last.at : Number.POSITIVE_INFINITY;
    // A clock that went back (age < 0) counts afresh.
    if (last && age >= 0 && age < cacheMs) return last.counts;
    pending ??= countOpenByDeadline(db, now)
      .then((counts) => {
        last = { at: now.getTime(), counts };
        return counts;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  };
  const gauge = (name: string, help: string, field: 'overdue' | 'due_soon') =>
    new Gauge({
      name,
      help,
      labelNames: ['regulation'],
      registers: [registry],
      async collect() {
        const rows = await snapshot().catch(() => null);
        this.reset();
        if (!rows) return;
        for (const regulation of REGULATIONS) this.set({ regulation }, 0);
        for (const row of rows) this.set({ regulation: row.regulation }, row[field]);
      },
    });
  gauge('privacy_requests_overdue', 'Privacy requests not final and past their (extended) due date, by regulation.', 'overdue');
  gauge(
    'privacy_requests_due_soon',
    `Privacy requests not final and due within ${DUE_SOON_DAYS} days, by regulation.`,
    'due_soon',
  );
}

/**
 * Creates the registry with process metrics (CPU, memory, event-loop lag) and the service's own.
 *
 * @param deps.db - when given, the deadline gauges (`privacy_requests_overdue`,
 *   `privacy_requests_due_soon`) count open requests in it; without it they are absent.
 * @param deps.clock - "now" for those gauges and their cache; the system clock by default.
 * @param deps.deadlineCacheMs - how long a count is reused, ms (default
 *   {@link DEADLINE_GAUGE_CACHE_MS}; 0 counts at every scrape).
 */
export function createMetrics(deps: { db?: Executor; clock?: Clock; deadlineCacheMs?: number } = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (deps.db)
    registerDeadlineGauges(registry, deps.db, deps.clock ?? systemClock, deps.deadlineCacheMs ?? DEADLINE_GAUGE_CACHE_MS);
  return {
    registry,
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
