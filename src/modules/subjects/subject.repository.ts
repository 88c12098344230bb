import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { findRow } from '../../db/row-match.js';
import { preparedQuery } from '../../db/prepared-query.js';
import { byDialect } from '../../db/dialect.js';
import { forUpdate } from '../../db/locking.js';
import type { LinkedAccount } from './identity-event.types.js';
import type { SubjectProfile } from './identity-fold.fns.js';
import type { IdentityEventTable, LinkedIdentityTable, SubjectTable } from '../../db/tables/subject.table.js';

export type SubjectRow = Selectable<SubjectTable>;
export type IdentityEventRow = Selectable<IdentityEventTable>;

type SubjectKey = { workspace_id: string; subject_provider: string; subject_id: string };

const SUBJECT_COLUMNS = [
  'id',
  'workspace_id',
  'subject_provider',
  'subject_id',
  'state',
  'email',
  'name',
  'username',
  'last_event_at',
  'updated_at',
] as const satisfies readonly (keyof SubjectRow)[];

const insertSubjectUnlessKnown = preparedQuery<SubjectRow, never>(SUBJECT_COLUMNS, (db, row) =>
  db
    .insertInto('subjects')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'subject_provider', 'subject_id']).doNothing()),
);

const selectSubjectForUpdate = preparedQuery<SubjectKey, SubjectRow>(
  ['workspace_id', 'subject_provider', 'subject_id'],
  (db, key) =>
    forUpdate(
      db,
      db
        .selectFrom('subjects')
        .selectAll()
        .where('workspace_id', '=', key.workspace_id)
        .where('subject_provider', '=', key.subject_provider)
        .where('subject_id', '=', key.subject_id),
    ),
);

/** The subject row, locked, with whether its account is tombstoned: one statement for the usual case. */
const selectSubjectAndTombstone = preparedQuery<SubjectKey & { subject_hash: string }, SubjectRow & { erased: unknown }>(
  ['workspace_id', 'subject_provider', 'subject_id', 'subject_hash'],
  (db, key) =>
    forUpdate(
      db,
      db
        .selectFrom('subjects')
        .selectAll('subjects')
        .select((eb) =>
          eb
            .exists(
              eb
                .selectFrom('tombstones')
                .select('tombstones.subject_hash')
                .where('tombstones.workspace_id', '=', key.workspace_id)
                .where('tombstones.subject_hash', '=', key.subject_hash),
            )
            .as('erased'),
        )
        .where('subjects.workspace_id', '=', key.workspace_id)
        .where('subjects.subject_provider', '=', key.subject_provider)
        .where('subjects.subject_id', '=', key.subject_id),
    ),
);

/** What {@link lockSubject} found: the subject, locked for this transaction, or that its account is erased. */
export type LockedSubject = { erased: false; subject: SubjectRow } | { erased: true };

/**
 * The subject (workspace, provider, id), created empty if new, and locked for this transaction;
 * or `erased` when the account's keyed hash (`subjectHash`) has a tombstone in the workspace, in
 * which case nothing is written. A known subject (the usual case) costs one statement, the
 * locking read that also checks the tombstone; a new one is checked for a tombstone, inserted
 * (or, when a concurrent transaction inserted it meanwhile, left as is) and read again.
 */
export async function lockSubject(db: Executor, key: SubjectKey, subjectHash: string, fresh: SubjectRow): Promise<LockedSubject> {
  const [known] = (await selectSubjectAndTombstone(db, { ...key, subject_hash: subjectHash })).rows;
  if (known) {
    const { erased, ...subject } = known;
    return erased === true || erased === 1 ? { erased: true } : { erased: false, subject };
  }
  if (await isTombstoned(db, key.workspace_id, subjectHash)) return { erased: true };
  await insertSubjectUnlessKnown(db, fresh);
  const [row] = (await selectSubjectForUpdate(db, key)).rows;
  if (!row) throw new Error('subject row missing right after its insert');
  return { erased: false, subject: row };
}

const IDENTITY_EVENT_COLUMNS = [
  'subject_ref',
  'event_id',
  'event_type',
  'occurred_at',
  'data',
  'received_at',
] as const satisfies readonly (keyof IdentityEventRow)[];

const insertEvent = preparedQuery<IdentityEventRow, { event_id: string }>(IDENTITY_EVENT_COLUMNS, (db, row) =>
  db
    .insertInto('identity_events')
    .values(row)
    .onConflict((oc) => oc.columns(['subject_ref', 'event_id']).doNothing())
    .returning('event_id'),
);

const selectEvents = preparedQuery<{ subject_ref: string }, IdentityEventRow>(['subject_ref'], (db, p) =>
  db.selectFrom('identity_events').selectAll().where('subject_ref', '=', p.subject_ref),
);

/**
 * PostgreSQL: stores the event unless known and lists the subject's events, in one statement. The
 * outer SELECT sees the table as it was before the insert (PostgreSQL manual §7.8.4), so the
 * inserted row, if any, comes from the CTE: `stored` is 1 on it and 0 on every row read.
 */
const insertAndListOnPostgres = preparedQuery<IdentityEventRow, IdentityEventRow & { stored: number }>(
  IDENTITY_EVENT_COLUMNS,
  (db, row) =>
    db
      .with('inserted', (qb) =>
        qb
          .insertInto('identity_events')
          .values(row)
          .onConflict((oc) => oc.columns(['subject_ref', 'event_id']).doNothing())
          .returningAll(),
      )
      .selectFrom('inserted')
      .selectAll()
      .select(sql<number>`1`.as('stored'))
      .unionAll((eb) =>
        eb
          .selectFrom('identity_events')
          .selectAll()
          .select(sql<number>`0`.as('stored'))
          .where('identity_events.subject_ref', '=', row.subject_ref),
      ),
);

/**
 * Stores an event unless its id is already stored for the subject, and lists the subject's events
 * (the new one included): one statement on PostgreSQL, two on SQLite.
 *
 * @returns whether the event was stored now, and every stored event of the subject.
 */
export const storeEventAndList = byDialect<[row: IdentityEventRow], Promise<{ stored: boolean; events: IdentityEventRow[] }>>({
  postgres: async (db, row) => {
    const rows = (await insertAndListOnPostgres(db, row)).rows;
    return { stored: rows.some((r) => Number(r.stored) === 1), events: rows.map(({ stored: _, ...event }) => event) };
  },
  sqlite: async (db, row) => {
    const stored = await storeEvent(db, row);
    return { stored, events: (await selectEvents(db, { subject_ref: row.subject_ref })).rows };
  },
});

/**
 * Stores an event unless its id is already stored for the subject (one statement).
 * @returns whether it was stored now.
 */
export async function storeEvent(db: Executor, row: IdentityEventRow): Promise<boolean> {
  return (await insertEvent(db, row)).rows.length > 0;
}

type StateUpdate = Pick<SubjectRow, 'id' | 'state' | 'email' | 'name' | 'username' | 'last_event_at' | 'updated_at'>;

const updateState = preparedQuery<StateUpdate, never>(
  ['id', 'state', 'email', 'name', 'username', 'last_event_at', 'updated_at'],
  (db, p) =>
    db
      .updateTable('subjects')
      .set({
        state: p.state,
        email: p.email,
        name: p.name,
        username: p.username,
        last_event_at: p.last_event_at,
        updated_at: p.updated_at,
      })
      .where('id', '=', p.id),
);

/** Writes the folded state (without its linked accounts) onto the subject row. */
export async function updateSubjectState(db: Executor, id: string, state: SubjectProfile, now: string): Promise<void> {
  await updateState(db, {
    id,
    state: state.state,
    email: state.email,
    name: state.name,
    username: state.username,
    last_event_at: state.last_event_at,
    updated_at: now,
  });
}

const deleteLinked = preparedQuery<{ subject_ref: string }, never>(['subject_ref'], (db, p) =>
  db.deleteFrom('linked_identities').where('subject_ref', '=', p.subject_ref),
);

const upsertLinked = preparedQuery<Selectable<LinkedIdentityTable>, never>(
  ['workspace_id', 'provider', 'account_id', 'subject_ref', 'login'],
  (db, row) =>
    db
      .insertInto('linked_identities')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'provider', 'account_id']).doUpdateSet({ subject_ref: row.subject_ref, login: row.login }),
      ),
);

/**
 * Makes the subject's linked identities exactly `accounts`. An account already linked to another
 * subject of the workspace moves to this one (the identity provider's latest word wins).
 */
export async function replaceLinkedIdentities(
  db: Executor,
  workspaceId: string,
  subjectRef: string,
  accounts: LinkedAccount[],
): Promise<void> {
  await deleteLinked(db, { subject_ref: subjectRef });
  for (const account of accounts) {
    await upsertLinked(db, {
      workspace_id: workspaceId,
      provider: account.provider,
      account_id: account.account_id,
      subject_ref: subjectRef,
      login: account.login ?? null,
    });
  }
}

/** A subject by its key, or undefined. */
export async function findSubject(
  db: Executor,
  workspaceId: string,
  provider: string,
  subjectId: string,
): Promise<SubjectRow | undefined> {
  return findRow(db, 'subjects', { workspace_id: workspaceId, subject_provider: provider, subject_id: subjectId });
}

/** The accounts linked to a subject. */
export async function listLinkedIdentities(db: Executor, subjectRef: string): Promise<LinkedAccount[]> {
  return db
    .selectFrom('linked_identities')
    .select(['provider', 'account_id', 'login'])
    .where('subject_ref', '=', subjectRef)
    .orderBy('provider')
    .orderBy('account_id')
    .execute();
}

const selectTombstone = preparedQuery<{ workspace_id: string; subject_hash: string }, { subject_hash: string }>(
  ['workspace_id', 'subject_hash'],
  (db, p) =>
    db
      .selectFrom('tombstones')
      .select('subject_hash')
      .where('workspace_id', '=', p.workspace_id)
      .where('subject_hash', '=', p.subject_hash),
);

/** True when the account's keyed hash has a tombstone in the workspace. */
export async function isTombstoned(db: Executor, workspaceId: string, subjectHash: string): Promise<boolean> {
  return (await selectTombstone(db, { workspace_id: workspaceId, subject_hash: subjectHash })).rows.length > 0;
}
