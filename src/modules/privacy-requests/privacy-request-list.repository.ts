import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { byDialect } from '../../db/dialect.js';
import type { Executor } from '../../db/executor.js';
import type { DB } from '../../db/schema.js';
import { OPEN_STATUSES } from '../request-model/request-model.js';
import type { PrivacyRequestRow } from '../request-model/request-model.js';
import { EMAIL_PROVIDER, normalizeEmail } from '../request-model/request-model.js';

/** The list's orders: newest first (`created_at`), or earliest binding due date first (`due_at`). */
export type RequestSort = 'created_at' | 'due_at';

/** Where the previous page ended: its last id, with its binding due date for `due_at`. */
export type RequestListPosition = { id: string } | { due: string; id: string };

/** Filters of the list (the queue, PRODUCT.md §2.3). */
export interface RequestListFilter {
  /** The workspaces to list, or null for every workspace. */
  workspaceIds: readonly string[] | null;
  /** Any of these statuses (absent: every status). */
  statuses?: readonly string[] | undefined;
  /** Assigned to this operator (their name), or to nobody (`null`); absent: either. */
  assignee?: string | null | undefined;
  /** Filed by this agent (`privacy_requests.agent_id`: a DRP `agent-id`, or a center agent's pseudonym; PRODUCT §2.19). */
  agentId?: string | undefined;
  requestType?: string | undefined;
  overdue?: boolean | undefined;
  /**
   * Exact subject id; with or without `subjectProvider`. With `subjectProvider: "email"` the
   * address is matched trimmed and without regard to case (PRODUCT §2.13, §2.21).
   */
  subjectId?: string | undefined;
  subjectProvider?: string | undefined;
  /** RFC 3339 UTC: the binding due date (`extended_due_at ?? due_at`) falls before it. */
  dueBefore?: string | undefined;
  /** RFC 3339 UTC: the binding due date falls in [`from`, `to`] (`due_within_days`, PRODUCT §2.21). */
  dueWithin?: { from: string; to: string } | undefined;
  /** RFC 3339 UTC "now", for the overdue filter. */
  now: string;
  sort?: RequestSort | undefined;
  after?: RequestListPosition | undefined;
  limit: number;
}

/** Workspaces listed as one index walk each (UNION ALL); more are listed with one `IN`. */
export const UNION_MAX_WORKSPACES = 50;

type Query = SelectQueryBuilder<DB, 'privacy_requests', PrivacyRequestRow>;
type Eb = ExpressionBuilder<DB, 'privacy_requests'>;

/** The binding due date, exactly as `privacy_requests_*due*_idx` index it. */
const bindingDue = (eb: Eb) => eb.fn.coalesce('extended_due_at', 'due_at');

/** The ids of requests matching `where`, as a subquery: SQLite then searches its index instead of walking by id. */
function idsWhere(
  eb: Eb,
  workspaceId: string | null,
  where: (
    q: SelectQueryBuilder<DB, 'privacy_requests', { id: string }>,
  ) => SelectQueryBuilder<DB, 'privacy_requests', { id: string }>,
) {
  let ids = eb.selectFrom('privacy_requests').select('id');
  if (workspaceId !== null) ids = ids.where('workspace_id', '=', workspaceId);
  return where(ids);
}

/**
 * Requests by e-mail address (PRODUCT §2.13, §2.21): `subject_provider = 'email'` as a literal and
 * `lower(trim(subject_id))` equal to the address trimmed and lower-cased, which is what the
 * partial index `privacy_requests_email_subject_idx` holds: both planners prove a partial index
 * applies only from a literal predicate (docs/development.md, "Traps we hit").
 */
function byEmail<Q extends SelectQueryBuilder<DB, 'privacy_requests', { id: string }>>(q: Q, address: string): Q {
  return q
    .where('subject_provider', '=', sql.lit(EMAIL_PROVIDER))
    .where((eb) => eb(eb.fn('lower', [eb.fn('trim', ['subject_id'])]), '=', normalizeEmail(address))) as Q;
}

/**
 * Keeps the requests past their binding due date and still open (`overdue=true`), stated per
 * dialect for the planner:
 *
 * - SQLite: the ids in a subquery, which it searches through
 *   `privacy_requests_workspace_status_due_idx`; as a plain filter on the newest-first walk it
 *   read every request newer than the first match.
 * - PostgreSQL: a plain filter. With statistics it picks the due-date index itself; without them
 *   (a table filled faster than autovacuum analyzes it, e.g. a backlog imported into a fresh
 *   database) it took the subquery for a one-row semi-join and scanned the workspace once per
 *   request: 1.5 s at 3,000 requests, pooled connections held past the API's answer (growth
 *   bench, empty leg). A filter is at worst one walk of the workspace.
 */
const onlyOverdue = byDialect<[query: Query, now: string, workspaceId: string | null], Query>({
  sqlite: (_db, query, now, workspaceId) =>
    query.where('id', 'in', (eb) =>
      idsWhere(eb, workspaceId, (q) => q.where('status', 'in', [...OPEN_STATUSES]).where(bindingDue(eb), '<', now)),
    ),
  postgres: (_db, query, now) => query.where('status', 'in', [...OPEN_STATUSES]).where((eb) => eb(bindingDue(eb), '<', now)),
});

/** The filters, for one workspace (or null: all of them, or the `IN` list). */
function filtered(db: Executor, query: Query, f: RequestListFilter, workspaceId: string | null): Query {
  if (f.statuses !== undefined) {
    const [only, ...more] = f.statuses;
    query =
      more.length === 0 && only !== undefined ? query.where('status', '=', only) : query.where('status', 'in', [...f.statuses]);
  }
  if (f.assignee === null) query = query.where('assignee', 'is', null);
  else if (f.assignee !== undefined) query = query.where('assignee', '=', f.assignee);
  if (f.requestType !== undefined) query = query.where('request_type', '=', f.requestType);
  if (f.agentId !== undefined) query = query.where('agent_id', '=', f.agentId);
  if (f.subjectId !== undefined) {
    const { subjectId, subjectProvider } = f;
    query = query.where('id', 'in', (eb) =>
      idsWhere(eb, workspaceId, (q) => {
        if (subjectProvider === EMAIL_PROVIDER) return byEmail(q, subjectId);
        const bySubject = q.where('subject_id', '=', subjectId);
        return subjectProvider === undefined ? bySubject : bySubject.where('subject_provider', '=', subjectProvider);
      }),
    );
  } else if (f.subjectProvider !== undefined) query = query.where('subject_provider', '=', f.subjectProvider);
  if (f.overdue === true) {
    query = onlyOverdue(db, query, f.now, workspaceId);
  } else if (f.overdue === false) {
    query = query.where((eb) => eb.not(eb.and([eb('status', 'in', [...OPEN_STATUSES]), eb(bindingDue(eb), '<', f.now)])));
  }
  if (f.dueBefore !== undefined) {
    const dueBefore = f.dueBefore;
    query = query.where((eb) => eb(bindingDue(eb), '<', dueBefore));
  }
  if (f.dueWithin !== undefined) {
    const { from, to } = f.dueWithin;
    query = query.where((eb) => eb.and([eb(bindingDue(eb), '>=', from), eb(bindingDue(eb), '<=', to)]));
  }
  return query;
}

/** The page's order and where it continues from, then the limit. */
function ordered(query: Query, f: RequestListFilter): Query {
  const after = f.after;
  if (f.sort === 'due_at') {
    if (after && 'due' in after)
      query = query.where(sql<boolean>`(coalesce(extended_due_at, due_at), id) > (${after.due}, ${after.id})`);
    return query
      .orderBy((eb) => bindingDue(eb))
      .orderBy('id')
      .limit(f.limit);
  }
  if (after) query = query.where('id', '<', after.id);
  return query.orderBy('id', 'desc').limit(f.limit);
}

/**
 * A page of requests (PRODUCT.md §2.3): newest first (ids are time-sortable), or earliest
 * binding due date first (`sort: 'due_at'`, ties by id), across one, several or every workspace.
 *
 * Every shape is an index range, so a page costs the same at 1 k and 1 M requests
 * (test/integration/audit/audit-queue-indexes.test.ts checks the plans, `npm run bench:growth` the times):
 *
 * - several workspaces (up to {@link UNION_MAX_WORKSPACES}): one walk per workspace, each
 *   `limit` long, merged (UNION ALL) and cut to `limit`; every walk is an index range
 *   (`privacy_requests_workspace_due_idx`, the primary key per workspace…). One `IN` over
 *   several workspaces would read them all and sort.
 * - `subjectId` (and, on SQLite, `overdue: true`: {@link onlyOverdue}) name their ids in a
 *   subquery that searches the subject index / `privacy_requests_workspace_status_due_idx`: as
 *   one filter on the newest-first walk, SQLite read every request newer than the first match.
 * - `dueBefore` is a range of the due-date indexes with `sort: 'due_at'` (the queue's form).
 *   Newest first it is a filter on the walk by id, which passes the requests filed since about
 *   a month before it (their due dates fall after it): docs/decisions.md, "The queue".
 */
export async function listRequests(db: Executor, f: RequestListFilter): Promise<PrivacyRequestRow[]> {
  const one = (workspaceId: string | null) => {
    let query = db.selectFrom('privacy_requests').selectAll() as Query;
    if (workspaceId !== null) query = query.where('workspace_id', '=', workspaceId);
    return ordered(filtered(db, query, f, workspaceId), f);
  };
  const ids = f.workspaceIds;
  if (ids === null) return one(null).execute();
  if (ids.length === 0) return [];
  if (ids.length === 1) return one(ids[0] as string).execute();
  if (ids.length > UNION_MAX_WORKSPACES) {
    const query = db
      .selectFrom('privacy_requests')
      .selectAll()
      .where('workspace_id', 'in', [...ids]) as Query;
    return ordered(filtered(db, query, f, null), f).execute();
  }
  const [first, ...rest] = ids.map((w, i) => db.selectFrom(one(w).as(`w${i}`)).selectAll());
  let union = first as NonNullable<typeof first>;
  for (const branch of rest) union = union.unionAll(branch);
  const merged = db.selectFrom(union.as('merged')).selectAll() as unknown as Query;
  return (f.sort === 'due_at' ? merged.orderBy((eb) => bindingDue(eb)).orderBy('id') : merged.orderBy('id', 'desc'))
    .limit(f.limit)
    .execute();
}
