import type { UnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import type { HandlerOutcome } from '../request-types/handler.types.js';
import { LeaseLost } from '../../modules/privacy-requests/privacy-request.errors.js';
import { lockRequest } from '../../modules/privacy-requests/privacy-request.repository.js';
import { traitsOf } from '../../modules/privacy-requests/request-types.js';
import { saveResultJson } from '../../modules/privacy-requests/lifecycle/request-state.repository.js';
import { retryDelayMs } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';
import { afterOwnStep } from './request-end.js';
import { extendLease } from '../../modules/privacy-requests/lifecycle/request-state.repository.js';
import { fanOutTasks } from '../tasks/task-fanout.js';
import { commitTransition } from '../../modules/privacy-requests/lifecycle/transition.js';

/** An outcome's package and report as JSON text (`null` when absent), as `request_results` stores them. */
export interface SerializedResult {
  pkg: string | null;
  report: string | null;
}

/**
 * How the worker's attempts change a request (PRODUCT §2.3, §2.9), each in the caller's unit of
 * work and only while `owner` holds the lease, through the lifecycle's one writer
 * ({@link commitTransition}).
 *
 * @param deps.clock - the time of each record (`updated_at`, `completed_at`, audit `occurred_at`).
 * @param deps.owner - the worker's lease owner (`host:pid:random`).
 * @param deps.publicBaseUrl - the base of the links in `data_task.created` events.
 */
export function createOwnStepRecorder(deps: {
  clock: Clock;
  owner: string;
  publicBaseUrl: string;
  /** Seals what an executor keeps for its run (the secret box); without it nothing is kept. */
  seal?: (plaintext: string) => string;
}) {
  const { clock, owner, publicBaseUrl, seal } = deps;
  const fanOut = (unit: UnitOfWork, request: PrivacyRequestRow) => fanOutTasks(unit, request, clock(), publicBaseUrl, seal);

  /**
   * Records the outcome of the request's own step (status, result, audit, events) in `unit`.
   * With `fanOut`, the request's data tasks are created first in the same unit (PRODUCT §2.9);
   * when the request has tasks (`fanOut` found systems, or `withTasks`), a completed own step
   * ends the request only once no task is pending ({@link recordWithTasks}).
   * @throws LeaseLost when the lease is no longer this worker's (the unit then rolls back).
   */
  async function record(
    unit: UnitOfWork,
    request: PrivacyRequestRow,
    outcome: HandlerOutcome,
    result: SerializedResult,
    tasks: { fanOut: boolean; withTasks?: boolean } = { fanOut: true },
  ): Promise<void> {
    // A request that waits before any work (no controller named) sends nothing to its systems yet.
    const waitsFirst = outcome.status === 'action_required' && outcome.beforeWork === true;
    const systems = tasks.fanOut && !waitsFirst ? await fanOut(unit, request) : 0;
    // Whether the own step found the identity (PRODUCT §2.13): said now, or stored by an earlier step (an erasure's).
    const said = outcome.status === 'completed' ? outcome.found : undefined;
    const subject_found = said === undefined ? request.subject_found : said ? 1 : 0;
    if (outcome.status === 'completed' && (systems > 0 || tasks.withTasks || subject_found === 0))
      return recordWithTasks(unit, { ...request, subject_found }, result);
    const at = toTimestamp(clock());
    const done = outcome.status === 'completed';
    await commitTransition(unit, request, {
      at,
      leaseOwner: owner,
      change: done
        ? { status: 'completed', completed_at: at, status_reason: null, subject_found }
        : { status: 'action_required', status_reason: outcome.reason },
      ...(done ? { result: { pkg: result.pkg, report: result.report, stored: 'saved' as const } } : {}),
      audit: {
        actor: 'worker',
        action: `privacy_request.${done ? 'completed' : 'action_required'}`,
        details: { attempt: request.attempts, ...(done ? {} : { reason: outcome.reason }) },
      },
    });
  }

  /**
   * Records a completed own step of a request that has data tasks: under the request's row lock
   * (a task result waits for it, and this reads every result committed before), `completed` or
   * `failed` when no task is pending (the systems' part added to the result), else `processing`
   * without a lease, which the claim skips until the last task result ends it (task-result.ts).
   * @throws LeaseLost when the request is no longer `processing` under this worker's lease.
   */
  async function recordWithTasks(unit: UnitOfWork, request: PrivacyRequestRow, result: SerializedResult): Promise<void> {
    const held = await lockRequest(unit.tx, request.id);
    if (held?.status !== 'processing' || held.lease_owner !== owner) throw new LeaseLost();
    const at = toTimestamp(clock());
    const next = await afterOwnStep(unit.tx, request, result, at);
    await commitTransition(unit, request, {
      at,
      leaseOwner: owner,
      change: {
        status: next.status,
        status_reason: next.status_reason,
        completed_at: next.completed_at,
        subject_found: request.subject_found,
      },
      result: { pkg: next.pkg, report: next.report, stored: 'saved' },
      audit: {
        actor: 'worker',
        // Waiting stays `processing`: no event until the request ends.
        action: next.status === 'processing' ? 'privacy_request.awaiting_tasks' : `privacy_request.${next.status}`,
        // Without tasks the entry is the one a request without data systems always had.
        details:
          next.tasks === 0
            ? { attempt: request.attempts, ...(next.status === 'action_required' ? { reason: next.status_reason } : {}) }
            : { attempt: request.attempts, tasks: next.tasks, ...(next.status_reason ? { reason: next.status_reason } : {}) },
      },
    });
  }

  /**
   * Records a failed attempt in `unit`: `queued` again after the backoff ({@link retryDelayMs}),
   * or, when `final`, `failed` with its audit entry and event (the data tasks of a type that
   * erases, which exist from its committed erasure step, are closed). Nothing is written when the
   * lease is no longer this worker's.
   *
   * @param failure.reason - the stored `status_reason` (no personal data: an error class name).
   * @param failure.final - true when the attempts are used up (`WORKER_MAX_ATTEMPTS`).
   * @param failure.now - when the attempt failed; the retry is due `retryDelayMs(attempts)` ms later.
   */
  async function recordFailure(
    unit: UnitOfWork,
    request: PrivacyRequestRow,
    failure: { reason: string; final: boolean; now: Date },
  ): Promise<void> {
    const { reason, final, now } = failure;
    const at = toTimestamp(now);
    const retryAt = toTimestamp(new Date(now.getTime() + retryDelayMs(request.attempts)));
    try {
      await commitTransition(unit, request, {
        at,
        leaseOwner: owner,
        change: final
          ? { status: 'failed', status_reason: reason }
          : { status: 'queued', status_reason: reason, next_attempt_at: retryAt },
        ...(final && traitsOf(request.request_type).erases ? { closeTasksBy: 'worker' } : {}),
        ...(final
          ? { audit: { actor: 'worker', action: 'privacy_request.failed', details: { attempts: request.attempts, reason } } }
          : {}),
      });
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
    }
  }

  /**
   * The first step of an erasure (worker/erasure-step): its report is stored in the unit that
   * committed its effects, and the lease extended by `leaseMs`, while this worker holds it.
   * @throws LeaseLost when it does not.
   */
  async function storeErasureReport(
    unit: UnitOfWork,
    request: PrivacyRequestRow,
    report: string | null,
    leaseMs: number,
    found?: boolean,
  ) {
    const until = toTimestamp(new Date(clock().getTime() + leaseMs));
    // Whether the erasure found the identity is kept with its report: a resumed attempt reads it back.
    const subjectFound = found === undefined ? undefined : found ? 1 : 0;
    if (!(await extendLease(unit.tx, request.id, owner, until, subjectFound))) throw new LeaseLost();
    await saveResultJson(unit.tx, request.id, { pkg: null, report }, toTimestamp(clock()));
  }

  return {
    record,
    recordFailure,
    storeErasureReport,
    fanOutTasks: fanOut,
  };
}

/** A worker's outcome recorder ({@link createOwnStepRecorder}). */
export type OwnStepRecorder = ReturnType<typeof createOwnStepRecorder>;
