import type { ChangeEventRow } from '../change-events/change-event.repository.js';
import type { IdentityEventRow } from '../subjects/subject.repository.js';
import {
  ACCESS_FORMAT,
  type AccessPackage,
  type AccountData,
  type ChangeEventData,
  EXPORT_FORMAT,
  type ExportPackage,
  type PackageData,
  type ProcessingStatement,
} from './package.types.js';
import type { ControllerProfileFields } from '../controllers/controller.types.js';
import { packageStatements } from './package-statements.fns.js';
import { regulationsOf } from './rights.fns.js';
import { categoriesInScope, type DataCategory } from './scope.fns.js';
import type { SubjectData } from './subject-data.types.js';

/** The request a package answers: its id, key, scope (parsed) and regulation label. */
export interface PackageRequest {
  id: string;
  workspace_id: string;
  subject_provider: string;
  subject_id: string;
  scope: string[];
  /** `gdpr`, `ccpa` or `ccpa+gdpr`. */
  regulation: string;
}

/** The policy facts an access package states: the workspace's effective policy. */
export interface PackagePolicy {
  retention_days: number;
  auto_erase_on_deprovision: boolean;
}

/** Distinct string values of `field` in the stored events' data, oldest first, except `current`. */
function earlierValues(events: readonly IdentityEventRow[], field: string, current: string | null): string[] {
  const values: string[] = [];
  for (const event of events) {
    const value = (JSON.parse(event.data) as Record<string, unknown>)[field];
    if (typeof value === 'string' && value !== current && !values.includes(value)) values.push(value);
  }
  return values;
}

function accountData(data: SubjectData): AccountData {
  const { subject } = data;
  return {
    identity: subject ? { provider: subject.subject_provider, id: subject.subject_id } : null,
    state: subject?.state ?? null,
    username: subject?.username ?? null,
    earlier_usernames: earlierValues(data.identityEvents, 'username', subject?.username ?? null),
    linked_accounts: data.linked.map((a) => ({ provider: a.provider, account_id: a.account_id, login: a.login ?? null })),
    identity_events: data.identityEvents.map((e) => ({
      event_id: e.event_id,
      type: e.event_type,
      occurred_at: e.occurred_at,
      received_at: e.received_at,
    })),
    privacy_requests: data.requests.map((r) => ({
      id: r.id,
      request_type: r.request_type,
      status: r.status,
      created_at: r.created_at,
      completed_at: r.completed_at,
    })),
  };
}

/** A change event as a package shows it: the repository as the provider spelled it (lower-cased for older events). */
function changeEventData(row: ChangeEventRow): ChangeEventData {
  const { id, provider, number, action, title, head_sha, received_at, author_account_id, author_login } = row;
  const repository = row.repository_display ?? row.repository;
  return { id, provider, repository, number, action, title, head_sha, received_at, author_account_id, author_login };
}

/** The data of every category in `scope`, each present even when empty. */
export function packageData(scope: readonly string[], data: SubjectData): PackageData {
  const out: PackageData = {};
  const s = data.subject;
  for (const category of categoriesInScope(scope)) {
    if (category === 'user.account') out[category] = accountData(data);
    if (category === 'user.contact.email')
      out[category] = { email: s?.email ?? null, earlier_values: earlierValues(data.identityEvents, 'email', s?.email ?? null) };
    if (category === 'user.name')
      out[category] = { name: s?.name ?? null, earlier_values: earlierValues(data.identityEvents, 'name', s?.name ?? null) };
    if (category === 'user.content') out[category] = { change_events: data.changeEvents.map(changeEventData) };
  }
  return out;
}

/**
 * The sentence naming the right a package answers, by request type and regulation label (GDPR
 * Art. 15 or 20; CCPA §1798.110 or §1798.130(a)(2)(B)), in plain words.
 */
export function controllerNote(kind: 'access' | 'export', regulation: string): string {
  const regulations = regulationsOf(regulation);
  const gdpr =
    kind === 'access'
      ? 'Your right of access (GDPR Art. 15): the personal data we hold about you, why we use it, who receives it, how long we keep it and where it came from.'
      : 'Your right to data portability (GDPR Art. 20): the personal data we hold about you, in a structured, commonly used and machine-readable file (JSON).';
  const ccpa =
    kind === 'access'
      ? 'Your right to know (Cal. Civ. Code §1798.110): the personal information we collected about you, where it came from, why we use it and with whom we share it.'
      : 'Your copy in a portable, readily usable format (Cal. Civ. Code §1798.130(a)(2)(B)).';
  return [...(regulations.includes('gdpr') ? [gdpr] : []), ...(regulations.includes('ccpa') ? [ccpa] : [])].join(' ');
}

function header(kind: 'access' | 'export', request: PackageRequest, now: Date) {
  return {
    request_id: request.id,
    workspace_id: request.workspace_id,
    subject: { provider: request.subject_provider, id: request.subject_id },
    generated_at: now.toISOString(),
    controller_note: controllerNote(kind, request.regulation),
  };
}

/**
 * The export package (GDPR Art. 20) of `data` for `request`: only the categories in scope; a
 * subject the service has never seen gets those categories empty, not an error. `controller`:
 * the workspace's profile when the package is built (null: none set), with the statements of
 * {@link packageStatements}.
 */
export function buildExportPackage(
  request: PackageRequest,
  data: SubjectData,
  now: Date,
  controller: ControllerProfileFields | null = null,
): ExportPackage {
  const { controller_note, ...rest } = header('export', request, now);
  return {
    format: EXPORT_FORMAT,
    ...rest,
    data: packageData(request.scope, data),
    controller_note,
    ...packageStatements(controller, regulationsOf(request.regulation)),
  };
}

const PROFILE_RECIPIENTS = ['No one outside the organisation: only the people who answer privacy requests see it.'];

function profileRetention(policy: PackagePolicy): string {
  return policy.auto_erase_on_deprovision
    ? 'Until your account is removed at the sign-in provider (we delete it then), or until you ask us to delete it.'
    : 'Until you ask us to delete it (removing your account at the sign-in provider does not delete it here).';
}

function contentSources(data: SubjectData): string[] {
  const providers = new Set(data.changeEvents.map((e) => e.provider));
  const all = providers.size === 0;
  return [
    ...(all || providers.has('github') ? ['GitHub, which tells us about pull requests'] : []),
    ...(all || providers.has('gitlab') ? ['GitLab, which tells us about merge requests'] : []),
  ];
}

/**
 * The GDPR Art. 15(1) statement for one category, in plain words to the person: purposes,
 * recipients, retention (the workspace policy's `retention_days` for change events; until
 * erased for the profile) and source.
 */
export function processingStatement(category: DataCategory, data: SubjectData, policy: PackagePolicy): ProcessingStatement {
  const idp = data.subject
    ? `The organisation's sign-in provider (${data.subject.subject_provider}), which tells us when your account is created or changed`
    : "The organisation's sign-in provider, which tells us when your account is created or changed";
  if (category === 'user.content')
    return {
      purposes: [
        'To record each pull or merge request you opened or changed, with the decision taken on how its code may be used.',
      ],
      recipients: ["The organisation's own tools that check pull and merge requests; no one outside the organisation."],
      retention: `${policy.retention_days} days after we received it (some code repositories may have a shorter period).`,
      source: contentSources(data),
    };
  const purposes: Record<Exclude<DataCategory, 'user.content'>, string> = {
    'user.account':
      'To recognise you and your linked GitHub or GitLab accounts, so that your privacy requests and the rules about authors cover all of them, and to keep a record of your privacy requests.',
    'user.contact.email': 'To recognise you as the sign-in provider describes you.',
    'user.name': 'To recognise you as the sign-in provider describes you.',
  };
  const retention =
    category === 'user.account'
      ? `${profileRetention(policy)} Records of your privacy requests are kept as proof that we answered them.`
      : profileRetention(policy);
  return { purposes: [purposes[category]], recipients: PROFILE_RECIPIENTS, retention, source: [idp] };
}

/**
 * The access package (GDPR Art. 15) of `data` for `request`: the export package's data plus,
 * per category in scope, a {@link ProcessingStatement}; both name the controller (`controller`,
 * the workspace's profile when the package is built, null when none is set), the further rights
 * and the absence of automated decision-making (GDPR Art. 15(1)(e)–(h)).
 */
export function buildAccessPackage(
  request: PackageRequest,
  data: SubjectData,
  policy: PackagePolicy,
  now: Date,
  controller: ControllerProfileFields | null = null,
): AccessPackage {
  const { controller_note, ...rest } = header('access', request, now);
  const processing: AccessPackage['processing'] = {};
  for (const category of categoriesInScope(request.scope)) processing[category] = processingStatement(category, data, policy);
  return {
    format: ACCESS_FORMAT,
    ...rest,
    data: packageData(request.scope, data),
    processing,
    controller_note,
    ...packageStatements(controller, regulationsOf(request.regulation)),
  };
}

/** True when dotted keys `a` and `b` overlap: one is the other or an ancestor of it. */
function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

/**
 * The data systems' part of a package (`systems.<key>`: category → data, PRODUCT §2.9) without
 * every category that overlaps an erased one (`user` holds `user.contact.email`, so it goes too).
 * @returns the erased categories some system's data was removed for.
 */
function systemsWithout(systems: unknown, erase: readonly DataCategory[]): DataCategory[] {
  if (typeof systems !== 'object' || systems === null) return [];
  const removed = new Set<DataCategory>();
  for (const [key, part] of Object.entries(systems as Record<string, unknown>)) {
    if (typeof part !== 'object' || part === null) continue;
    if (isCollectionPart(part)) {
      // A database system's rows (PRODUCT §2.14) carry no category per field here: the whole
      // part goes, whatever the erasure's scope (a copy erased beyond the scope, never one kept).
      delete (systems as Record<string, unknown>)[key];
      for (const category of erase) removed.add(category);
      continue;
    }
    for (const key of Object.keys(part)) {
      const hit = erase.filter((category) => overlaps(key, category));
      if (hit.length === 0) continue;
      delete (part as Record<string, unknown>)[key];
      for (const category of hit) removed.add(category);
    }
  }
  return [...removed];
}

/** A database system's part of a package: collection → rows (every value a list). */
function isCollectionPart(part: object): boolean {
  const values = Object.values(part);
  return values.length > 0 && values.every((value) => Array.isArray(value));
}

/**
 * A stored package with the categories in `erase` removed (from `data` and `processing`, and
 * every overlapping category from the data systems' part `systems`; a database system's rows go
 * whole), for an erasure of the same
 * subject (GDPR Art. 17): copies of erased data must not outlive it.
 *
 * @param json - the stored package (JSON text).
 * @returns the new JSON, or null when no data is left (or the text is not a package: then it is
 *   all dropped), and which categories it held that were removed.
 */
export function packageWithout(json: string, erase: readonly DataCategory[]): { json: string | null; removed: DataCategory[] } {
  let pkg: { data?: Record<string, unknown>; processing?: Record<string, unknown>; systems?: unknown };
  try {
    pkg = JSON.parse(json) as typeof pkg;
  } catch {
    return { json: null, removed: [...erase] };
  }
  if (typeof pkg !== 'object' || pkg === null || typeof pkg.data !== 'object' || pkg.data === null)
    return { json: null, removed: [...erase] };
  const inData = erase.filter((category) => category in (pkg.data as object));
  for (const category of erase) {
    delete pkg.data[category];
    if (pkg.processing) delete pkg.processing[category];
  }
  const inSystems = systemsWithout(pkg.systems, erase);
  const removed = erase.filter((category) => inData.includes(category) || inSystems.includes(category));
  if (removed.length === 0) return { json, removed };
  const systemsLeft =
    typeof pkg.systems === 'object' && pkg.systems !== null
      ? Object.values(pkg.systems as Record<string, object>).some(
          (part) => typeof part === 'object' && part !== null && Object.keys(part).length > 0,
        )
      : false;
  return { json: Object.keys(pkg.data).length === 0 && !systemsLeft ? null : JSON.stringify(pkg), removed };
}
