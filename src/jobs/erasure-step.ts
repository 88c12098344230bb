import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { runUnitOfWork } from '../db/unit-of-work.js';
import { checkpointUntilClean } from '../db/wal-checkpoint.js';
import type { Metrics } from '../metrics.js';
import type { PrivacyRequestRow } from '../modules/request-model/request-model.js';
import { findResult } from '../modules/privacy-requests/result.repository.js';
import type { HandlerContext, HandlerOutcome, RequestHandler } from '../workflows/request-types/handler.types.js';
import type { OwnStepRecorder } from '../workflows/own-step/own-step.js';
import { WalCheckpointBusy } from './attempt-errors.js';
import { serializeOutcome } from './serialize-outcome.js';

/** What the erasure step needs from its worker. Times in ms. */
export interface ErasureStepDeps {
  database: Database;
  log: Logger;
  /** The lease is extended by `leaseMs` once the erasure is done. */
  leaseMs: number;
  /** The lifecycle's record of the worker's steps: the report and `completed` once the WAL is clean. */
  recorder: OwnStepRecorder;
  /** Waits between checkpoint attempts (ms); throws WorkerStopping once the worker stops. */
  wait: (ms: number) => Promise<void>;
  /** Counts WAL checkpoint attempts by result. */
  metrics?: Partial<Pick<Metrics, 'walCheckpoints'>>;
}

/**
 * An `erases` handler (deletion) in two steps: its effects and its report commit together
 * (while the lease is held), then SQLite's WAL is checkpointed until no copy of the erased
 * rows remains ({@link checkpointUntilClean}), and only then is `completed` recorded. An
 * attempt that finds the report already committed (the WAL was busy before, or the worker
 * stopped or died in between) skips straight to the checkpoint.
 *
 * @param context - the handler's context without `tx` (each step opens its own unit of work);
 *   its `pause` also slices the report's serialization.
 * @throws WalCheckpointBusy when the WAL stays busy; LeaseLost; WorkerStopping.
 */
export async function completeErasure(
  deps: ErasureStepDeps,
  handler: RequestHandler,
  request: PrivacyRequestRow,
  context: Omit<HandlerContext, 'tx' | 'pause'> & { pause: () => Promise<void> },
): Promise<HandlerOutcome> {
  const { database } = deps;
  const db = database.db;
  let report = (await findResult(db, request.id))?.report ?? null;
  let outcome: HandlerOutcome = { status: 'completed', report: report === null ? undefined : JSON.parse(report) };
  if (report === null) {
    outcome = await runUnitOfWork(db, async (unit) => {
      const { tx } = unit;
      // The tasks first: their events carry the identities the erasure is about to remove.
      await deps.recorder.fanOutTasks(unit, request);
      const result = await handler({ ...context, tx });
      report = (await serializeOutcome(result, context.pause)).report;
      const found = result.status === 'completed' ? result.found : undefined;
      await deps.recorder.storeErasureReport(unit, request, report, deps.leaseMs, found);
      return result;
    });
  }
  const clean = await checkpointUntilClean(database, {
    log: deps.log,
    wait: deps.wait,
    onAttempt: (result) => deps.metrics?.walCheckpoints?.inc({ result }),
  });
  if (!clean) throw new WalCheckpointBusy();
  await runUnitOfWork(db, (unit) =>
    deps.recorder.record(unit, request, outcome, { pkg: null, report }, { fanOut: false, withTasks: true }),
  );
  return outcome;
}
