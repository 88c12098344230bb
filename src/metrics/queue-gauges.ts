import { Gauge, type Registry } from 'prom-client';
import type { Executor } from '../db/executor.js';
import { type Clock, toTimestamp } from '../lib/clock.js';
import { addDays } from '../modules/privacy-requests/deadline.fns.js';
import { DUE_SOON_DAYS } from '../modules/privacy-requests/privacy-request.service.js';
import { OPEN_STATUSES } from '../modules/request-model/request-model.js';
import { type OpenRequestStats, openRequestStats } from '../modules/privacy-requests/queue-stats.repository.js';

/** The `regulation` values a request can carry (docs/decisions.md): always exported, 0 when none. */
const REGULATIONS = ['gdpr', 'ccpa', 'ccpa+gdpr'];

/** Seconds from `earlier` (RFC 3339) to `now`, never negative. */
function secondsSince(earlier: string, now: Date): number {
  return Math.max(0, (now.getTime() - Date.parse(earlier)) / 1000);
}

/** The earliest of `values` (RFC 3339 text orders as time), or undefined when there is none. */
function earliest(values: string[]): string | undefined {
  return values.reduce<string | undefined>((min, v) => (min === undefined || v < min ? v : min), undefined);
}

/** Sums `field` of the rows whose `key` is `value`. */
function sumWhere(
  rows: OpenRequestStats[],
  key: 'regulation' | 'status',
  value: string,
  field: 'overdue' | 'due_soon' | 'count',
) {
  return rows.filter((r) => r[key] === value).reduce((total, r) => total + r[field], 0);
}

/**
 * The gauges computed from the open requests in the database, from ONE query
 * ({@link openRequestStats}) made at most once per `cacheMs` (by `clock`; at every scrape when
 * 0) and shared by all of them (prom-client collects them concurrently):
 * `privacy_requests_overdue` and `privacy_requests_due_soon` by regulation,
 * `privacy_requests_queue_depth` by open status, and the ages (seconds, at the scrape) of the
 * oldest queued request and of the longest-overdue one. A failed query is not kept: the gauges
 * are left out of that scrape rather than failing it, and the next scrape queries again.
 */
export function registerQueueGauges(registry: Registry, db: Executor, clock: Clock, cacheMs: number): void {
  let last: { at: number; rows: OpenRequestStats[] } | null = null;
  let pending: Promise<OpenRequestStats[]> | null = null;
  const snapshot = async () => {
    const now = clock();
    const age = last ? now.getTime() - last.at : Number.POSITIVE_INFINITY;
    // A clock that went back (age < 0) counts afresh.
    if (last && age >= 0 && age < cacheMs) return last.rows;
    pending ??= openRequestStats(db, toTimestamp(now), toTimestamp(addDays(now, DUE_SOON_DAYS)))
      .then((rows) => {
        last = { at: now.getTime(), rows };
        return rows;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  };
  const gauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge, rows: OpenRequestStats[]) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const rows = await snapshot().catch(() => null);
        this.reset();
        if (rows) fill(this, rows);
      },
    });
  const byRegulation = (field: 'overdue' | 'due_soon') => (g: Gauge, rows: OpenRequestStats[]) => {
    for (const regulation of REGULATIONS) g.set({ regulation }, 0);
    for (const regulation of new Set(rows.map((r) => r.regulation)))
      g.set({ regulation }, sumWhere(rows, 'regulation', regulation, field));
  };
  gauge(
    'privacy_requests_overdue',
    'Privacy requests not final and past their (extended) due date, by regulation.',
    ['regulation'],
    byRegulation('overdue'),
  );
  gauge(
    'privacy_requests_due_soon',
    `Privacy requests not final and due within ${DUE_SOON_DAYS} days, by regulation.`,
    ['regulation'],
    byRegulation('due_soon'),
  );
  gauge(
    'privacy_requests_queue_depth',
    'Privacy requests not final, by status (pending_approval, queued, processing, action_required).',
    ['status'],
    (g, rows) => {
      for (const status of OPEN_STATUSES) g.set({ status }, sumWhere(rows, 'status', status, 'count'));
    },
  );
  gauge(
    'privacy_requests_oldest_queued_age_seconds',
    'Seconds since the oldest queued privacy request was filed; 0 when none is queued.',
    [],
    (g, rows) => {
      const oldest = earliest(rows.filter((r) => r.status === 'queued').map((r) => r.oldest_created_at));
      g.set(oldest === undefined ? 0 : secondsSince(oldest, clock()));
    },
  );
  gauge(
    'privacy_requests_oldest_overdue_age_seconds',
    'Seconds since the (extended) due date of the privacy request overdue the longest; 0 when none is overdue.',
    [],
    (g, rows) => {
      const due = earliest(rows.map((r) => r.earliest_due_at));
      g.set(due === undefined ? 0 : secondsSince(due, clock()));
    },
  );
}
