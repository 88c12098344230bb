import type { Executor } from '../../db/executor.js';
import { toTimestamp } from '../../lib/clock.js';
import { accountPseudonym } from '../../lib/keyed-hash.js';
import { nextTurn } from '../../lib/yielding.js';
import { requestLocation } from '../../modules/request-model/request-model.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import {
  buildErasureReport,
  type ErasureCounts,
  type ErasureReport,
  zeroCounts,
} from '../../modules/subject-data/erasure-report.fns.js';
import { anonymizeChangeEvents } from '../../modules/change-events/change-event.repository.js';
import * as writes from '../../modules/subject-data/erasure.repository.js';
import { eraseNotesOf } from '../../modules/request-notes/request-notes.repository.js';
import { heldCategories, isInTransit } from '../../modules/subject-data/package-delivery.fns.js';
import { packageWithout } from '../../modules/subject-data/package.fns.js';
import { categoriesInScope, type DataCategory, parseScope } from '../../modules/subject-data/scope.fns.js';
import { gatherSubjectData, SUBJECT_PAGE_SIZE } from '../../modules/subject-data/subject-data.repository.js';
import type { SubjectData } from '../../modules/subject-data/subject-data.types.js';
import { redactSentMessages } from '../../modules/outbound-events/message-log.repository.js';
import { countOptOutsOf } from '../../modules/opt-outs/opt-out.repository.js';

const PROFILE_FIELDS = { 'user.contact.email': 'email', 'user.name': 'name' } as const;

function storedData(json: string): Record<string, unknown> {
  return JSON.parse(json) as Record<string, unknown>;
}

/**
 * The profile: deleted whole (row, identity events, linked identities) when `user.account` is in
 * scope; otherwise the email and/or name in scope are set to null in the row and removed from the
 * stored identity events (so a re-fold cannot bring them back).
 */
async function eraseProfile(tx: Executor, data: SubjectData, scope: readonly DataCategory[], c: ErasureCounts, at: string) {
  const subject = data.subject;
  if (!subject) return;
  const whole = scope.includes('user.account');
  const fields = (['user.contact.email', 'user.name'] as const)
    .filter((k) => whole || scope.includes(k))
    .map((k) => PROFILE_FIELDS[k]);
  const holding = (field: string) => data.identityEvents.filter((e) => typeof storedData(e.data)[field] === 'string').length;
  for (const field of fields) {
    if (subject[field] !== null) c[field] = 1;
    c[field === 'email' ? 'eventsWithEmail' : 'eventsWithName'] = holding(field);
  }
  if (whole) {
    const deleted = await writes.deleteProfile(tx, subject.id);
    c.profiles = 1;
    c.identityEventsDeleted = deleted.events;
    c.linkedAccounts = deleted.links;
    return;
  }
  await writes.clearProfileFields(tx, subject.id, fields, at);
  for (const event of data.identityEvents) {
    const stored = storedData(event.data);
    if (!fields.some((f) => f in stored)) continue;
    for (const field of fields) delete stored[field];
    await writes.rewriteEventData(tx, subject.id, event.event_id, JSON.stringify(stored));
  }
}

/**
 * Change events of the account set: anonymous (author columns null; title null with user.content),
 * {@link SUBJECT_PAGE_SIZE} per statement with `pause` between them.
 */
async function eraseChangeEvents(
  tx: Executor,
  data: SubjectData,
  scope: readonly DataCategory[],
  c: ErasureCounts,
  pause: () => Promise<void>,
) {
  const content = scope.includes('user.content');
  if (!content && !scope.includes('user.account')) return;
  const events = data.changeEvents;
  for (let i = 0; i < events.length; i += SUBJECT_PAGE_SIZE) {
    if (i > 0) await pause();
    await anonymizeChangeEvents(
      tx,
      events.slice(i, i + SUBJECT_PAGE_SIZE).map((e) => e.id),
      content,
    );
  }
  c.changeEventAuthors = events.length;
  const titled = events.filter((e) => e.title !== null).length;
  if (content) c.changeEventTitles = titled;
  else c.changeEventTitlesKept = titled;
}

/**
 * Earlier access/export packages of the subject: the erased categories removed (with any an
 * earlier deletion held on it); dropped when none is left. A package in transit (completed, not
 * fetched yet, not expired: {@link isInTransit}) is left whole and the erasure held on it, to
 * happen once it has been fetched once or when it expires (PRODUCT §2.13); its request is listed.
 */
async function erasePackages(
  tx: Executor,
  data: SubjectData,
  erased: readonly DataCategory[],
  c: ErasureCounts,
  at: string,
  pause: () => Promise<void>,
) {
  const statusOf = new Map(data.requests.map((r) => [r.id, r.status]));
  for (const result of data.results) {
    if (result.package === null) continue;
    await pause();
    if (isInTransit({ ...result, status: statusOf.get(result.request_id) }, at)) {
      if (packageWithout(result.package, erased).removed.length === 0) continue;
      await writes.holdPackageErasure(tx, result.request_id, result.package_erasure_held, erased);
      c.packagesHeld.push(result.request_id);
      continue;
    }
    const { json, removed } = packageWithout(result.package, [
      ...new Set([...erased, ...heldCategories(result.package_erasure_held)]),
    ]);
    if (removed.length === 0) continue;
    await writes.replacePackage(tx, result.request_id, json);
    c.packagesChanged += 1;
    for (const category of removed) c.packages[category] = (c.packages[category] ?? 0) + 1;
  }
}

/** The categories whose data goes: those in scope, plus email and name when the whole profile goes. */
function erasedCategories(scope: readonly DataCategory[]): DataCategory[] {
  if (!scope.includes('user.account')) return [...scope];
  return [...new Set<DataCategory>([...scope, 'user.contact.email', 'user.name'])];
}

/**
 * Erases the subject of a deletion request (GDPR Art. 17) and its linked identities, in the
 * categories of the request's scope, through `tx` (idempotent: a second run finds less and
 * erases it). In scope:
 * - `user.account`: the subject row, its identity events and linked identities (the whole
 *   profile, email and name included); change event authors; idempotency records replaying the
 *   subject's requests, this one's included (their bodies copy the request; this one's is not counted);
 *   the payloads of outbound messages already sent about those requests (redacted);
 * - `user.contact.email`, `user.name`: the field in the profile and in stored identity events;
 * - `user.content`: change event titles and authors (the event and its decision stay, anonymous);
 * - every category: its copies in earlier access/export packages of the subject; a package
 *   not yet fetched is kept whole until it is fetched once or expires, and listed as kept;
 * - always: the text of operators' notes on the subject's requests and the `note` of their data
 *   tasks' results (free text that may name the person; the audit entries keep only its hash).
 * With `user.account` or `user.content` in scope, a tombstone (keyed hash) is written for every
 * account of the set, even for a subject the service has never seen, so later change events
 * about it are stored without identity. Privacy request records and the audit trail stay
 * (Art. 5(2), 17(3)(b)), and so do the subject's opt-outs and preferences (PRODUCT §2.18), listed
 * as kept when there are any.
 *
 * One transaction, so the report is exact and nothing is half erased; inside it the history is
 * read in pages and written in batches with `pause` awaited between them (the event loop stays
 * free; on SQLite other writers wait for the commit, asynchronously).
 *
 * @returns the report: per category, what was erased (counts) and kept (why); no personal data.
 */
export async function eraseSubjectData(
  tx: Executor,
  request: PrivacyRequestRow,
  pseudonymKey: string,
  now: Date,
  pause: () => Promise<void> = nextTurn,
): Promise<ErasureReport> {
  const scope = categoriesInScope(parseScope(request.scope));
  const data = await gatherSubjectData(tx, request, pseudonymKey, { lock: true, pause });
  const counts = zeroCounts();
  const at = toTimestamp(now);
  await eraseProfile(tx, data, scope, counts, at);
  await eraseChangeEvents(tx, data, scope, counts, pause);
  await erasePackages(tx, data, erasedCategories(scope), counts, at, pause);
  // Operators' working notes on the subject's requests (PRODUCT §2.16): the text goes, the hash in the audit entry stays.
  const requestIds = [...data.requests.map((r) => r.id), request.id];
  await eraseNotesOf(tx, requestIds, at);
  // The notes on those requests' data tasks likewise (the task result keeps its counts and outcome).
  await writes.eraseTaskNotes(tx, requestIds, at);
  if (scope.includes('user.account')) {
    // This request's own record copies only the request; it goes too, but is not the subject's data held before.
    await writes.deleteIdempotencyRecords(tx, [requestLocation(request.id)]);
    counts.idempotencyRecords = await writes.deleteIdempotencyRecords(
      tx,
      data.requests.map((r) => requestLocation(r.id)),
    );
    // Sent outbound messages about the subject's requests (a data task's names the accounts).
    await redactSentMessages(tx, [...data.requests.map((r) => r.id), request.id]);
    // Where the subject's earlier requests' mails went; this request's own goes with its last mail (completed).
    await writes.deleteNotifyAddresses(
      tx,
      data.requests.map((r) => r.id),
    );
  }
  if (scope.includes('user.account') || scope.includes('user.content')) {
    const hashes = data.accounts.map((a) => accountPseudonym(pseudonymKey, a.provider, a.account_id));
    await writes.insertTombstones(tx, request.workspace_id, hashes, at);
    counts.tombstones = hashes.length;
  }
  // Opt-outs are not erased (PRODUCT §2.18): the record is what keeps the choice honoured.
  counts.optOutsKept = await countOptOutsOf(tx, request.workspace_id, [
    { provider: request.subject_provider, id: request.subject_id },
    ...data.accounts.map((a) => ({ provider: a.provider, id: a.account_id })),
  ]);
  return buildErasureReport(scope, counts);
}
