import type { Executor } from '../../db/executor.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { decodeBoundCursor, encodeBoundCursor } from '../../lib/cursor.js';
import { toResource } from './privacy-request.fns.js';
import { listRequests, type RequestSort } from './privacy-request-list.repository.js';
import * as repo from './privacy-request.repository.js';
import type { PrivacyRequestResource } from './privacy-request.types.js';
import { OPEN_STATUSES } from '../request-model/request-model.js';
import { type QueueCounts, queueCounts } from './queue-stats.repository.js';

/** The queue's "due within N days" window (PRODUCT §2.16). */
export const DUE_SOON_DAYS = 7;

/**
 * Filters for {@link PrivacyRequestService.list} (the queue, PRODUCT.md §2.3). `workspace_ids`
 * null: every workspace. `cursor` comes from a previous page of the same query.
 */
export interface ListRequestsInput {
  workspace_ids: readonly string[] | null;
  /** Statuses, `open` standing for every non-final one (PRODUCT §2.16); absent or empty: every status. */
  status?: readonly string[] | undefined;
  /** `me` (the caller, by `me`), `none` (unassigned), or an operator's name. */
  assignee?: string | undefined;
  /** The caller's name as the audit trail shows it, for `assignee=me`. */
  me?: string | undefined;
  request_type?: string | undefined;
  overdue?: boolean | undefined;
  subject_id?: string | undefined;
  subject_provider?: string | undefined;
  /** RFC 3339 (any offset): the binding due date falls before it. */
  due_before?: string | undefined;
  /** Not overdue, binding due date within this many days from now, both ends included (PRODUCT §2.21). */
  due_within_days?: number | undefined;
  sort?: RequestSort | undefined;
  /** Requests filed by this DRP agent (its `agent-id`, PRODUCT §2.19). */
  agent_id?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** `due_within_days` as the list filters by it: [now, now + days] in RFC 3339 UTC; undefined for none. */
function dueWindow(now: Date, days: number | undefined): { from: string; to: string } | undefined {
  if (days === undefined) return undefined;
  return { from: toTimestamp(now), to: toTimestamp(new Date(now.getTime() + days * 86_400_000)) };
}

/**
 * The statuses a `status` filter names, `open` standing for every non-final one (PRODUCT §2.16):
 * sorted and each once (so the cursor binds the same set however it was written); undefined
 * for none.
 */
export function expandStatuses(status: readonly string[] | undefined): string[] | undefined {
  if (status === undefined || status.length === 0) return undefined;
  const all = status.flatMap((s) => (s === 'open' ? [...OPEN_STATUSES] : [s]));
  return [...new Set(all)].sort();
}

/** `assignee=me|none|<name>` as the list filters it: a name, null (nobody), or undefined (no filter). */
export function resolveAssignee(assignee: string | undefined, me: string | undefined): string | null | undefined {
  if (assignee === undefined) return undefined;
  if (assignee === 'none') return null;
  if (assignee === 'me') return me ?? '';
  return assignee;
}

const isIdPosition = (p: readonly unknown[]): p is [string] => p.length === 1 && isRequestId(p[0]);
const isDuePosition = (p: readonly unknown[]): p is [string, string] =>
  p.length === 2 && typeof p[0] === 'string' && p[0].length <= 40 && isRequestId(p[1]);
function isRequestId(value: unknown): value is string {
  return typeof value === 'string' && /^pr_[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
}

/**
 * Reads and lists privacy requests (PRODUCT.md §2.3, §2.16): one request, the queue and its
 * counts. Filing is a workflow (src/workflows/filing/file-privacy-request.ts).
 */
export function createPrivacyRequestService(deps: { db: Executor; clock: Clock }) {
  const { db, clock } = deps;

  return {
    /**
     * The queue's counts (PRODUCT §2.16) over `workspaceIds` (null: every workspace), exact, as
     * of the service's clock: {@link queueCounts}.
     */
    async stats(workspaceIds: readonly string[] | null): Promise<QueueCounts> {
      const now = clock();
      const soon = new Date(now.getTime() + DUE_SOON_DAYS * 86_400_000);
      return queueCounts(db, workspaceIds === null ? null : [...new Set(workspaceIds)], toTimestamp(now), toTimestamp(soon));
    },

    /** One request, or null. */
    async get(id: string): Promise<PrivacyRequestResource | null> {
      const row = await repo.findRequestById(db, id);
      return row ? toResource(row) : null;
    },

    /**
     * A page of the queue: newest first, or earliest binding due date first (`sort: 'due_at'`).
     * The caller decides which workspaces the principal may read (403 before this).
     * @returns `items` and `next_cursor` (null on the last page), a cursor bound to these filters.
     * @throws InvalidCursorError for a cursor not issued here, or issued for another query.
     */
    async list(input: ListRequestsInput): Promise<{ items: PrivacyRequestResource[]; next_cursor: string | null }> {
      const sort = input.sort ?? 'created_at';
      const dueBefore = input.due_before === undefined ? undefined : toTimestamp(new Date(input.due_before));
      const statuses = expandStatuses(input.status);
      const assignee = resolveAssignee(input.assignee, input.me);
      const filters = {
        w: input.workspace_ids === null ? null : [...new Set(input.workspace_ids)].sort(),
        s: statuses,
        a: assignee,
        t: input.request_type,
        o: input.overdue,
        si: input.subject_id,
        sp: input.subject_provider,
        d: dueBefore,
        dw: input.due_within_days,
        ag: input.agent_id,
        by: sort,
      };
      const now = clock();
      const after =
        input.cursor === undefined
          ? undefined
          : sort === 'due_at'
            ? (([due, id]) => ({ due, id }))(decodeBoundCursor(input.cursor, filters, isDuePosition))
            : { id: decodeBoundCursor(input.cursor, filters, isIdPosition)[0] };
      const rows = await listRequests(db, {
        workspaceIds: filters.w,
        statuses,
        assignee,
        requestType: input.request_type,
        overdue: input.overdue,
        subjectId: input.subject_id,
        subjectProvider: input.subject_provider,
        dueBefore,
        dueWithin: dueWindow(now, input.due_within_days),
        agentId: input.agent_id,
        now: toTimestamp(now),
        sort,
        after,
        limit: input.limit + 1,
      });
      const items = rows.slice(0, input.limit);
      const last = items.at(-1);
      const position = last && (sort === 'due_at' ? [last.extended_due_at ?? last.due_at, last.id] : [last.id]);
      return {
        items: items.map(toResource),
        next_cursor: rows.length > input.limit && position ? encodeBoundCursor(position, filters) : null,
      };
    },
  };
}

export type PrivacyRequestService = ReturnType<typeof createPrivacyRequestService>;
