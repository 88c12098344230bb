import { type Selectable, sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { forUpdate } from '../../db/locking.js';
import { multiRowInsert } from '../../db/multi-row-insert.js';
import type { DrpRequestTable } from '../../db/tables/drp.table.js';

export type DrpRequestRow = Selectable<DrpRequestTable>;

/** Every column of `drp_requests`, named once (the compiler checks the list is whole). */
const DRP_REQUEST_COLUMNS = Object.keys({
  request_id: true,
  workspace_id: true,
  agent_ref: true,
  agent_id: true,
  agent_request_id: true,
  exercise: true,
  regime: true,
  status: true,
  reason: true,
  processing_details: true,
  due_at: true,
  received_at: true,
  privacy_request_id: true,
  opt_out_id: true,
  status_callback: true,
  kept: true,
  revoked: true,
  last_status: true,
} satisfies Record<keyof DrpRequestRow, true>) as (keyof DrpRequestRow)[];

/**
 * Stores new DRP records (PRODUCT §2.19), a write batch's in one statement
 * (db/multi-row-insert.ts: its text built once per row count, not Kysely's node per value and
 * compile on every batch).
 */
export const insertDrpRequests: (db: Executor, rows: readonly DrpRequestRow[]) => Promise<unknown[]> =
  multiRowInsert<DrpRequestRow>('drp_requests', DRP_REQUEST_COLUMNS);

/** The DRP record `requestId`, or undefined. */
export async function findDrpRequest(db: Executor, requestId: string): Promise<DrpRequestRow | undefined> {
  return db.selectFrom('drp_requests').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}

/**
 * Locks the DRP record `requestId` for the transaction (PostgreSQL `FOR UPDATE`; SQLite has one
 * writer). Taken before its wait is touched, the order the filing's commit takes them in
 * (modules/drp/drp-record-filing.ts: the record, then the wait), so the two never deadlock.
 */
export async function lockDrpRequest(db: Executor, requestId: string): Promise<void> {
  await forUpdate(db, db.selectFrom('drp_requests').select('request_id').where('request_id', '=', requestId)).execute();
}

/** What an earlier message left that makes this one a 409 (PRODUCT §2.19, single use). */
export interface EarlierExercise {
  /** `replayed`: the same signed body; `agent_request_id_reused`: the registration's `agent-request-id`. */
  readonly reason: 'replayed' | 'agent_request_id_reused';
  /** The first DRP request (null for a key setup's digest). */
  readonly requestId: string | null;
}

/**
 * The earlier message a new exercise repeats, in one statement (saves a round trip per exercise):
 * its signed body's digest kept (`replayed`, answered first), else the registration's record with
 * the same `agent-request-id`; undefined when neither.
 */
export async function findEarlierExercise(
  db: Executor,
  exercise: { digest: string; agentRef: string; agentRequestId: string | null },
): Promise<EarlierExercise | undefined> {
  const byDigest = db
    .selectFrom('drp_digests')
    .select(['request_id', sql<number>`0`.as('rank')])
    .where('digest', '=', exercise.digest);
  const rows =
    exercise.agentRequestId === null
      ? await byDigest.execute()
      : await byDigest
          .unionAll(
            db
              .selectFrom('drp_requests')
              .select(['request_id', sql<number>`1`.as('rank')])
              .where('agent_ref', '=', exercise.agentRef)
              .where('agent_request_id', '=', exercise.agentRequestId),
          )
          .execute();
  const first = rows.sort((a, b) => Number(a.rank) - Number(b.rank))[0];
  if (first === undefined) return undefined;
  return { reason: Number(first.rank) === 0 ? 'replayed' : 'agent_request_id_reused', requestId: first.request_id };
}

/** Changes a DRP record (what it filed, revoked, the last status object answered). */
export async function updateDrpRequest(db: Executor, requestId: string, changes: Updateable<DrpRequestTable>): Promise<void> {
  await db.updateTable('drp_requests').set(changes).where('request_id', '=', requestId).execute();
}

/** Drops a DRP record and its digest (a filing that failed after the record was stored). */
export async function dropDrpRequest(db: Executor, requestId: string): Promise<void> {
  await db.deleteFrom('drp_digests').where('request_id', '=', requestId).execute();
  await db.deleteFrom('drp_requests').where('request_id', '=', requestId).execute();
}

/** A DRP record with what the status object reads of what it filed (null columns: nothing filed). */
export type DrpRequestListRow = DrpRequestRow & {
  pr_request_type: string | null;
  pr_status: string | null;
  pr_status_reason: string | null;
  pr_due_at: string | null;
  pr_extended_due_at: string | null;
  /** Whether the filed request's own step found its identity (1), found nothing (0), or has not said (null). */
  pr_subject_found: number | null;
  /** The filed request's package: 1 while stored, 0 when gone, never there or without a result. */
  rr_has_package: number | null;
  /** When the package expires (set by the retention sweeper), or null. */
  rr_package_expires_at: string | null;
  /** When the retention sweeper deleted it, or null. */
  rr_package_expired_at: string | null;
  oo_status: string | null;
  oo_due_at: string | null;
  /** `details` (JSON) of the filed request's latest extension, rejection and cancel audit entries, or null. */
  extend_details: string | null;
  reject_details: string | null;
};

/**
 * DRP records of the given workspaces (or all), newest first, at most `limit`, with the state of
 * what each filed (one query: left joins on the privacy request and the opt-out).
 * @param filters.agentId - only records of this DRP agent id.
 */
export async function listDrpRequestRows(
  db: Executor,
  workspaces: readonly string[] | '*',
  filters: { agentId?: string; limit: number },
): Promise<DrpRequestListRow[]> {
  if (workspaces !== '*' && workspaces.length === 0) return [];
  let query = recordsWithState(db);
  if (workspaces !== '*') query = query.where('d.workspace_id', 'in', workspaces);
  if (filters.agentId !== undefined) query = query.where('d.agent_id', '=', filters.agentId);
  return query.orderBy('d.received_at', 'desc').orderBy('d.request_id').limit(filters.limit).execute();
}

/**
 * DRP records that named a `status_callback`, with the state of what each filed, oldest first
 * after `afterRequestId` (a sweep's page), at most `limit`.
 */
export async function recordsWithCallbacks(db: Executor, afterRequestId: string, limit: number): Promise<DrpRequestListRow[]> {
  return recordsWithState(db)
    .where('d.status_callback', 'is not', null)
    .where('d.request_id', '>', afterRequestId)
    .orderBy('d.request_id')
    .limit(limit)
    .execute();
}

/** The record `requestId` with the state of what it filed (as {@link listDrpRequestRows} reads it), or undefined. */
export async function recordWithState(db: Executor, requestId: string): Promise<DrpRequestListRow | undefined> {
  return recordsWithState(db).where('d.request_id', '=', requestId).executeTakeFirst();
}

function recordsWithState(db: Executor) {
  return db
    .selectFrom('drp_requests as d')
    .leftJoin('privacy_requests as pr', 'pr.id', 'd.privacy_request_id')
    .leftJoin('opt_outs as oo', 'oo.id', 'd.opt_out_id')
    .leftJoin('request_results as rr', 'rr.request_id', 'd.privacy_request_id')
    .selectAll('d')
    .select((eb) => {
      // The latest audit entry of an action on the filed request: its details (the reason given).
      const latest = (action: string) =>
        eb
          .selectFrom('audit_events as a')
          .select('a.details')
          .whereRef('a.request_id', '=', 'd.privacy_request_id')
          .where('a.action', '=', action)
          .orderBy('a.seq', 'desc')
          .limit(1);
      return [
        latest('privacy_request.extend').as('extend_details'),
        latest('privacy_request.reject').as('reject_details'),
        // Whether the package is there, without reading it (it holds personal data).
        eb.case().when('rr.package', 'is', null).then(eb.lit(0)).else(eb.lit(1)).end().as('rr_has_package'),
      ];
    })
    .select([
      'pr.request_type as pr_request_type',
      'pr.status as pr_status',
      'pr.status_reason as pr_status_reason',
      'pr.due_at as pr_due_at',
      'pr.extended_due_at as pr_extended_due_at',
      'pr.subject_found as pr_subject_found',
      'rr.package_expires_at as rr_package_expires_at',
      'rr.package_expired_at as rr_package_expired_at',
      'oo.status as oo_status',
      'oo.due_at as oo_due_at',
    ]);
}
