import { findChangeEventIdsByAuthors, findChangeEventsByIds } from '../change-events/change-event.repository.js';
import type { Executor } from '../../db/executor.js';
import { forUpdate } from '../../db/locking.js';
import { accountPseudonym } from '../../lib/keyed-hash.js';
import { nextTurn } from '../../lib/yielding.js';
import type { ChangeEventRow } from '../change-events/change-event.repository.js';
import { type IdentityEventRow, isTombstoned, listLinkedIdentities, type SubjectRow } from '../subjects/subject.repository.js';
import { accountSet } from './accounts.fns.js';
import type { Account, RequestResultRow, SubjectData, SubjectKey } from './subject-data.types.js';
import { EMAIL_PROVIDER, normalizeEmail, type PrivacyRequestRow } from '../request-model/request-model.js';

function subjectQuery(db: Executor) {
  return db.selectFrom('subjects').selectAll();
}

/**
 * The subject a request names: the `subjects` row of (workspace, provider, id); for
 * `subject_provider: "email"`, the subject whose identity events gave it that address (trimmed,
 * without regard to case); else the subject a code-host account (provider, id) of the workspace
 * is linked to (provider compared lower-cased, as linked identities are stored).
 *
 * @param lock - take the row `FOR UPDATE` (PostgreSQL), so identity events for the subject wait
 *   for an erasure or correction to commit.
 * @returns the row, or undefined when the service has never seen the subject.
 */
export async function resolveSubject(db: Executor, key: SubjectKey, lock = false): Promise<SubjectRow | undefined> {
  const direct = subjectQuery(db)
    .where('workspace_id', '=', key.workspace_id)
    .where('subject_provider', '=', key.subject_provider)
    .where('subject_id', '=', key.subject_id);
  const found = await (lock ? forUpdate(db, direct) : direct).executeTakeFirst();
  if (found) return found;
  if (key.subject_provider === EMAIL_PROVIDER) {
    // PRODUCT §2.13: the address identity events gave a subject, compared trimmed and lower-cased
    // (the subjects_workspace_email index); of several subjects with one address, the oldest.
    const byEmail = subjectQuery(db)
      .where('workspace_id', '=', key.workspace_id)
      .where((eb) => eb(eb.fn('lower', [eb.fn('trim', ['email'])]), '=', normalizeEmail(key.subject_id)))
      .orderBy('id')
      .limit(1);
    return (lock ? forUpdate(db, byEmail) : byEmail).executeTakeFirst();
  }
  const link = await db
    .selectFrom('linked_identities')
    .select('subject_ref')
    .where('workspace_id', '=', key.workspace_id)
    .where('provider', '=', key.subject_provider.toLowerCase())
    .where('account_id', '=', key.subject_id)
    .executeTakeFirst();
  if (!link) return undefined;
  const linked = subjectQuery(db).where('id', '=', link.subject_ref);
  return (lock ? forUpdate(db, linked) : linked).executeTakeFirst();
}

/** Rows read per statement when a subject's history is read in pages. */
export const SUBJECT_PAGE_SIZE = 500;

/** Stored results read per statement: each can hold a whole package. */
const RESULT_PAGE_SIZE = 16;

/** Awaited between pages: lets the event loop serve HTTP; the worker's version also stops work on SIGTERM. */
type Pause = () => Promise<void>;

/** Reads the rows of `ids` `size` at a time, awaiting `pause` between statements; order kept per page. */
async function readInPages<T>(ids: readonly string[], size: number, pause: Pause, read: (page: string[]) => Promise<T[]>) {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += size) {
    if (i > 0) await pause();
    for (const row of await read(ids.slice(i, i + size))) rows.push(row);
  }
  return rows;
}

/**
 * Change events of the workspace authored by any account of the set: stored under the account's
 * keyed pseudonym (`pseudonymous` and `full` policies), or with its account id (`full`).
 * Oldest first (id order). Events stored without an author (`none`, erased) cannot be attributed.
 * Read in pages: first the ids (one index search), then {@link SUBJECT_PAGE_SIZE} rows per
 * statement with `pause` between them, so a long history never holds the event loop at once.
 */
export async function findAuthoredChangeEvents(
  db: Executor,
  workspaceId: string,
  accounts: readonly Account[],
  pseudonymKey: string,
  pause: Pause = nextTurn,
): Promise<ChangeEventRow[]> {
  if (accounts.length === 0) return [];
  const pseudonyms = accounts.map((a) => accountPseudonym(pseudonymKey, a.provider, a.account_id));
  // Every branch of the OR names the workspace, so each one is an index search (SQLite's
  // multi-index OR, PostgreSQL's BitmapOr). With `workspace_id = ?` outside the OR, SQLite
  // searched the pseudonym index by workspace alone and read every event of the workspace.
  const ids = await findChangeEventIdsByAuthors(db, workspaceId, pseudonyms, accounts);
  return readInPages(ids, SUBJECT_PAGE_SIZE, pause, (page) => findChangeEventsByIds(db, page));
}

/**
 * The workspace's privacy requests naming any account of the set, except `excludeId`; oldest
 * first. Read in pages like {@link findAuthoredChangeEvents}.
 */
export async function findSubjectRequests(
  db: Executor,
  workspaceId: string,
  accounts: readonly Account[],
  excludeId: string,
  pause: Pause = nextTurn,
): Promise<PrivacyRequestRow[]> {
  if (accounts.length === 0) return [];
  const ids = await db
    .selectFrom('privacy_requests')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '!=', excludeId)
    .where((eb) =>
      eb.or(accounts.map((a) => eb.and([eb('subject_provider', '=', a.provider), eb('subject_id', '=', a.account_id)]))),
    )
    .orderBy('id')
    .execute();
  return readInPages(
    ids.map((r) => r.id),
    SUBJECT_PAGE_SIZE,
    pause,
    (page) => db.selectFrom('privacy_requests').selectAll().where('id', 'in', page).orderBy('id').execute(),
  );
}

/** The stored results of the given requests, a few per statement (each may hold a large package). */
export async function findResults(
  db: Executor,
  requestIds: readonly string[],
  pause: Pause = nextTurn,
): Promise<RequestResultRow[]> {
  return readInPages(requestIds, RESULT_PAGE_SIZE, pause, (page) =>
    db.selectFrom('request_results').selectAll().where('request_id', 'in', page).execute(),
  );
}

/** The subject's identity events in fold order (occurred_at, event_id), {@link SUBJECT_PAGE_SIZE} per statement. */
async function findIdentityEvents(db: Executor, subjectRef: string, pause: Pause): Promise<IdentityEventRow[]> {
  const rows: IdentityEventRow[] = [];
  for (let after: IdentityEventRow | undefined; ;) {
    const from = after;
    const page = await db
      .selectFrom('identity_events')
      .selectAll()
      .where('subject_ref', '=', subjectRef)
      .$if(from !== undefined, (q) =>
        q.where((eb) =>
          eb.or([
            eb('occurred_at', '>', from!.occurred_at),
            eb.and([eb('occurred_at', '=', from!.occurred_at), eb('event_id', '>', from!.event_id)]),
          ]),
        ),
      )
      .orderBy('occurred_at')
      .orderBy('event_id')
      .limit(SUBJECT_PAGE_SIZE)
      .execute();
    for (const row of page) rows.push(row);
    if (page.length < SUBJECT_PAGE_SIZE) return rows;
    after = page[page.length - 1];
    await pause();
  }
}

/**
 * Gathers everything the service holds about the subject a request names and its linked
 * identities (see {@link SubjectData}). Read-only. Long histories are read in pages with
 * `options.pause` awaited between them (default: the next turn of the event loop).
 *
 * @param request - the request being processed: its key, and its id (left out of `requests`).
 * @param options.lock - lock the subject row (for an erasure or correction in the same transaction).
 * @param options.pause - awaited between pages; the worker's throws when it is stopping.
 */
export async function gatherSubjectData(
  db: Executor,
  request: SubjectKey & { id: string },
  pseudonymKey: string,
  options: { lock?: boolean; pause?: Pause } = {},
): Promise<SubjectData> {
  const pause = options.pause ?? nextTurn;
  const subject = (await resolveSubject(db, request, options.lock ?? false)) ?? null;
  const linked = subject ? await listLinkedIdentities(db, subject.id) : [];
  const accounts = accountSet(request, subject, linked);
  const identityEvents = subject ? await findIdentityEvents(db, subject.id, pause) : [];
  const changeEvents = await findAuthoredChangeEvents(db, request.workspace_id, accounts, pseudonymKey, pause);
  const requests = await findSubjectRequests(db, request.workspace_id, accounts, request.id, pause);
  const results = await findResults(
    db,
    requests.map((r) => r.id),
    pause,
  );
  return { subject, linked, accounts, identityEvents, changeEvents, requests, results };
}

/**
 * Writes corrected profile values: stores them as the identity event `eventId` (`user.updated`
 * at `at`; replaced if it exists, so a retried correction stays one event) and sets them on the
 * subject row (moving `last_event_at` forward to `at`).
 */
export async function recordCorrection(
  db: Executor,
  subject: Pick<SubjectRow, 'id' | 'subject_id' | 'last_event_at'>,
  eventId: string,
  values: Partial<Record<'email' | 'name' | 'username', string>>,
  at: string,
): Promise<void> {
  const data = JSON.stringify({ user_id: subject.subject_id, ...values });
  await db
    .insertInto('identity_events')
    .values({ subject_ref: subject.id, event_id: eventId, event_type: 'user.updated', occurred_at: at, data, received_at: at })
    .onConflict((oc) => oc.columns(['subject_ref', 'event_id']).doUpdateSet({ data }))
    .execute();
  const lastEventAt = subject.last_event_at !== null && subject.last_event_at > at ? subject.last_event_at : at;
  await db
    .updateTable('subjects')
    .set({ ...values, last_event_at: lastEventAt, updated_at: at })
    .where('id', '=', subject.id)
    .execute();
}

/**
 * Whether this service's store knows the identity a request names (PRODUCT §2.13): a subject
 * (by provider and id, by e-mail address, or through a linked account), a change event
 * authored by the named account, or a tombstone of it (an earlier erasure: the answer "nothing
 * is held any more" is then known, not guessed). Read before any erasure (which removes what it finds).
 */
export async function identityFound(db: Executor, request: SubjectKey, pseudonymKey: string): Promise<boolean> {
  if (await resolveSubject(db, request)) return true;
  const accounts = accountSet(request, null, []);
  const pseudonyms = accounts.map((a) => accountPseudonym(pseudonymKey, a.provider, a.account_id));
  if ((await findChangeEventIdsByAuthors(db, request.workspace_id, pseudonyms, accounts, 1)).length > 0) return true;
  for (const hash of pseudonyms) if (await isTombstoned(db, request.workspace_id, hash)) return true;
  return false;
}
