import { type Kysely, type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { withReadSnapshot } from '../../db/read-snapshot.js';
import type { DB } from '../../db/schema.js';
import { type ChainProblem, createChainVerifier } from './audit-chain.fns.js';
import type { AuditEventTable } from '../../db/tables/audit.table.js';

/** The columns the audit trail API shows, and the chain verification reads. */
const LISTED_COLUMNS = [
  'seq',
  'occurred_at',
  'actor',
  'actor_name',
  'action',
  'target_type',
  'target_id',
  'workspace_id',
  'request_id',
  'details',
  'prev_hash',
  'hash',
] as const;

export type AuditEventRow = Pick<Selectable<AuditEventTable>, (typeof LISTED_COLUMNS)[number]>;

/**
 * Filters of the audit trail list. Every field narrows; none given lists the whole chain.
 * `workspaceIn`/`targetTypeIn` are what the caller may see (null: no limit from that side).
 */
export interface AuditListFilter {
  /** Only entries of these workspaces (entries without a workspace are excluded), or null for any. */
  workspaceIn: readonly string[] | null;
  /** Only entries about these target types, or null for any. */
  targetTypeIn: readonly string[] | null;
  workspaceId?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  /** A request's timeline: its own entries and its data tasks' (`request_id`). */
  requestId?: string | undefined;
  action?: string | undefined;
  /** Entries after this seq (the cursor's position). */
  afterSeq?: number | undefined;
  limit: number;
}

/** Entries about privacy requests are indexed by `request_id`, not in `audit_events_target_idx`. */
const REQUEST_TARGET = 'privacy_request';

/**
 * The predicate of the partial index `audit_events_target_idx` (migration 2026-11-24T0401),
 * as a literal: a planner uses a partial index only when the query states its predicate, and
 * a bound parameter would not prove it (PostgreSQL's generic plans, SQLite's planner). True for
 * every entry of a target type other than `privacy_request`, so it narrows nothing.
 */
const outsideRequestTargets = sql<boolean>`target_type <> ${sql.lit(REQUEST_TARGET)}`;

/**
 * A page of audit entries, oldest first (by seq). The timeline (`requestId`) is one range of
 * `audit_events_request_idx`, a workspace's entries one of `audit_events_workspace_idx`, the
 * entries of a target other than a privacy request one of `audit_events_target_idx` (a
 * request's own are its timeline); with none of them the walk is by seq.
 */
export async function listAuditEvents(db: Executor, f: AuditListFilter): Promise<AuditEventRow[]> {
  if (f.workspaceIn?.length === 0) return [];
  let query = db.selectFrom('audit_events').select(LISTED_COLUMNS);
  if (f.workspaceIn !== null) query = query.where('workspace_id', 'in', [...f.workspaceIn]);
  if (f.targetTypeIn !== null) query = query.where('target_type', 'in', [...f.targetTypeIn]);
  if (f.workspaceId !== undefined) query = query.where('workspace_id', '=', f.workspaceId);
  if (f.requestId !== undefined) query = query.where('request_id', '=', f.requestId);
  if (f.targetType !== undefined) query = query.where('target_type', '=', f.targetType);
  if (f.targetType !== undefined && f.targetType !== REQUEST_TARGET) query = query.where(outsideRequestTargets);
  if (f.targetId !== undefined) query = query.where('target_id', '=', f.targetId);
  if (f.action !== undefined) query = query.where('action', '=', f.action);
  if (f.afterSeq !== undefined) query = query.where('seq', '>', f.afterSeq);
  return query.orderBy('seq').limit(f.limit).execute();
}

/** Entries read per statement while verifying: memory stays one page whatever the chain's length. */
export const VERIFY_PAGE_SIZE = 1000;

/** The outcome of {@link verifyAuditChain}. */
export interface ChainVerification {
  /** Entries in the chain when it was read. */
  entries: number;
  /** The first broken entry, or null when the chain is intact. */
  problem: ChainProblem | null;
}

/**
 * Recomputes the whole audit hash chain (seqs without gaps, each `prev_hash` links, each `hash`
 * recomputes, the head names the last entry), reading it in pages of `pageSize` entries by seq
 * inside ONE read snapshot ({@link withReadSnapshot}): memory is one page, and a chain growing
 * meanwhile is seen as it was at one moment. What `privacyctl audit verify` and
 * `GET /api/v1/audit-events/verify` report.
 */
export async function verifyAuditChain(db: Kysely<DB>, pageSize = VERIFY_PAGE_SIZE): Promise<ChainVerification> {
  return withReadSnapshot(db, async (snapshot) => {
    const head = await snapshot.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow();
    const verifier = createChainVerifier();
    let after = 0;
    for (;;) {
      const page = await snapshot
        .selectFrom('audit_events')
        .select(LISTED_COLUMNS)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(pageSize)
        .execute();
      for (const entry of page) verifier.add(entry);
      const last = page.at(-1);
      if (!last || page.length < pageSize) break;
      after = last.seq;
    }
    return { entries: verifier.count, problem: verifier.finish(head) };
  });
}
