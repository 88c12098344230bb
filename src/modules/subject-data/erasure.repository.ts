import type { Executor } from '../../db/executor.js';
import { holdMore } from './package-delivery.fns.js';
import type { DataCategory } from './scope.fns.js';

/** Profile fields an erasure can clear. */
export type ProfileField = 'email' | 'name' | 'username';

/** Deletes the subject row, its identity events and its linked identities. @returns the counts. */
export async function deleteProfile(db: Executor, subjectRef: string): Promise<{ events: number; links: number }> {
  const events = await db.deleteFrom('identity_events').where('subject_ref', '=', subjectRef).executeTakeFirst();
  const links = await db.deleteFrom('linked_identities').where('subject_ref', '=', subjectRef).executeTakeFirst();
  await db.deleteFrom('subjects').where('id', '=', subjectRef).execute();
  return { events: Number(events.numDeletedRows), links: Number(links.numDeletedRows) };
}

/** Sets profile fields of the subject row to null. */
export async function clearProfileFields(
  db: Executor,
  subjectRef: string,
  fields: readonly ProfileField[],
  now: string,
): Promise<void> {
  if (fields.length === 0) return;
  const cleared = Object.fromEntries(fields.map((f) => [f, null])) as Partial<Record<ProfileField, null>>;
  await db
    .updateTable('subjects')
    .set({ ...cleared, updated_at: now })
    .where('id', '=', subjectRef)
    .execute();
}

/** Replaces the stored `data` JSON of one identity event. */
export async function rewriteEventData(db: Executor, subjectRef: string, eventId: string, data: string): Promise<void> {
  await db
    .updateTable('identity_events')
    .set({ data })
    .where('subject_ref', '=', subjectRef)
    .where('event_id', '=', eventId)
    .execute();
}

/** Replaces (or, with null, drops) the stored package of a request; no erasure is held on it any more. */
export async function replacePackage(db: Executor, requestId: string, pkg: string | null): Promise<void> {
  await db
    .updateTable('request_results')
    .set({ package: pkg, package_erasure_held: null })
    .where('request_id', '=', requestId)
    .execute();
}

/**
 * Holds an erasure on a package in transit (PRODUCT §2.13): `erase` is added to the categories
 * held on it (`held`, as read; JSON list or null), to go once it has been fetched once; the
 * package itself is left as it is. The write is conditional on the hold read, and read again and
 * merged when another deletion changed it meanwhile, so no deletion's categories are lost.
 * @throws Error when the hold kept changing (the erasure's transaction rolls back and is retried).
 */
export async function holdPackageErasure(
  db: Executor,
  requestId: string,
  held: string | null,
  erase: readonly DataCategory[],
): Promise<void> {
  let current = held;
  for (let attempt = 0; attempt < 5; attempt++) {
    const expected = current;
    const result = await db
      .updateTable('request_results')
      .set({ package_erasure_held: holdMore(expected, erase) })
      .where('request_id', '=', requestId)
      .where((eb) => (expected === null ? eb('package_erasure_held', 'is', null) : eb('package_erasure_held', '=', expected)))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return;
    const row = await db
      .selectFrom('request_results')
      .select('package_erasure_held')
      .where('request_id', '=', requestId)
      .executeTakeFirst();
    if (!row) return;
    current = row.package_erasure_held;
  }
  throw new Error('the held erasure of a package kept changing');
}

/** Deletes the idempotency records whose stored response points at one of `locations`. @returns how many. */
export async function deleteIdempotencyRecords(db: Executor, locations: readonly string[]): Promise<number> {
  if (locations.length === 0) return 0;
  const result = await db
    .deleteFrom('idempotency_records')
    .where('response_location', 'in', [...locations])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Inserts a tombstone per keyed hash (an existing one stays). */
export async function insertTombstones(db: Executor, workspaceId: string, hashes: readonly string[], now: string): Promise<void> {
  for (const subjectHash of hashes) {
    await db
      .insertInto('tombstones')
      .values({ workspace_id: workspaceId, subject_hash: subjectHash, created_at: now })
      .onConflict((oc) => oc.columns(['workspace_id', 'subject_hash']).doNothing())
      .execute();
  }
}

/**
 * Drops the free-text `note` from the stored results of the data tasks of these requests (a note
 * an operator or a system wrote, e.g. "3 tickets found for ann@example.com", may name the person;
 * PRODUCT §2.13, §2.16). The counts, outcome and `data_categories` stay; the task's audit entry
 * keeps only the note's SHA-256, so the audit chain still verifies.
 * @returns how many task results lost a note.
 */
export async function eraseTaskNotes(db: Executor, requestIds: readonly string[], at: string): Promise<number> {
  if (requestIds.length === 0) return 0;
  const rows = await db
    .selectFrom('data_tasks')
    .select(['id', 'result'])
    .where('request_id', 'in', [...requestIds])
    .where('result', 'is not', null)
    .execute();
  let erased = 0;
  for (const row of rows) {
    const { note, ...rest } = JSON.parse(row.result!) as { note?: unknown };
    if (note === undefined) continue;
    const kept = JSON.stringify(rest);
    await db
      .updateTable('data_tasks')
      .set({ result: kept, result_bytes: Buffer.byteLength(kept), updated_at: at })
      .where('id', '=', row.id)
      .execute();
    erased += 1;
  }
  return erased;
}

/**
 * Deletes where these requests' mails went (`request_notify_addresses`: the address a person gave
 * the center or an API client gave as `notify_email`; issue 33 item 3): erased with the subject,
 * so later mails about those requests are not sent. Mails already in the outbox keep their
 * recipient until sent (then it is wiped).
 * @returns how many addresses went.
 */
export async function deleteNotifyAddresses(db: Executor, requestIds: readonly string[]): Promise<number> {
  if (requestIds.length === 0) return 0;
  const result = await db
    .deleteFrom('request_notify_addresses')
    .where('request_id', 'in', [...requestIds])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
