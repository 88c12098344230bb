import type { DataCategory } from './scope.fns.js';

/** One thing a deletion kept, and why, in plain words to the person (PRODUCT §2.17). */
export interface KeptItem {
  what: string;
  why: string;
}

/** `format` of an erasure report. */
export const ERASURE_REPORT_FORMAT = 'erasure-report/1';

/** What an erasure did in one category. Holds no personal data: descriptions and counts only. */
export interface CategoryReport {
  /** Kinds of record erased (deleted, or their personal fields set to null), with how many. */
  erased: { what: string; count: number }[];
  /** Kinds of record kept, and the legal reason. */
  kept: { what: string; why: string }[];
}

/**
 * The report of a deletion request (GDPR Art. 17): per category in scope, what was erased and
 * what was kept and why. Never names, emails, logins or ids of the subject (it outlives the data).
 */
export interface ErasureReport {
  format: typeof ERASURE_REPORT_FORMAT;
  categories: Partial<Record<DataCategory, CategoryReport>>;
}

/** What the erasure counted, as {@link buildErasureReport} turns it into a report. */
export interface ErasureCounts {
  /** Subject rows deleted (0 or 1), when the whole profile went. */
  profiles: number;
  /** Profile fields set to null or deleted with the profile (0 or 1 each). */
  email: number;
  name: number;
  /** Stored identity events deleted with the profile. */
  identityEventsDeleted: number;
  /** Stored identity events that held the field (deleted, or rewritten without it). */
  eventsWithEmail: number;
  eventsWithName: number;
  linkedAccounts: number;
  changeEventAuthors: number;
  changeEventTitles: number;
  /** Change events whose titles stay, unlinked, because user.content was not in scope. */
  changeEventTitlesKept: number;
  /** Earlier packages from which each category was removed. */
  packages: Partial<Record<DataCategory, number>>;
  /** Earlier packages changed at all (rewritten or dropped). */
  packagesChanged: number;
  /** Requests whose package was in transit (completed, not fetched yet): kept, its erasure held. */
  packagesHeld: string[];
  idempotencyRecords: number;
  tombstones: number;
  /** Opt-outs and opt-ins of the subject's identities, kept (PRODUCT §2.18). */
  optOutsKept: number;
}

/** All zero: the report of a subject the service holds nothing about. */
export function zeroCounts(): ErasureCounts {
  return {
    profiles: 0,
    email: 0,
    name: 0,
    identityEventsDeleted: 0,
    eventsWithEmail: 0,
    eventsWithName: 0,
    linkedAccounts: 0,
    changeEventAuthors: 0,
    changeEventTitles: 0,
    changeEventTitlesKept: 0,
    packages: {},
    packagesChanged: 0,
    packagesHeld: [],
    idempotencyRecords: 0,
    tombstones: 0,
    optOutsKept: 0,
  };
}

/** The `what` of the tombstones entry a report keeps when the erasure left tombstones. */
export const TOMBSTONES_WHAT = 'tombstones: keyed hashes of the erased accounts';

const PACKAGES = 'copies in earlier access/export packages of the subject';
const REQUESTS_KEPT = {
  what: 'privacy request records (id, type, scope, status, dates, and the subject identifier the request named)',
  why: 'accountability: proof that requests were received and answered, GDPR Art. 5(2) and Art. 17(3)(b)',
};
const AUDIT_KEPT = { what: 'audit trail entries of the requests (no personal data)', why: 'accountability, GDPR Art. 5(2)' };
const TOMBSTONES_KEPT = {
  what: TOMBSTONES_WHAT,
  why: 'so later events about these accounts are stored without identity (GDPR Art. 17); a keyed hash, not the identity (Art. 4(5))',
};
/** The `what` of the entry a report keeps when the subject had opted out or in (PRODUCT §2.18). */
export const OPT_OUTS_WHAT = "opt-out records of the subject's identities (kind, choice, source, dates)";
const OPT_OUTS_KEPT = {
  what: OPT_OUTS_WHAT,
  why: 'to keep honouring the opt-out: a deleted identity would otherwise be sold, shared or marketed to again (Cal. Civ. Code §1798.120, GDPR Art. 21(3))',
};
const DECISIONS_KEPT = {
  what: 'change event policy decisions, without author or title',
  why: 'record of processing (GDPR Art. 30); no longer identifies the subject',
};

const HELD_PREFIX = 'the answer to request ';

/** The request id of a {@link heldPackageKept} entry's `what`, or null for any other kept entry. */
export function heldAnswerOf(what: string): string | null {
  if (!what.startsWith(HELD_PREFIX)) return null;
  return /^pr_[0-9A-Za-z]+/.exec(what.slice(HELD_PREFIX.length))?.[0] ?? null;
}

/** A package in transit (PRODUCT §2.13): kept whole until fetched once or expired, then erased. */
function heldPackageKept(requestId: string): CategoryReport['kept'][number] {
  return {
    what: `${HELD_PREFIX}${requestId}, completed but not yet fetched (a copy of data erased here)`,
    why:
      'an answer in transit: kept until it is fetched once or its retention (PACKAGE_RETENTION_DAYS) passes, ' +
      'then erased as this deletion erased the rest',
  };
}

function accountReport(c: ErasureCounts, scope: readonly DataCategory[]): CategoryReport {
  const erased = [
    { what: 'subject profile record (identity-provider ids, state, username)', count: c.profiles },
    { what: 'identity events the profile was folded from', count: c.identityEventsDeleted },
    { what: 'linked code-host accounts (ids and logins)', count: c.linkedAccounts },
    { what: "idempotency records replaying the subject's privacy requests", count: c.idempotencyRecords },
    { what: PACKAGES, count: c.packagesChanged },
  ];
  // The whole profile goes with the account: its email and name too, even when not in scope.
  if (!scope.includes('user.contact.email'))
    erased.push({ what: 'email address, erased with the profile record', count: c.email });
  if (!scope.includes('user.name')) erased.push({ what: 'name, erased with the profile record', count: c.name });
  if (!scope.includes('user.content'))
    erased.push({ what: 'change event author ids, logins and pseudonyms', count: c.changeEventAuthors });
  const kept: CategoryReport['kept'] = [];
  if (c.changeEventTitlesKept > 0)
    kept.push({
      what: 'change event titles, no longer linked to the subject',
      why: 'user.content was not in the scope of the request',
    });
  return { erased, kept };
}

function fieldReport(label: string, profile: number, events: number, packages: number): CategoryReport {
  return {
    erased: [
      { what: `${label} in the subject profile`, count: profile },
      { what: `${label} in stored identity events`, count: events },
      { what: PACKAGES, count: packages },
    ],
    kept: [],
  };
}

function contentReport(c: ErasureCounts): CategoryReport {
  return {
    erased: [
      { what: 'change event titles', count: c.changeEventTitles },
      { what: 'change event author ids, logins and pseudonyms', count: c.changeEventAuthors },
      { what: PACKAGES, count: c.packages['user.content'] ?? 0 },
    ],
    kept: [DECISIONS_KEPT],
  };
}

function categoryReport(category: DataCategory, scope: readonly DataCategory[], c: ErasureCounts): CategoryReport {
  switch (category) {
    case 'user.account':
      return accountReport(c, scope);
    case 'user.contact.email':
      return fieldReport('email address', c.email, c.eventsWithEmail, c.packages[category] ?? 0);
    case 'user.name':
      return fieldReport('name', c.name, c.eventsWithName, c.packages[category] ?? 0);
    case 'user.content':
      return contentReport(c);
  }
}

/**
 * The erasure report of the categories in scope (in {@link DataCategory} order) from what was
 * counted. What every erasure keeps (the request records, the audit trail, tombstones, and each
 * answer in transit with its request id, and the subject's opt-outs when there are any) is stated once, in the first category.
 */
export function buildErasureReport(scope: readonly DataCategory[], c: ErasureCounts): ErasureReport {
  const categories: ErasureReport['categories'] = {};
  for (const category of scope) categories[category] = categoryReport(category, scope, c);
  const first = scope[0] === undefined ? undefined : categories[scope[0]];
  first?.kept.unshift(
    REQUESTS_KEPT,
    AUDIT_KEPT,
    ...(c.tombstones > 0 ? [TOMBSTONES_KEPT] : []),
    ...(c.optOutsKept > 0 ? [OPT_OUTS_KEPT] : []),
    ...c.packagesHeld.map(heldPackageKept),
  );
  return { format: ERASURE_REPORT_FORMAT, categories };
}
