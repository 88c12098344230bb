import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { boundStatements } from '../db/statement-bound.js';
import { runUnitOfWork } from '../db/unit-of-work.js';
import { DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS } from '../config/worker-settings.js';
import { type Clock, toTimestamp } from '../lib/clock.js';
import { nextTurn } from '../lib/yielding.js';
import { markOverdueNotified, overdueUnnotified } from '../modules/data-systems/data-task-overdue.repository.js';
import { toTaskResource } from '../modules/data-systems/data-task.resource.js';
import { enqueueEvent } from '../modules/outbound-events/outbox.repository.js';

/** Tasks handled per transaction. */
const BATCH = 200;

/**
 * One pass of the data-task overdue sweep (PRODUCT §2.8, §2.9): every pending task past its
 * `due_at` whose `data_task.overdue` event was not sent gets one (to every subscribed endpoint
 * of its workspace: the event carries the task, no identity), and `overdue_notified_at` is set
 * in the same transaction, so each task's event is sent once, whichever process sweeps. Each
 * batch's statements are bounded by `statementTimeoutMs` on PostgreSQL
 * (`PG_SWEEP_STATEMENT_TIMEOUT_MS`, db/statement-bound.ts).
 *
 * @returns how many events were enqueued.
 */
export async function sendOverdueTaskEvents(
  db: Database['db'],
  now: Date,
  pause: () => Promise<void> = nextTurn,
  statementTimeoutMs: number = DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS,
): Promise<number> {
  const at = toTimestamp(now);
  let total = 0;
  for (;;) {
    const sent = await runUnitOfWork(db, async (unit) => {
      await boundStatements(unit.tx, statementTimeoutMs);
      const rows = await overdueUnnotified(unit.tx, at, BATCH);
      let marked = 0;
      for (const row of rows) {
        if (!(await markOverdueNotified(unit.tx, row.id, at))) continue;
        marked += 1;
        enqueueEvent(unit, {
          workspaceId: row.workspace_id,
          type: 'data_task.overdue',
          occurredAt: at,
          data: { task: toTaskResource(row, at) },
        });
      }
      return { rows: rows.length, marked };
    });
    total += sent.marked;
    if (sent.rows < BATCH) return total;
    await pause();
  }
}

/**
 * Runs {@link sendOverdueTaskEvents} now and then every `intervalMs` (the retention sweep's
 * interval) beside the retention sweeper; a failed pass is logged (error class only) and the
 * next one retries. `stop()` resolves after the pass in hand.
 */
export function startTaskOverdueSweep(deps: {
  database: Database;
  clock: Clock;
  log: Logger;
  intervalMs: number;
  /** PostgreSQL: each batch's bound on one statement (`PG_SWEEP_STATEMENT_TIMEOUT_MS`, ms). */
  statementTimeoutMs?: number;
}) {
  let running = true;
  let timer: NodeJS.Timeout | null = null;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (running) {
      try {
        const sent = await sendOverdueTaskEvents(deps.database.db, deps.clock(), nextTurn, deps.statementTimeoutMs);
        if (sent > 0) deps.log.info({ sent }, 'data task overdue events');
      } catch (error) {
        deps.log.warn({ error: error instanceof Error ? error.name : 'Error' }, 'data task overdue sweep failed');
      }
      if (!running) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, deps.intervalMs);
      });
    }
  })();
  return {
    async stop(): Promise<void> {
      running = false;
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
