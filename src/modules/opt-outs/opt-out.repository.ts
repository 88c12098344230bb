import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { forUpdate } from '../../db/locking.js';
import type { OptOutTable, PrivacyPreferenceTable } from '../../db/tables/opt-out.table.js';

/** A stored opt-out. */
export type OptOutRow = Selectable<OptOutTable>;

/**
 * Inserts `row` unless its `(workspace_id, client_request_id)` is taken.
 * @returns true when it was inserted.
 */
export async function insertOptOutUnlessDuplicate(db: Executor, row: Insertable<OptOutTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('opt_outs')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'client_request_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The id of the opt-out holding `clientRequestId` in the workspace, or undefined. */
export async function findOptOutIdByClientRequestId(
  db: Executor,
  workspaceId: string,
  clientRequestId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('opt_outs')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('client_request_id', '=', clientRequestId)
    .executeTakeFirst();
  return row?.id;
}

/** One opt-out by id, or undefined. */
export async function findOptOutById(db: Executor, id: string): Promise<OptOutRow | undefined> {
  return db.selectFrom('opt_outs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Filters of {@link listOptOutRows}; `workspaceIds` null: every workspace. */
export interface OptOutListFilters {
  workspaceIds: readonly string[] | null;
  subjectProvider?: string | undefined;
  subjectId?: string | undefined;
  statuses?: readonly string[] | undefined;
  /**
   * `only: true`: the opt-outs in one of `openStatuses` whose `due_at` is before `now` (RFC 3339
   * UTC); `only: false`: every other one. Absent: no such filter.
   */
  overdue?: { only: boolean; openStatuses: readonly string[]; now: string } | undefined;
  /** Only ids before this one (the previous page's last). */
  beforeId?: string | undefined;
  limit: number;
}

/** Opt-outs newest first, at most `limit`. */
export async function listOptOutRows(db: Executor, f: OptOutListFilters): Promise<OptOutRow[]> {
  let query = db.selectFrom('opt_outs').selectAll();
  if (f.workspaceIds !== null) query = query.where('workspace_id', 'in', f.workspaceIds.length > 0 ? [...f.workspaceIds] : ['']);
  if (f.subjectProvider !== undefined) query = query.where('subject_provider', '=', f.subjectProvider);
  if (f.subjectId !== undefined) query = query.where('subject_id', '=', f.subjectId);
  if (f.statuses !== undefined) query = query.where('status', 'in', [...f.statuses]);
  if (f.overdue !== undefined) {
    const { only, openStatuses, now } = f.overdue;
    query = query.where((eb) => {
      const overdue = eb.and([eb('status', 'in', [...openStatuses]), eb('due_at', '<', now)]);
      return only ? overdue : eb.not(overdue);
    });
  }
  if (f.beforeId !== undefined) query = query.where('id', '<', f.beforeId);
  return query.orderBy('id', 'desc').limit(f.limit).execute();
}

/**
 * Sets the subject's standing choice of `pref.kind` unless a choice received later stands
 * already (one statement: an upsert whose update is conditional on `received_at`; a tie goes to
 * the choice written last).
 * @returns true when the preference was written.
 */
export async function setPreferenceUnlessLater(db: Executor, pref: Selectable<PrivacyPreferenceTable>): Promise<boolean> {
  const written = await db
    .insertInto('privacy_preferences')
    .values(pref)
    .onConflict((oc) =>
      oc
        .columns(['workspace_id', 'subject_provider', 'subject_id', 'kind'])
        .doUpdateSet((eb) => ({
          choice: eb.ref('excluded.choice'),
          source: eb.ref('excluded.source'),
          opt_out_id: eb.ref('excluded.opt_out_id'),
          received_at: eb.ref('excluded.received_at'),
          updated_at: eb.ref('excluded.updated_at'),
        }))
        .whereRef('privacy_preferences.received_at', '<=', 'excluded.received_at'),
    )
    .returning('kind')
    .executeTakeFirst();
  return written !== undefined;
}

/** A subject's stored preferences (at most one per kind). */
export async function readPreferenceRows(
  db: Executor,
  workspaceId: string,
  subjectProvider: string,
  subjectId: string,
): Promise<Selectable<PrivacyPreferenceTable>[]> {
  return db
    .selectFrom('privacy_preferences')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('subject_provider', '=', subjectProvider)
    .where('subject_id', '=', subjectId)
    .execute();
}

/** How many opt-outs the workspace holds for any of `identities` (provider and id, as filed). */
export async function countOptOutsOf(
  db: Executor,
  workspaceId: string,
  identities: readonly { provider: string; id: string }[],
): Promise<number> {
  if (identities.length === 0) return 0;
  const row = await db
    .selectFrom('opt_outs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or(identities.map((i) => eb.and([eb('subject_provider', '=', i.provider), eb('subject_id', '=', i.id)]))))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Open opt-outs, and those of them past `due_at`, over `workspaceIds` (null: every workspace). */
export async function countOpenOptOuts(
  db: Executor,
  workspaceIds: readonly string[] | null,
  openStatuses: readonly string[],
  now: string,
): Promise<{ open: number; overdue: number }> {
  let query = db
    .selectFrom('opt_outs')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('open'),
      eb.fn.count<number | string>(eb.case().when('due_at', '<', now).then(1).end()).as('overdue'),
    ])
    .where('status', 'in', [...openStatuses]);
  if (workspaceIds !== null) query = query.where('workspace_id', 'in', workspaceIds.length > 0 ? [...workspaceIds] : ['']);
  const row = await query.executeTakeFirstOrThrow();
  return { open: Number(row.open), overdue: Number(row.overdue) };
}

/** One opt-out by id, its row locked for the transaction (PostgreSQL `FOR UPDATE`), or undefined. */
export async function lockOptOut(db: Executor, id: string): Promise<OptOutRow | undefined> {
  return forUpdate(db, db.selectFrom('opt_outs').selectAll().where('id', '=', id)).executeTakeFirst();
}

/** The subject and kind an opt-out is about: what a later choice of the same kind replaces. */
export type OptOutSubjectKind = Pick<OptOutRow, 'workspace_id' | 'subject_provider' | 'subject_id' | 'kind'>;

/**
 * The open opt-outs (`openStatuses`) of the subject and kind other than `exceptId`, oldest first,
 * their rows locked (PostgreSQL `FOR UPDATE`: a task result locks its opt-out first too).
 */
export async function lockOpenOptOutsOf(
  db: Executor,
  of: OptOutSubjectKind,
  exceptId: string,
  openStatuses: readonly string[],
): Promise<OptOutRow[]> {
  return forUpdate(
    db,
    db
      .selectFrom('opt_outs')
      .selectAll()
      .where('workspace_id', '=', of.workspace_id)
      .where('subject_provider', '=', of.subject_provider)
      .where('subject_id', '=', of.subject_id)
      .where('kind', '=', of.kind)
      .where('status', 'in', [...openStatuses])
      .where('id', '<>', exceptId)
      .orderBy('id'),
  ).execute();
}

/** The opt-out whose choice the subject's preference of `of.kind` holds, or undefined. */
export async function preferenceHolder(db: Executor, of: OptOutSubjectKind): Promise<string | undefined> {
  const row = await db
    .selectFrom('privacy_preferences')
    .select('opt_out_id')
    .where('workspace_id', '=', of.workspace_id)
    .where('subject_provider', '=', of.subject_provider)
    .where('subject_id', '=', of.subject_id)
    .where('kind', '=', of.kind)
    .executeTakeFirst();
  return row?.opt_out_id;
}

/**
 * Ends an open opt-out (`openStatuses`) as `status` (`completed` or `failed`) at `at`.
 * @returns false when it was not open (ended already).
 */
export async function endOptOut(
  db: Executor,
  id: string,
  status: 'completed' | 'failed',
  at: string,
  openStatuses: readonly string[],
): Promise<boolean> {
  const updated = await db
    .updateTable('opt_outs')
    .set({ status, completed_at: at })
    .where('id', '=', id)
    .where('status', 'in', [...openStatuses])
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}
