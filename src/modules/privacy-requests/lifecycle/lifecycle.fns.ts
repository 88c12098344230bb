import { heldCategories } from '../../data-systems/data-task-result.fns.js';
import { toTimestamp } from '../../../lib/clock.js';
import { isFinal } from '../../request-model/request-model.js';

/** What an operator can do to a request (PRODUCT.md §2.3). */
export type OperatorAction = 'approve' | 'reject' | 'cancel' | 'extend' | 'corrections';

/** A day in ms (the repeat window counts whole 24-hour days). */
const DAY_MS = 86_400_000;

/** The `status_reason` of a request filed while another of its kind was open or recently completed (PRODUCT §2.20). */
export const REPEAT_REQUEST = 'repeat_request';

/**
 * The status after an operator action, or null when the action is not allowed in `status`
 * (a 409): approve only `pending_approval` → `queued`; reject and cancel any non-final state;
 * extend any non-final state, once; corrections only a request whose type takes them
 * (`takesCorrections`: correction, GDPR Art. 16) in `action_required` (→ `completed`), and not
 * while it waits as a repeat (`repeat_request`: it has not run yet; proceed first).
 */
export function statusAfter(
  action: OperatorAction,
  request: { status: string; extended_due_at: string | null; status_reason?: string | null },
  traits: { takesCorrections: boolean },
): string | null {
  const { status } = request;
  switch (action) {
    case 'approve':
      return status === 'pending_approval' ? 'queued' : null;
    case 'reject':
      return isFinal(status) ? null : 'rejected';
    case 'cancel':
      return isFinal(status) ? null : 'canceled';
    case 'extend':
      return isFinal(status) || request.extended_due_at !== null ? null : status;
    case 'corrections':
      return traits.takesCorrections && status === 'action_required' && request.status_reason !== REPEAT_REQUEST
        ? 'completed'
        : null;
  }
}

/** How a filed request starts (PRODUCT §2.3, §2.20): its status, why, and the request it repeats. */
export interface FiledState {
  status: 'pending_approval' | 'queued' | 'action_required';
  status_reason: string | null;
  related_request_id: string | null;
}

/**
 * The state a request is filed in: `action_required` with `status_reason: "repeat_request"` and
 * the repeated request's id when `repeatOf` names one (PRODUCT §2.20), else `pending_approval`
 * when the workspace policy requires approval, else `queued` (§2.3).
 */
export function stateAtFiling(requireApproval: boolean, repeatOf: string | null): FiledState {
  if (repeatOf !== null) return { status: 'action_required', status_reason: REPEAT_REQUEST, related_request_id: repeatOf };
  return { status: firstStatus(requireApproval), status_reason: null, related_request_id: null };
}

/** Where a request that may run starts: `pending_approval` under `require_approval`, else `queued`. */
function firstStatus(requireApproval: boolean): 'pending_approval' | 'queued' {
  return requireApproval ? 'pending_approval' : 'queued';
}

/**
 * Where a request waiting as a repeat goes when an operator proceeds (PRODUCT §2.20): where
 * filing would have sent it, `pending_approval` when the workspace policy requires approval (the
 * four eyes still apply), else `queued`; null (a 409) when it does not wait as a repeat.
 */
export function statusAfterProceeding(
  request: { status: string; status_reason: string | null },
  requireApproval: boolean,
): 'pending_approval' | 'queued' | null {
  if (request.status !== 'action_required' || request.status_reason !== REPEAT_REQUEST) return null;
  return firstStatus(requireApproval);
}

/**
 * The earliest `completed_at` a completed request may have to count as recent for a new one
 * filed at `now` (PRODUCT §2.20): `days` × 24 hours before it, RFC 3339 UTC (docs/decisions.md:
 * counted from `completed_at`, to the millisecond).
 */
export function repeatWindowStart(now: Date, days: number): string {
  return toTimestamp(new Date(now.getTime() - days * DAY_MS));
}

/**
 * Whether a status change is announced (`privacy_request.status_changed`, PRODUCT §2.8): every
 * change but none at all (an extension) and the worker's own retry (`processing` → `queued`;
 * its claims, `queued` → `processing`, are not transitions of the lifecycle either).
 */
export function isAnnounced(from: string, to: string): boolean {
  return from !== to && !(from === 'processing' && to === 'queued');
}

/**
 * Whether an extension comes too late (PRODUCT §2.13): the binding due date (`due_at`; an
 * extended request cannot be extended again anyway) has passed at `now`. GDPR Art. 12(3) lets the
 * controller extend only by telling the person within the first month; CCPA §7021(b) within the
 * first 45 days. Times are RFC 3339 UTC strings; the due instant itself is still in time.
 */
export function extensionTooLate(request: { due_at: string; extended_due_at: string | null }, now: Date): boolean {
  return new Date(request.extended_due_at ?? request.due_at).getTime() < now.getTime();
}

/**
 * The `status_reason` of an access or export request whose package waits for an operator's
 * review before release (PRODUCT §2.20).
 */
export const AWAITING_REVIEW = 'awaiting_review';

/**
 * Whether a request that has its answer waits for a review before the person gets it (PRODUCT
 * §2.20): its result is a package (access, export) and the policy's `review_packages` is on.
 */
export function awaitsReviewAtEnd(result: 'package' | 'report', reviewPackages: boolean): boolean {
  return result === 'package' && reviewPackages;
}

/** Whether a request waits for the review of its package (`action_required`, `awaiting_review`). */
export function isAwaitingReview(request: { status: string; status_reason: string | null }): boolean {
  return request.status === 'action_required' && request.status_reason === AWAITING_REVIEW;
}

/** The `status_reason` of a request for an identity nothing matched (PRODUCT §2.13). */
export const IDENTITY_UNMATCHED = 'identity_unmatched';

/** The parts of a stored task result that say whether its system found the subject. */
interface FoundParts {
  data?: Record<string, unknown>;
  data_categories?: string[];
  data_by?: 'collection';
  records?: Record<string, number>;
  erased?: Record<string, number>;
  kept?: unknown[];
  delivered_separately?: boolean;
  collections?: Record<string, Record<string, number>>;
}

const nonZero = (counts?: Record<string, number>) => Object.values(counts ?? {}).some((n) => n > 0);

/**
 * Whether a data task's stored result (JSON text) says its system holds something of the
 * subject (PRODUCT §2.13, §2.17): `data` holding something (an empty list or object, or only
 * nulls, is nothing), a non-zero `records` or `erased` count, a `kept` record, an answer sent
 * separately; for a database system (`data_by: "collection"`) a row found, masked, deleted or
 * updated in some collection. A `not_applicable`, `not_searchable` or failed task, all-zero
 * counts, or a database system that found 0 rows, found nothing.
 */
export function taskFoundSomething(task: { status: string; result: string | null }): boolean {
  if (task.status !== 'completed' || task.result === null) return false;
  const result = JSON.parse(task.result) as FoundParts;
  const byCollection = result.data_by === 'collection';
  const rows = Object.values(result.collections ?? {}).some(nonZero);
  const data = !byCollection && (heldCategories(result.data ?? {}).length > 0 || (result.data_categories ?? []).length > 0);
  return (
    data ||
    rows ||
    nonZero(result.records) ||
    nonZero(result.erased) ||
    (result.kept ?? []).length > 0 ||
    result.delivered_separately === true
  );
}

/**
 * Whether a request that would complete waits instead as `identity_unmatched` (PRODUCT §2.13):
 * its own step found nothing (`subjectFound` 0), no data task found anything, and the workspace
 * policy's `confirm_no_data` asks for a review.
 */
export function awaitsIdentityReview(
  subjectFound: number | null,
  tasks: readonly { status: string; result: string | null }[],
  confirmNoData: boolean,
): boolean {
  return subjectFound === 0 && confirmNoData && !tasks.some(taskFoundSomething);
}

/** Retry delay after failed attempt `attempt` (1-based): 2^attempt seconds, at most 5 minutes, in ms. */
export function retryDelayMs(attempt: number): number {
  return Math.min(2 ** attempt, 300) * 1000;
}

/** How many systems a `status_reason` names before it says how many more there are. */
export const NAMED_SYSTEMS = 5;

/**
 * Systems named in a `status_reason`: each key once, sorted, at most {@link NAMED_SYSTEMS},
 * then "and N more" (a request fanned out to 1 000 systems keeps a short reason).
 */
export function namedSystems(keys: readonly string[]): string {
  const unique = [...new Set(keys)].sort();
  const shown = unique.slice(0, NAMED_SYSTEMS).join(', ');
  return unique.length > NAMED_SYSTEMS ? `${shown} and ${unique.length - NAMED_SYSTEMS} more` : shown;
}

/** What a request whose own step is done becomes, from its tasks' statuses (PRODUCT §2.9). */
export type TasksDecision =
  { status: 'pending'; reason: string } | { status: 'completed' } | { status: 'failed'; reason: string };

/**
 * How a request ends once its own step is done, from its tasks' statuses alone (never their
 * results): `pending` while any task is pending (the reason names the pending systems); else
 * `failed` naming the systems whose task failed; else `completed` (every task completed or not
 * applicable, or there is none).
 */
export function decideFromTasks(tasks: readonly { system_key: string; status: string }[]): TasksDecision {
  const pending = tasks.filter((t) => t.status === 'pending').map((t) => t.system_key);
  if (pending.length > 0) return { status: 'pending', reason: `waiting for data tasks: ${namedSystems(pending)}` };
  const failed = tasks.filter((t) => t.status === 'failed').map((t) => t.system_key);
  if (failed.length > 0) return { status: 'failed', reason: `data task failed in: ${namedSystems(failed)}` };
  return { status: 'completed' };
}
