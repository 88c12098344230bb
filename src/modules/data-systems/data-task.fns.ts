import { toTimestamp } from '../../lib/clock.js';
import { coversKey, SCOPE_KEYS } from '../data-categories/data-categories.fns.js';
import type { DataTaskRow } from './data-task.repository.js';

/** `key` of a data system (PRODUCT §2.9). */
export const SYSTEM_KEY_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';

/**
 * What a webhook or manual system may also name in `request_types` to be told of opt-outs
 * (PRODUCT §2.18): one per opt-out kind (`sale_sharing`, `sensitive_use`, `direct_marketing`).
 */
export const OPT_OUT_REQUEST_TYPES = ['opt_out_sale_sharing', 'limit_sensitive_use', 'object_direct_marketing'] as const;
export type OptOutRequestType = (typeof OPT_OUT_REQUEST_TYPES)[number];

/** Outcomes a task result may report through the API (`POST …/result`); each is final. */
export const TASK_OUTCOMES = ['completed', 'failed', 'not_applicable'] as const;
export type TaskOutcome = (typeof TASK_OUTCOMES)[number];

/**
 * The outcome of a database system none of whose identity fields any of the request's
 * identities names (PRODUCT §2.17): final, it counts as answered, and it never says "holds no
 * data". Only the service's own connector reports it.
 */
export const NOT_SEARCHABLE = 'not_searchable';

/** Every final outcome a task can have: the API's, and {@link NOT_SEARCHABLE}. */
export type TaskFinalStatus = TaskOutcome | typeof NOT_SEARCHABLE;

/**
 * The final status of an opt-out's open task once a later opt-out or opt-in of the same kind for
 * the same subject replaced its choice (PRODUCT §2.18): set by the service only, it counts as done.
 */
export const SUPERSEDED = 'superseded';

/** Every task status (PRODUCT §2.9, §2.17, §2.18). */
export const TASK_STATUSES = ['pending', ...TASK_OUTCOMES, NOT_SEARCHABLE, SUPERSEDED] as const;

/**
 * The categories a system's task covers: for every pair of a system category and a request
 * scope key where one covers the other (both ways: `user` overlaps `user.contact.email` and vice
 * versa), the narrower key; each once, in the order of the scope keys of PRODUCT §1. Empty: no
 * overlap, no task.
 */
export function overlapCategories(systemCategories: readonly string[], scope: readonly string[]): string[] {
  const found = new Set<string>();
  for (const a of systemCategories)
    for (const b of scope) {
      if (coversKey(a, b)) found.add(b);
      else if (coversKey(b, a)) found.add(a);
    }
  const keys = SCOPE_KEYS as readonly string[];
  return [...found].sort((x, y) => keys.indexOf(x) - keys.indexOf(y));
}

/** True when some category of the task covers `category` (a result may name a task category or a narrower one). */
export function withinTask(taskCategories: readonly string[], category: string): boolean {
  return taskCategories.some((key) => coversKey(key, category));
}

/**
 * A task's due date: the request's binding due date (`extended_due_at` when extended, else
 * `due_at`), or `createdAt` + `dueDays` days when the system sets one and it is earlier.
 * All RFC 3339 UTC.
 */
export function taskDueAt(requestDue: string, createdAt: Date, dueDays: number | null): string {
  if (dueDays === null) return requestDue;
  const own = new Date(createdAt.getTime() + dueDays * 86_400_000).toISOString();
  return own < requestDue ? own : requestDue;
}

/** What a new task takes from its owner, a privacy request or an opt-out (PRODUCT §2.9, §2.18). */
export interface NewTask {
  readonly id: string;
  /** The owner's id (a request's, or an opt-out's: `(request_id, system_key)` is unique per owner). */
  readonly ownerId: string;
  /** Set for an opt-out's task. */
  readonly optOutId: string | null;
  readonly workspaceId: string;
  readonly system: { readonly key: string; readonly due_days: number | null };
  /** How the task is carried out (`kindOf(system)`). */
  readonly executor: string;
  readonly requestType: string;
  readonly categories: readonly string[];
  /** The owner's binding due date (RFC 3339 UTC): the task is due by it or by the system's `due_days`, the earlier. */
  readonly ownerDue: string;
  readonly now: Date;
}

/**
 * The row of a new pending task: the one place a task row is made, so a request's and an
 * opt-out's tasks get every column alike.
 */
export function pendingTaskRow(task: NewTask): DataTaskRow {
  const at = toTimestamp(task.now);
  return {
    id: task.id,
    request_id: task.ownerId,
    opt_out_id: task.optOutId,
    workspace_id: task.workspaceId,
    system_key: task.system.key,
    request_type: task.requestType,
    categories: JSON.stringify(task.categories),
    status: 'pending',
    due_at: taskDueAt(task.ownerDue, task.now, task.system.due_days),
    created_at: at,
    updated_at: at,
    completed_at: null,
    result: null,
    result_bytes: null,
    overdue_notified_at: null,
    executor: task.executor,
    attempts: 0,
    lease_owner: null,
    lease_expires_at: null,
    next_attempt_at: null,
    identities_ciphertext: null,
    run_progress: null,
  };
}

/** True when the task is not final and its due date is before `now` (RFC 3339 UTC). */
export function isTaskOverdue(task: { status: string; due_at: string }, now: string): boolean {
  return task.status === 'pending' && task.due_at < now;
}
