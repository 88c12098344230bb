import type { UnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import type { HandlerOutcome } from '../request-types/handler.types.js';
import { LeaseLost } from '../../modules/privacy-requests/privacy-request.errors.js';
import { lockRequest } from '../../modules/privacy-requests/privacy-request.repository.js';
import { afterOwnStep, reviewsPackage } from '../requests/request-end.js';
import { fanOutTasks } from '../tasks/task-fanout.js';
import { commitTransition } from '../../modules/privacy-requests/lifecycle/transition.js';

/**
 * What the worker's records need (PRODUCT §2.3, §2.9): each is written in the caller's unit of work
 * and only while `owner` holds the lease, through the lifecycle's one writer (`commitTransition`).
 */
export interface OwnStepDeps {
  /** The time of each record (`updated_at`, `completed_at`, audit `occurred_at`). */
  readonly clock: Clock;
  /** The worker's lease owner (`host:pid:random`). */
  readonly owner: string;
  /** The base of the links in `data_task.created` events. */
  readonly publicBaseUrl: string;
  /** Seals what an executor keeps for its run (the secret box); without it nothing is kept. */
  readonly seal?: ((plaintext: string) => string) | undefined;
}

/** An outcome's package and report as JSON text (`null` when absent), as `request_results` stores them. */
export interface SerializedResult {
  pkg: string | null;
  report: string | null;
}

/**
 * Records a completed own step of a request that has data tasks: under the request's row lock
 * (a task result waits for it, and this reads every result committed before), `completed` or
 * `failed` when no task is pending (the systems' part added to the result), else `processing`
 * without a lease, which the claim skips until the last task result ends it (record-task-result.ts).
 * @throws LeaseLost when the request is no longer `processing` under this worker's lease.
 */
async function recordWithTasks(
  deps: OwnStepDeps,
  unit: UnitOfWork,
  request: PrivacyRequestRow,
  result: SerializedResult,
): Promise<void> {
  const { clock, owner } = deps;
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
 * Records the outcome of the request's own step (status, result, audit, events) in `unit`.
 * With `fanOut`, the request's data tasks are created first in the same unit (PRODUCT §2.9);
 * when the request has tasks (`fanOut` found systems, or `withTasks`), a completed own step
 * ends the request only once no task is pending ({@link recordWithTasks}); so does a package that
 * waits for a review (PRODUCT §2.20), decided there too.
 * @throws LeaseLost when the lease is no longer this worker's (the unit then rolls back).
 */
export async function recordOwnStep(
  deps: OwnStepDeps,
  unit: UnitOfWork,
  request: PrivacyRequestRow,
  outcome: HandlerOutcome,
  result: SerializedResult,
  tasks: { fanOut: boolean; withTasks?: boolean } = { fanOut: true },
): Promise<void> {
  const { clock, owner, publicBaseUrl, seal } = deps;
  // A request that waits before any work (no controller named) sends nothing to its systems yet.
  const waitsFirst = outcome.status === 'action_required' && outcome.beforeWork === true;
  const systems = tasks.fanOut && !waitsFirst ? await fanOutTasks(unit, request, clock(), publicBaseUrl, seal) : 0;
  // Whether the own step found the identity (PRODUCT §2.13): said now, or stored by an earlier step (an erasure's).
  const said = outcome.status === 'completed' ? outcome.found : undefined;
  const subject_found = said === undefined ? request.subject_found : said ? 1 : 0;
  if (
    outcome.status === 'completed' &&
    (systems > 0 || tasks.withTasks || subject_found === 0 || (await reviewsPackage(unit.tx, request)))
  )
    return recordWithTasks(deps, unit, { ...request, subject_found }, result);
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
