import { runUnitOfWork } from '../db/unit-of-work.js';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { Metrics } from '../metrics.js';
import { type Clock, toTimestamp } from '../lib/clock.js';
import type { PrivacyRequestRow } from '../modules/request-model/request-model.js';
import type { HandlerOutcome, RequestHandler } from '../workflows/request-types/handler.types.js';
import { nextTurn } from '../lib/yielding.js';
import { claimNext, extendLease, releaseClaim } from '../modules/privacy-requests/lifecycle/request-state.repository.js';
import { bindOwnStep } from '../workflows/own-step/own-step.js';
import { LeaseLost } from '../modules/privacy-requests/privacy-request.errors.js';
import { REQUEST_HANDLERS } from '../workflows/request-types/request-handlers.js';
import { WorkerStopping, failureReason } from './attempt-errors.js';
import { completeErasure, type ErasureStepDeps } from './erasure-step.js';
import { serializeOutcome } from './serialize-outcome.js';
import { createIdleWait, type IdleWait } from './idle-wait.js';

/** Worker settings (PRODUCT.md §3 "worker settings"). Times in ms. */
export interface WorkerOptions {
  pollMs: number;
  leaseMs: number;
  maxAttempts: number;
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
 * packages are serialized in slices ({@link serializeOutcome}), and read-only handlers (access,
 * export) run outside any transaction, their outcome stored by a short one. `stop()` takes
 * effect at the next yield point: the request in hand is given back ({@link releaseClaim}).
 *
 * This file is the loop (claim, lease heartbeat, retry, stop); what an attempt writes is the
 * request lifecycle's (workflows/requests/own-step.ts: status, result, audit,
 * data tasks), and a deletion's two steps are in erasure-step.ts.
 */
export function createWorker(deps: {
  database: Database;
  clock: Clock;
  log: Logger;
  pseudonymKey: string;
  /** Each request type's handler; default: the request types' own (request-types.ts). Tests pass others. */
  handlers?: Readonly<Record<string, RequestHandler>>;
  options: WorkerOptions;
  /** Counts attempts by outcome (completed, action_required, retried, failed) and WAL checkpoints. */
  metrics?: Pick<Metrics, 'requestsProcessed'> & Partial<Pick<Metrics, 'walCheckpoints'>>;
  /** `PUBLIC_BASE_URL`: the base of the links in `data_task.created` events (default `http://127.0.0.1:8080`). */
  publicBaseUrl?: string;
  /**
   * The service's secret box: a database system's task keeps the subject's identities sealed
   * with it until it runs (a deletion erases them here first). Without it, such a task reads the
   * identities when it runs.
   */
  secretBox?: SecretBox;
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

  const handlers = deps.handlers ?? REQUEST_HANDLERS;
  const recorder = bindOwnStep({
    clock,
    owner,
    publicBaseUrl,
    ...(deps.secretBox ? { seal: (text: string) => deps.secretBox!.seal(text) } : {}),
  });
  const erasure: ErasureStepDeps = {
    database,
    log,
    leaseMs: options.leaseMs,
    recorder,
    wait: nap,
    metrics: deps.metrics,
  };
  const serialize = (outcome: HandlerOutcome) => serializeOutcome(outcome, pause);

  async function complete(request: PrivacyRequestRow, now: Date): Promise<HandlerOutcome> {
    const handler = (handlers as Record<string, RequestHandler | undefined>)[request.request_type];
    if (!handler) throw new Error(`no handler for ${request.request_type}`);
    const context = { request, now, pseudonymKey: deps.pseudonymKey, pause };
    if (handler.erases) return completeErasure(erasure, handler, request, context);
    if (handler.readOnly) {
      // Built outside any transaction; stored by a short one that checks the lease.
      const outcome = await handler({ ...context, tx: db });
      const result = await serialize(outcome);
      await runUnitOfWork(db, (unit) => recorder.record(unit, request, outcome, result));
      return outcome;
    }
    return runUnitOfWork(db, async (unit) => {
      const { tx } = unit;
      const outcome = await handler({ ...context, tx });
      await recorder.record(unit, request, outcome, await serialize(outcome));
      return outcome;
    });
  }

  /** Records a failed attempt (retried after a backoff, or `failed` after `maxAttempts`), counts and logs it. */
  async function retryOrFail(request: PrivacyRequestRow, error: unknown): Promise<void> {
    const now = clock();
    const reason = `attempt ${request.attempts} failed: ${failureReason(error)}`;
    const final = request.attempts >= options.maxAttempts;
    await runUnitOfWork(db, (unit) => recorder.recordFailure(unit, request, { reason, final, now }));
    deps.metrics?.requestsProcessed.inc({ request_type: request.request_type, outcome: final ? 'failed' : 'retried' });
    log.warn(
      { requestId: request.id, attempt: request.attempts, final, error: failureReason(error) },
      'privacy request attempt failed',
    );
  }

  /** The wait between claims that found nothing: `pollMs`, cut short by a commit (db/wakeup.ts) or `stop()`. */
  let idle: IdleWait | undefined;

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

  async function run(wait: IdleWait): Promise<void> {
    while (running) {
      // Between requests: HTTP and signals get their turn, however long the backlog.
      await nextTurn();
      if (!running) return;
      wait.clear();
      const worked = await runOnce().catch((error: unknown) => {
        log.warn({ error: failureReason(error) }, 'worker poll failed');
        return false;
      });
      if (!worked && running) await wait.wait();
    }
  }

  return {
    owner,
    runOnce,
    /** Starts polling in the background, woken at once by every commit on the database (db/wakeup.ts). */
    start(): void {
      if (running) return;
      running = true;
      idle = createIdleWait(options.pollMs, database.wakeups);
      loop = run(idle);
    },
    /**
     * Stops at once: no further claim, and the request in hand (if any) is abandoned at its next
     * yield point and given back (`queued`, the attempt not counted). Resolves when that is done.
     */
    async stop(): Promise<void> {
      running = false;
      stopping = true;
      idle?.wake();
      for (const sleeper of [...sleepers]) sleeper();
      await loop;
      idle?.close();
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;
