import { Gauge, type Registry } from 'prom-client';
import type { Executor } from '../db/executor.js';
import { type Clock, toTimestamp } from '../lib/clock.js';
import { countOverdueTasks } from '../modules/data-systems/data-task-overdue.repository.js';

/**
 * `data_tasks_overdue` (PRODUCT §2.9): data tasks not final and past their `due_at`, by status
 * (only `pending` tasks are not final, so it is the one label, 0 when none), counted by one
 * grouped query at most once per `cacheMs`, like the request gauges. A failed query leaves the
 * gauge out of that scrape.
 */
export function registerTaskGauge(registry: Registry, db: Executor, clock: Clock, cacheMs: number): void {
  let last: { at: number; rows: { status: string; count: number }[] } | null = null;
  new Gauge({
    name: 'data_tasks_overdue',
    help: 'Data tasks not final and past their due date, by status.',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const now = clock();
      const age = last ? now.getTime() - last.at : Number.POSITIVE_INFINITY;
      const rows =
        last && age >= 0 && age < cacheMs ? last.rows : await countOverdueTasks(db, toTimestamp(now)).catch(() => null);
      this.reset();
      if (!rows) return;
      last = { at: now.getTime(), rows };
      this.set({ status: 'pending' }, 0);
      for (const row of rows) this.set({ status: row.status }, row.count);
    },
  });
}
