import { runUnitOfWork, type UnitOfWork } from '../db/unit-of-work.js';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { Metrics } from '../metrics.js';
import { type Clock, toTimestamp } from '../lib/clock.js';
import { recordAudit } from '../modules/audit/audit.repository.js';
import { retryDelayMs } from '../modules/privacy-requests/lifecycle.fns.js';
import type { PrivacyRequestRow } from '../modules/privacy-requests/privacy-request.repository.js';
import type { HandlerOutcome, RequestHandler } from './handlers/handler.types.js';
import { nextTurn, stringifyYielding } from '../lib/yielding.js';
import { checkpointUntilClean } from '../db/wal-checkpoint.js';
import { claimNext, extendLease, finishAttempt, releaseClaim } from './job.repository.js';
import { findResult, saveResultJson } from '../modules/privacy-requests/result.repository.js';
import { requestStatusChanged } from '../modules/privacy-requests/request-events.js';
import { lockRequest } from '../modules/privacy-requests/privacy-request.repository.js';
import { fanOutTasks } from '../modules/data-systems/data-task-fanout.js';
import { afterOwnStep } from '../modules/data-systems/data-task-completion.js';
import { closeTasksOfEndedRequest } from '../modules/data-systems/data-task-closing.js';

/** Worker settings (PRODUCT.md §3 "worker settings"). Times in ms. */
export interface WorkerOptions {
  pollMs: number;
  leaseMs: number;
  maxAttempts: number;
}

/** The attempt ended because the lease was lost (another worker took over, or the request was canceled). */
class LeaseLost extends Error {}

/** The worker is stopping: the attempt is abandoned at a yield point and the request given back. */
class WorkerStopping extends Error {}

/**
 * An erasure committed, but SQLite's WAL could not be emptied (another process held an older
 * read snapshot throughout): the attempt fails and is retried; the next one finds the committed
 * report and only checkpoints again.
 */
class WalCheckpointBusy extends Error {
  override name = 'WalCheckpointBusy';
}

/** A failure reason safe to store and show: the error's class, never its message (it may quote data). */
function failureReason(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}

/**
 * The request processor: claims due requests (the `privacy_requests` table is the queue), runs
 * the handler of the request type, records the outcome in a transaction that checks the lease,
 * keeps its lease alive while it works, retries failures with exponential backoff, and marks a
 * request `failed` after `maxAttempts`. A request whose worker dies is claimed again when its
 * lease expires; completion is conditional on still holding the lease, so each request completes once.
 *
 * It shares the event loop with HTTP (`serve`), so it never holds it for long: it yields
 * (setImmediate) between requests, handlers read and write in pages with `pause` between them,
 * packages are serialized in slices ({@link stringifyYielding}), and read-only handlers (access,
 * export) run outside any transaction, their outcome stored by a short one. `stop()` takes
 * effect at the next yield point: the request in hand is given back ({@link releaseClaim}).
 */
export function createWorker(deps: {
  database: Database;
  clock: Clock;
  log: Logger;
  pseudonymKey: string;
  handlers: Record<string, RequestHandler>;
  options: WorkerOptions;
  /** Counts attempts by outcome (completed, action_required, retried, failed) and WAL checkpoints. */
  metrics?: Pick<Metrics, 'requestsProcessed'> & Partial<Pick<Metrics, 'walCheckpoints'>>;
  /** `PUBLIC_BASE_URL`: the base of the links in `data_task.created` events (default `http://127.0.0.1:8080`). */
  publicBaseUrl?: string;
}) {
  const { database, clock, log, options } = deps;
  const db = database.db;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const publicBaseUrl = deps.publicBaseUrl ?? 'http://127.0.0.1:8080';
  let running = false;
  let loop: Promise<void> | null = null;

  let stopping = false;

  const sleepers = new Set<() => void>();
  /** Waits `ms` (cut short by `stop()`); throws {@link WorkerStopping} once `stop()` was called. */
  async function nap(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });
    if (stopping) throw new WorkerStopping();
  }

  /** Yields to the event loop; throws {@link WorkerStopping} once `stop()` was called. */
  async function pause(): Promise<void> {
    await nextTurn();
    if (stopping) throw new WorkerStopping();
  }

  /**
   * Records the outcome (status, result, audit) in `unit`, only while this worker holds the lease.
   * With `fanOut`, the request's data tasks are created first in the same unit (PRODUCT §2.9);
   * when the request has tasks (`fanOut` found systems, or `withTasks`), a completed own step
   * ends the request only once no task is pending ({@link recordWithTasks}).
   */
  async function record(
    unit: UnitOfWork,
    request: PrivacyRequestRow,
    outcome: HandlerOutcome,
    result: { pkg: string | null; report: string | null },
    tasks: { fanOut: boolean; withTasks?: boolean } = { fanOut: true },
  ): Promise<void> {
    const systems = tasks.fanOut ? await fanOutTasks(unit, request, clock(), publicBaseUrl) : 0;
    if (outcome.status === 'completed' && (systems > 0 || tasks.withTasks)) return recordWithTasks(unit, request, result);
    const at = toTimestamp(clock());
    const done = outcome.status === 'completed';
    const fields = done
      ? { status: 'completed', completed_at: at, status_reason: null }
      : { status: 'action_required', status_reason: outcome.reason };
    if (!(await finishAttempt(unit.tx, request.id, owner, { ...fields, updated_at: at }))) throw new LeaseLost();
    if (done) await saveResultJson(unit.tx, request.id, result.pkg, result.report, at);
    recordAudit(unit, {
      actor: 'worker',
      requestId: request.id,
      action: `privacy_request.${fields.status}`,
      targetType: 'privacy_request',
      targetId: request.id,
      workspaceId: request.workspace_id,
      details: { attempt: request.attempts },
      occurredAt: at,
    });
    requestStatusChanged(unit, { ...request, ...fields }, request.status, at);
  }

  /**
   * Records a completed own step of a request that has data tasks: under the request's row lock
   * (a task result waits for it, and this reads every result committed before), `completed` or
   * `failed` when no task is pending (the systems' part added to the result), else `processing`
   * without a lease, which the claim skips until the last task result ends it
   * (modules/data-systems/data-task-completion.ts).
   */
  async function recordWithTasks(
    unit: UnitOfWork,
    request: PrivacyRequestRow,
    result: { pkg: string | null; report: string | null },
  ): Promise<void> {
    const held = await lockRequest(unit.tx, request.id);
    if (held?.status !== 'processing' || held.lease_owner !== owner) throw new LeaseLost();
    const at = toTimestamp(clock());
    const next = await afterOwnStep(unit.tx, request, result, at);
    const fields = { status: next.status, status_reason: next.status_reason, completed_at: next.completed_at, updated_at: at };
    if (!(await finishAttempt(unit.tx, request.id, owner, fields))) throw new LeaseLost();
    await saveResultJson(unit.tx, request.id, next.pkg, next.report, at);
    // Waiting stays `processing`: no event until the request ends.
    requestStatusChanged(unit, { ...request, ...fields }, request.status, at);
    recordAudit(unit, {
      actor: 'worker',
      requestId: request.id,
      action: next.status === 'processing' ? 'privacy_request.awaiting_tasks' : `privacy_request.${next.status}`,
      targetType: 'privacy_request',
      targetId: request.id,
      workspaceId: request.workspace_id,
      // Without tasks the entry is the one a request without data systems always had.
      details:
        next.tasks === 0
          ? { attempt: request.attempts }
          : { attempt: request.attempts, tasks: next.tasks, ...(next.status_reason ? { reason: next.status_reason } : {}) },
      occurredAt: at,
    });
  }

  /** The outcome's package and report as JSON text, serialized in slices. */
  async function serialize(outcome: HandlerOutcome) {
    if (outcome.status !== 'completed') return { pkg: null, report: null };
    const json = async (value: unknown) => (value === undefined ? null : ((await stringifyYielding(value, pause)) ?? null));
    return { pkg: await json(outcome.package), report: await json(outcome.report) };
  }

  async function complete(request: PrivacyRequestRow, now: Date): Promise<HandlerOutcome> {
    const handler = deps.handlers[request.request_type];
    if (!handler) throw new Error(`no handler for ${request.request_type}`);
    const context = { request, now, pseudonymKey: deps.pseudonymKey, pause };
    if (handler.erases) return completeErasure(handler, request, context);
    if (handler.readOnly) {
      // Built outside any transaction; stored by a short one that checks the lease.
      const outcome = await handler({ ...context, tx: db });
      const result = await serialize(outcome);
      await runUnitOfWork(db, (unit) => record(unit, request, outcome, result));
      return outcome;
    }
    return runUnitOfWork(db, async (unit) => {
      const { tx } = unit;
      const outcome = await handler({ ...context, tx });
      await record(unit, request, outcome, await serialize(outcome));
      return outcome;
    });
  }

  /**
   * An `erases` handler (deletion) in two steps: its effects and its report commit together
   * (while the lease is held), then SQLite's WAL is checkpointed until no copy of the erased
   * rows remains ({@link checkpointUntilClean}), and only then is `completed` recorded. An
   * attempt that finds the report already committed (the WAL was busy before, or the worker
   * stopped or died in between) skips straight to the checkpoint.
   * @throws WalCheckpointBusy when the WAL stays busy; LeaseLost; WorkerStopping.
   */
  async function completeErasure(
    handler: RequestHandler,
    request: PrivacyRequestRow,
    context: Omit<Parameters<RequestHandler>[0], 'tx'>,
  ): Promise<HandlerOutcome> {
    let report = (await findResult(db, request.id))?.report ?? null;
    let outcome: HandlerOutcome = { status: 'completed', report: report === null ? undefined : JSON.parse(report) };
    if (report === null) {
      outcome = await runUnitOfWork(db, async (unit) => {
        const { tx } = unit;
        // The tasks first: their events carry the identities the erasure is about to remove.
        await fanOutTasks(unit, request, clock(), publicBaseUrl);
        const result = await handler({ ...context, tx });
        report = (await serialize(result)).report;
        const until = toTimestamp(new Date(clock().getTime() + options.leaseMs));
        if (!(await extendLease(tx, request.id, owner, until))) throw new LeaseLost();
        await saveResultJson(tx, request.id, null, report, toTimestamp(clock()));
        return result;
      });
    }
    const clean = await checkpointUntilClean(database, {
      log,
      wait: nap,
      onAttempt: (result) => deps.metrics?.walCheckpoints?.inc({ result }),
    });
    if (!clean) throw new WalCheckpointBusy();
    await runUnitOfWork(db, (unit) => record(unit, request, outcome, { pkg: null, report }, { fanOut: false, withTasks: true }));
    return outcome;
  }

  async function retryOrFail(request: PrivacyRequestRow, error: unknown): Promise<void> {
    const now = clock();
    const at = toTimestamp(now);
    const reason = `attempt ${request.attempts} failed: ${failureReason(error)}`;
    const final = request.attempts >= options.maxAttempts;
    await runUnitOfWork(db, async (unit) => {
      const { tx } = unit;
      const fields = final
        ? { status: 'failed', status_reason: reason }
        : {
            status: 'queued',
            status_reason: reason,
            next_attempt_at: toTimestamp(new Date(now.getTime() + retryDelayMs(request.attempts))),
          };
      if (!(await finishAttempt(tx, request.id, owner, { ...fields, updated_at: at }))) return;
      // A deletion's tasks exist from its committed erasure step: nothing is asked of them any more.
      if (final && request.request_type === 'deletion') await closeTasksOfEndedRequest(unit, request.id, 'worker', at);
      if (final)
        recordAudit(unit, {
          actor: 'worker',
          requestId: request.id,
          action: 'privacy_request.failed',
          targetType: 'privacy_request',
          targetId: request.id,
          workspaceId: request.workspace_id,
          details: { attempts: request.attempts, reason },
          occurredAt: at,
        });
      if (final) requestStatusChanged(unit, { ...request, ...fields }, request.status, at);
    });
    deps.metrics?.requestsProcessed.inc({ request_type: request.request_type, outcome: final ? 'failed' : 'retried' });
    log.warn(
      { requestId: request.id, attempt: request.attempts, final, error: failureReason(error) },
      'privacy request attempt failed',
    );
  }

  let wake: (() => void) | null = null;
  /** Waits `pollMs`, or less when `stop()` is called. */
  function idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, options.pollMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Gives an abandoned request back (stopping); if that fails, its lease brings it back. */
  async function giveBack(request: PrivacyRequestRow): Promise<void> {
    const released = await releaseClaim(db, request.id, owner, toTimestamp(clock())).catch(() => false);
    log.info({ requestId: request.id, released }, 'worker stopping; request given back');
  }

  /** Claims and processes at most one request. @returns true when one was claimed. */
  async function runOnce(): Promise<boolean> {
    const now = clock();
    const request = await claimNext(db, owner, toTimestamp(now), toTimestamp(new Date(now.getTime() + options.leaseMs)));
    if (!request) return false;
    log.debug({ requestId: request.id, requestType: request.request_type, attempt: request.attempts }, 'privacy request claimed');
    const heartbeat = setInterval(
      () => {
        const until = toTimestamp(new Date(clock().getTime() + options.leaseMs));
        extendLease(db, request.id, owner, until).catch(() => undefined);
      },
      Math.max(10, Math.floor(options.leaseMs / 3)),
    );
    try {
      const outcome = await complete(request, now);
      deps.metrics?.requestsProcessed.inc({ request_type: request.request_type, outcome: outcome.status });
      log.info({ requestId: request.id, status: outcome.status }, 'privacy request processed');
    } catch (error) {
      if (error instanceof LeaseLost)
        log.info({ requestId: request.id }, 'lease lost; another worker or an operator took the request');
      else if (error instanceof WorkerStopping) await giveBack(request);
      else await retryOrFail(request, error);
    } finally {
      clearInterval(heartbeat);
    }
    return true;
  }

  async function run(): Promise<void> {
    while (running) {
      // Between requests: HTTP and signals get their turn, however long the backlog.
      await nextTurn();
      if (!running) return;
      const worked = await runOnce().catch((error: unknown) => {
        log.warn({ error: failureReason(error) }, 'worker poll failed');
        return false;
      });
      if (!worked && running) await idle();
    }
  }

  return {
    owner,
    runOnce,
    /** Starts polling in the background. */
    start(): void {
      if (running) return;
      running = true;
      loop = run();
    },
    /**
     * Stops at once: no further claim, and the request in hand (if any) is abandoned at its next
     * yield point and given back (`queued`, the attempt not counted). Resolves when that is done.
     */
    async stop(): Promise<void> {
      running = false;
      stopping = true;
      wake?.();
      for (const sleeper of [...sleepers]) sleeper();
      await loop;
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;
