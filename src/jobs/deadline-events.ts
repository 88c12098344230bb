import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { boundStatements } from '../db/statement-bound.js';
import { runUnitOfWork } from '../db/unit-of-work.js';
import { DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS } from '../config/worker-settings.js';
import { toTimestamp } from '../lib/clock.js';
import { addDays } from '../modules/privacy-requests/deadline.fns.js';
import { OPEN_STATUSES } from '../modules/request-model/request-model.js';
import { type DeadlineMoment, findUnmarked, markDealtWith } from '../modules/privacy-requests/deadline-notice.repository.js';
import { requestDeadlineReached } from '../modules/privacy-requests/lifecycle/request-events.js';

/** `privacy_request.due_soon` is sent this many days before the binding due date (PRODUCT §2.8). */
export const DUE_SOON_EVENT_DAYS = 7;

/** Requests dealt with per unit of work. */
const BATCH = 200;

const OPEN: ReadonlySet<string> = new Set(OPEN_STATUSES);

/**
 * One batch of one deadline moment: the requests whose moment has come and was not dealt with
 * get their event (open ones only: `due_soon` only while not yet overdue) and their mark, in one
 * unit of work, so each request's event is enqueued once, even with several workers (a request
 * already marked by another is skipped at the next batch). @returns how many requests it marked.
 */
async function sweepBatch(db: Kysely<DB>, moment: DeadlineMoment, now: Date, timeoutMs: number): Promise<number> {
  const at = toTimestamp(now);
  const dueBy = moment === 'due_soon' ? toTimestamp(addDays(now, DUE_SOON_EVENT_DAYS)) : at;
  return runUnitOfWork(db, async (unit) => {
    await boundStatements(unit.tx, timeoutMs);
    const rows = await findUnmarked(unit.tx, moment, dueBy, BATCH);
    for (const row of rows) {
      const due = row.extended_due_at ?? row.due_at;
      const tooLate = moment === 'due_soon' && due <= at;
      if (OPEN.has(row.status) && !tooLate) requestDeadlineReached(unit, row, moment, at);
    }
    await markDealtWith(
      unit.tx,
      moment,
      rows.map((r) => r.id),
      at,
    );
    return rows.length;
  });
}

/**
 * The deadline events of PRODUCT §2.8: `privacy_request.due_soon` ({@link DUE_SOON_EVENT_DAYS}
 * days before the binding due date) and `privacy_request.overdue`, each once per request (an
 * extension starts both over for the new date). Runs in batches, yielding with `pause` between
 * them, each batch's statements bounded by `statementTimeoutMs` on PostgreSQL
 * (`PG_SWEEP_STATEMENT_TIMEOUT_MS`, db/statement-bound.ts). @returns how many requests it dealt with.
 */
export async function sweepDeadlineEvents(
  db: Kysely<DB>,
  now: Date,
  pause: () => Promise<void>,
  statementTimeoutMs: number = DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS,
): Promise<number> {
  let total = 0;
  for (const moment of ['overdue', 'due_soon'] as const) {
    for (;;) {
      const marked = await sweepBatch(db, moment, now, statementTimeoutMs);
      total += marked;
      if (marked < BATCH) break;
      await pause();
    }
  }
  return total;
}

/** A running deadline sweep; `stop()` resolves after the sweep in hand ends at its next batch. */
export interface DeadlineSweeper {
  stop(): Promise<void>;
}

/**
 * Runs {@link sweepDeadlineEvents} at once, then every `intervalMs` after the previous sweep
 * ended (in `serve` and `privacyctl worker`, beside the retention sweeper). A failed sweep is
 * logged by error class only and the next one retries.
 *
 * @param statementTimeoutMs - PostgreSQL: each batch's bound on one statement (`PG_SWEEP_STATEMENT_TIMEOUT_MS`, ms).
 */
export function startDeadlineSweeper(
  db: Kysely<DB>,
  clock: () => Date,
  intervalMs: number,
  log: { warn(obj: object, msg: string): void; debug(obj: object, msg: string): void },
  statementTimeoutMs: number = DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS,
): DeadlineSweeper {
  let running = true;
  let wake: (() => void) | undefined;
  const pause = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!running) throw new Error('stopping');
  };
  const loop = (async () => {
    while (running) {
      try {
        const count = await sweepDeadlineEvents(db, clock(), pause, statementTimeoutMs);
        log.debug({ requests: count }, 'deadline sweep');
      } catch (error) {
        if (running) log.warn({ error: error instanceof Error ? error.name : 'Error' }, 'deadline sweep failed');
      }
      if (!running) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();
  return {
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}
