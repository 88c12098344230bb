import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { type Clock, toTimestamp } from '../lib/clock.js';
import type { SweepMetrics } from '../metrics.js';
import { IN_FLIGHT_LEASE_MS } from '../modules/idempotency/idempotency.fns.js';
import type { PolicyService } from '../modules/policies/policy.service.js';
import { checkpointUntilClean } from '../db/wal-checkpoint.js';
import type { Executor } from '../db/executor.js';
import { withStatementBound } from '../db/statement-bound.js';
import { DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS } from '../config/worker-settings.js';
import { nextTurn } from '../lib/yielding.js';
import { expirePackages } from './package-expiry.js';
import * as changeEventRetention from '../modules/change-events/change-event-retention.repository.js';
import { deleteExpiredIdempotencyRecords } from '../modules/idempotency/idempotency.repository.js';
import { deleteExpiredDeliveries } from '../modules/integrations/inbound-delivery.repository.js';
import { SUBMISSION_TTL_MS } from '../modules/privacy-center/privacy-center.fns.js';
import { deleteSubmissionsBefore } from '../modules/privacy-center/submission.repository.js';
import { expireAgentSubmissions } from '../modules/privacy-center/agent-submission-expiry.js';

/** Default time between retention sweeps, ms (`RETENTION_SWEEP_MS` in config.ts overrides it). */
export const RETENTION_SWEEP_MS = 60_000;

/** Rows deleted per statement: a large backlog is removed in many short statements, never one long one. */
export const RETENTION_BATCH_SIZE = 500;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days a package is kept after it was produced when `PACKAGE_RETENTION_DAYS` is not set. */
export const DEFAULT_PACKAGE_RETENTION_DAYS = 30;

/** The shortest `retention_days` a policy allows (PRODUCT.md §2.4): nothing younger can be due. */
const MIN_RETENTION_DAYS = 1;

/** What one sweep deleted, by table. */
export interface SweepCounts {
  changeEvents: number;
  idempotencyRecords: number;
  webhookDeliveries: number;
  packages: number;
  /**
   * Privacy-center submissions older than 24 h, verified or not (PRODUCT §2.15), and agent
   * submissions unverified after 24 h or unanswered by the person after 14 days (§2.19).
   */
  centerSubmissions: number;
}

/** The sweeper was stopped mid-sweep: the sweep ends at its next yield point (the next one does the rest). */
class SweepStopped extends Error {}

/**
 * Runs `step` (one batch delete) until a batch comes back short. Awaits `pause` (a yield to the
 * event loop) between batches: better-sqlite3 is synchronous, and `serve` must keep answering
 * (and honour SIGTERM) during a big backlog.
 */
async function drain(step: () => Promise<number>, batchSize: number, pause: () => Promise<void>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await step();
    total += deleted;
    if (deleted < batchSize) return total;
    await pause();
  }
}

/** The error's class only: a driver message can quote row values. */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}

/**
 * The retention sweeper (GDPR Art. 5(1)(e), storage limitation). One {@link sweep} deletes:
 * change events older than the effective `retention_days` of their (workspace, repository);
 * idempotency records past `expires_at` whose response is stored, or whose in-flight claim was
 * abandoned (never a live claim); remembered webhook deliveries past their de-duplication window;
 * access and export packages past their expiry (src/jobs/package-expiry.ts); privacy-center
 * submissions older than 24 h (PRODUCT §2.15: an unverified request is deleted after a day);
 * agent submissions (§2.19) unverified after 24 h, or unanswered by the person after 14 days (the
 * agent is then mailed that it was not confirmed, and that end audited).
 * Nothing is audited per row; each sweep logs its counts (no personal data).
 *
 * @param deps.batchSize - rows per delete statement, default {@link RETENTION_BATCH_SIZE}.
 * @param deps.packageRetentionDays - days a package is kept after it was produced, default 30.
 * @param deps.metrics - told once per scheduled sweep whether it succeeded (src/metrics.ts).
 * @param deps.statementTimeoutMs - PostgreSQL: each batch's bound on one statement
 *   (`PG_SWEEP_STATEMENT_TIMEOUT_MS`, ms, 0: none; default {@link DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS}),
 *   set per transaction instead of the API's `PG_STATEMENT_TIMEOUT_MS` (db/statement-bound.ts).
 */
export function createRetentionSweeper(deps: {
  database: Database;
  policies: Pick<PolicyService, 'effective'>;
  clock: Clock;
  log: Logger;
  batchSize?: number;
  packageRetentionDays?: number;
  metrics?: SweepMetrics;
  statementTimeoutMs?: number;
}) {
  const { database, policies, clock, log } = deps;
  const timeoutMs = deps.statementTimeoutMs ?? DEFAULT_SWEEP_STATEMENT_TIMEOUT_MS;
  /** One step of a sweep (a batch) under the sweeps' statement bound. */
  const bounded = <T>(work: (db: Executor) => Promise<T>): Promise<T> => withStatementBound(database.db, timeoutMs, work);
  const batchSize = deps.batchSize ?? RETENTION_BATCH_SIZE;
  const countCheckpoint = (result: 'clean' | 'busy') => deps.metrics?.walCheckpoints?.inc({ result });
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;

  /** A yield between batches; throws {@link SweepStopped} once `stop()` was called. */
  async function nextTick(): Promise<void> {
    await nextTurn();
    if (stopping) throw new SweepStopped();
  }

  /**
   * Walks the (workspace, repository) pairs one index search at a time ({@link changeEventRetention.nextChangeEventScope}),
   * yielding to the event loop between pairs, and drains each pair whose oldest event is past its
   * retention. Its cost follows the number of pairs and the rows deleted, not the table's size.
   */
  async function sweepChangeEvents(now: Date): Promise<number> {
    // Nothing younger than the shortest retention a policy allows can be due: no policy lookup.
    const olderThan = toTimestamp(new Date(now.getTime() - MIN_RETENTION_DAYS * DAY_MS));
    let total = 0;
    for (
      let scope = await bounded((db) => changeEventRetention.nextChangeEventScope(db, null));
      scope;
      scope = await bounded((db) => changeEventRetention.nextChangeEventScope(db, scope))
    ) {
      if (scope.oldest < olderThan) {
        const { policy } = await policies.effective(scope.workspace_id, scope.repository);
        const cutoff = toTimestamp(new Date(now.getTime() - policy.retention_days * DAY_MS));
        const pair = scope;
        if (pair.oldest < cutoff)
          total += await drain(
            () => bounded((db) => changeEventRetention.deleteChangeEventsBefore(db, pair, cutoff, batchSize)),
            batchSize,
            nextTick,
          );
      }
      await nextTick();
    }
    return total;
  }

  /**
   * One pass over the three tables, as of `now`.
   * @returns how many rows were deleted from each.
   * @throws whatever the database throws (rows deleted before that stay deleted).
   */
  async function sweep(now: Date): Promise<SweepCounts> {
    const at = toTimestamp(now);
    const inFlightBefore = toTimestamp(new Date(now.getTime() - IN_FLIGHT_LEASE_MS));
    const changeEvents = await sweepChangeEvents(now);
    const idempotencyRecords = await drain(
      () => bounded((db) => deleteExpiredIdempotencyRecords(db, at, inFlightBefore, batchSize)),
      batchSize,
      nextTick,
    );
    const webhookDeliveries = await drain(() => bounded((db) => deleteExpiredDeliveries(db, at, batchSize)), batchSize, nextTick);
    const packages = await expirePackages({
      run: bounded,
      policies,
      now,
      retentionDays: deps.packageRetentionDays ?? DEFAULT_PACKAGE_RETENTION_DAYS,
      batchSize,
      pause: nextTick,
    });
    const submissionsBefore = toTimestamp(new Date(now.getTime() - SUBMISSION_TTL_MS));
    const centerSubmissions =
      (await drain(() => bounded((db) => deleteSubmissionsBefore(db, submissionsBefore, batchSize)), batchSize, nextTick)) +
      // The agent path's (PRODUCT §2.19): an unanswered one also mails the agent, so its own unit of work.
      (await drain(() => expireAgentSubmissions(database.db, now, batchSize), batchSize, nextTick));
    // Deleted change events, packages and submissions held personal data: on SQLite, move them out of the WAL too.
    if (changeEvents > 0 || packages > 0 || centerSubmissions > 0) {
      await checkpointUntilClean(database, { log, onAttempt: countCheckpoint });
    }
    return { changeEvents, idempotencyRecords, webhookDeliveries, packages, centerSubmissions };
  }

  /** A sweep that logs its outcome instead of throwing (the next one retries). */
  async function sweepAndLog(): Promise<void> {
    const started = Date.now();
    try {
      const counts = await sweep(clock());
      const deleted =
        counts.changeEvents + counts.idempotencyRecords + counts.webhookDeliveries + counts.packages + counts.centerSubmissions;
      log[deleted > 0 ? 'info' : 'debug']({ ...counts, durationMs: Date.now() - started }, 'retention sweep');
      deps.metrics?.sweepEnded(true, clock());
    } catch (error) {
      if (error instanceof SweepStopped) return log.info({ durationMs: Date.now() - started }, 'retention sweep stopped');
      log.warn({ error: errorName(error), durationMs: Date.now() - started }, 'retention sweep failed');
      deps.metrics?.sweepEnded(false, clock());
    }
  }

  async function run(intervalMs: number): Promise<void> {
    while (running) {
      await sweepAndLog();
      if (!running) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, intervalMs);
      });
    }
  }

  return {
    sweep,
    /** Sweeps now, then every `intervalMs` (default {@link RETENTION_SWEEP_MS}) after the previous sweep ends. */
    start(intervalMs: number = RETENTION_SWEEP_MS): void {
      if (running) return;
      running = true;
      loop = run(intervalMs);
    },
    /** Stops the schedule and a sweep in progress at its next batch; resolves once it has. */
    async stop(): Promise<void> {
      running = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}

export type RetentionSweeper = ReturnType<typeof createRetentionSweeper>;
