import type { UnitOfWork } from '../../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../../lib/clock.js';
import { stringifyYielding } from '../../../lib/yielding.js';
import { recordAudit } from '../../audit/audit.repository.js';
import { lockRequest } from '../privacy-request.repository.js';
import { type PrivacyRequestRow } from '../../request-model/request-model.js';
import { requestStatusChanged } from './request-events.js';
import { retryDelayMs } from './lifecycle.fns.js';
import { saveResultJson } from '../result.repository.js';
import { fanOutTasks } from './task-fanout.js';
import { afterOwnStep } from './request-end.js';
import { closeTasksOfEndedRequest } from './task-closing.js';
import type { HandlerOutcome } from '../handlers/handler.types.js';
import { finishAttempt } from './request-queue.repository.js';
import { LeaseLost } from '../../../jobs/attempt-errors.js';

/** An outcome's package and report as JSON text (`null` when absent), as `request_results` stores them. */
export interface SerializedResult {
  pkg: string | null;
  report: string | null;
}

/**
 * The outcome's package and report as JSON text, serialized in slices ({@link stringifyYielding})
 * with `pause` between them; both null unless `completed`.
 * @throws whatever `pause` throws (WorkerStopping when the worker stops).
 */
export async function serializeOutcome(outcome: HandlerOutcome, pause: () => Promise<void>): Promise<SerializedResult> {
  if (outcome.status !== 'completed') return { pkg: null, report: null };
  const json = async (value: unknown) => (value === undefined ? null : ((await stringifyYielding(value, pause)) ?? null));
  return { pkg: await json(outcome.package), report: await json(outcome.report) };
}

/**
 * How a worker records the end of an attempt on the request row (status, result, audit entry,
 * outbound event), each in the caller's unit of work and only while `owner` holds the lease.
 *
 * @param deps.clock - the time of each record (`updated_at`, `completed_at`, audit `occurred_at`).
 * @param deps.owner - the worker's lease owner (`host:pid:random`).
 * @param deps.publicBaseUrl - the base of the links in `data_task.created` events.
 */
export function createOutcomeRecorder(deps: { clock: Clock; owner: string; publicBaseUrl: string }) {
  const { clock, owner, publicBaseUrl } = deps;

  /**
   * Records the outcome (status, result, audit) in `unit`, only while this worker holds the lease.
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
   * @throws LeaseLost when the request is no longer `processing` under this worker's lease.
   */
  async function recordWithTasks(unit: UnitOfWork, request: PrivacyRequestRow, result: SerializedResult): Promise<void> {
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

  /**
   * Records a failed attempt in `unit`: `queued` again after the backoff ({@link retryDelayMs}),
   * or, when `final`, `failed` with its audit entry and event (a deletion's data tasks, which
   * exist from its committed erasure step, are closed). Nothing is written when the lease is no
   * longer this worker's.
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
  }

  return { record, recordFailure };
}

/** A worker's outcome recorder ({@link createOutcomeRecorder}). */
export type OutcomeRecorder = ReturnType<typeof createOutcomeRecorder>;
