import type { ControllerProfileFields } from '../../modules/controllers/controller.types.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { automatedDecisions } from '../../modules/subject-data/package-statements.fns.js';
import { regulationsOf, rightsUnder } from '../../modules/subject-data/rights.fns.js';
import type { Regulation } from '../../modules/policies/policy.types.js';
import type { ProcessingStatement, RightStatement } from '../../modules/subject-data/package.types.js';
import { parseScope } from '../../modules/subject-data/scope.fns.js';
import type { CategoryPart, LetterInput, SystemAnswerPart, SystemPart, SystemProcessing } from './letter.types.js';
import type { NotSearchedPart } from './not-searched-part.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

function processingOf(value: unknown): ProcessingStatement | null {
  if (!isObject(value)) return null;
  return {
    purposes: strings(value.purposes),
    recipients: strings(value.recipients),
    retention: text(value.retention),
    source: strings(value.source),
  };
}

function categoriesOf(pkg: Json): CategoryPart[] {
  const data = isObject(pkg.data) ? pkg.data : {};
  const processing = isObject(pkg.processing) ? pkg.processing : {};
  return Object.entries(data).map(([key, value]) => ({ key, data: value, processing: processingOf(processing[key]) }));
}

/** A database system's collections as the package's `system_answers.<key>.collections` holds them (PRODUCT §2.17). */
function collectionsOf(value: unknown): SystemAnswerPart['collections'] {
  if (!isObject(value)) return undefined;
  const out: NonNullable<SystemAnswerPart['collections']> = {};
  for (const [name, part] of Object.entries(value)) {
    if (!isObject(part)) continue;
    const fields = isObject(part.fields) ? part.fields : {};
    out[name] = {
      rows: typeof part.rows === 'number' ? part.rows : 0,
      fields: Object.fromEntries(Object.entries(fields).map(([field, keys]) => [field, strings(keys)])),
    };
  }
  return out;
}

function answerOf(value: unknown): SystemAnswerPart | undefined {
  if (!isObject(value)) return undefined;
  const records = isObject(value.records)
    ? Object.fromEntries(Object.entries(value.records).filter((e): e is [string, number] => typeof e[1] === 'number'))
    : undefined;
  const collections = collectionsOf(value.collections);
  return {
    ...(records ? { records } : {}),
    ...(value.delivered_separately === true ? { delivered_separately: true } : {}),
    ...(collections ? { collections } : {}),
  };
}

/** A system's declared processing as the package's `system_processing.<key>` holds it; a list absent or empty: not declared. */
function systemProcessingOf(value: unknown): SystemProcessing | undefined {
  if (!isObject(value)) return undefined;
  const declared = (v: unknown) => (strings(v).length > 0 ? strings(v) : null);
  return {
    purposes: declared(value.purposes),
    recipients: declared(value.recipients),
    retention: declared(value.retention),
    source: declared(value.source),
  };
}

/**
 * The package's `systems` (PRODUCT §2.9: `systems.<key>` holds each system's data) as parts,
 * each named by `names` (the workspace's data systems by key), with what each system said
 * besides its data from `answers` (the package's `system_answers`, PRODUCT §2.13) and what was
 * declared of its processing from `processing` (`system_processing`, §2.17). An entry
 * shaped `{name, data}` gives its own name; a key without a name is its own name.
 */
export function systemParts(
  value: unknown,
  names: ReadonlyMap<string, string> = new Map(),
  answers: unknown = undefined,
  processing: unknown = undefined,
): SystemPart[] | undefined {
  if (!isObject(value)) return undefined;
  const answered = isObject(answers) ? answers : {};
  const declared = isObject(processing) ? processing : {};
  return Object.entries(value).map(([key, part]) => {
    const answer = answerOf(answered[key]);
    const stated = systemProcessingOf(declared[key]);
    const named =
      isObject(part) && typeof part.name === 'string' && 'data' in part
        ? { key, name: part.name, data: part.data }
        : { key, name: names.get(key) ?? key, data: part };
    return { ...named, ...(answer ? { answer } : {}), ...(stated ? { processing: stated } : {}) };
  });
}

const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/**
 * The systems of the package's `system_answers` that could not be searched (PRODUCT §2.17:
 * `not_searchable: true`, with the identities each is searched by and those the request had),
 * each named by `systemNames` (a key without a name is its own name).
 */
export function notSearchedParts(answers: unknown, systemNames: ReadonlyMap<string, string> = new Map()): NotSearchedPart[] {
  if (!isObject(answers)) return [];
  return Object.entries(answers)
    .filter((entry): entry is [string, Json] => isObject(entry[1]) && entry[1].not_searchable === true)
    .map(([key, answer]) => ({
      key,
      name: systemNames.get(key) ?? key,
      searched_by: names(answer.searched_by),
      request_had: names(answer.request_had),
    }));
}

/**
 * The systems of a deletion (or correction) report that could not be searched (PRODUCT §2.17):
 * its `systems` entries whose `outcome` is `not_searchable`, by the name the report gives them.
 */
export function notSearchedInReport(report: unknown): NotSearchedPart[] {
  if (!isObject(report) || !Array.isArray(report.systems)) return [];
  return report.systems
    .filter((entry): entry is Json => isObject(entry) && entry.outcome === 'not_searchable')
    .map((entry) => ({
      key: text(entry.key),
      name: text(entry.name, text(entry.key)),
      searched_by: names(entry.searched_by),
      request_had: names(entry.request_had),
    }));
}

function rightsOf(value: unknown, controller: ControllerProfileFields | null, regulations: Regulation[]): RightStatement[] {
  if (!Array.isArray(value)) return rightsUnder(regulations, controller);
  return value.filter(isObject).map((r) => ({
    right: text(r.right),
    article: text(r.article),
    statement: text(r.statement),
    ...(typeof r.regulation === 'string' ? { regulation: r.regulation } : {}),
  }));
}

/**
 * What the letter of `pkg` (a stored access/export package, parsed, with its statements: see
 * request-results.service.ts) shows, with the request it answers and the names of the
 * workspace's data systems (`systemNames`, by key). Tolerant of older packages:
 * a missing part is left empty or stated from the service's own words.
 */
export function letterInput(pkg: Json, request: PrivacyRequestRow, systemNames?: ReadonlyMap<string, string>): LetterInput {
  const controller = isObject(pkg.controller) ? (pkg.controller as unknown as ControllerProfileFields) : null;
  const adm = isObject(pkg.automated_decision_making) ? pkg.automated_decision_making : null;
  const systems = systemParts(pkg.systems, systemNames, pkg.system_answers, pkg.system_processing);
  const notSearched = notSearchedParts(pkg.system_answers, systemNames);
  const confirmation = isObject(pkg.no_data_confirmation) ? text(pkg.no_data_confirmation.statement) : '';
  const regulations = regulationsOf(request.regulation);
  const noAdm = automatedDecisions(regulations);
  return {
    request: {
      id: request.id,
      type: request.request_type,
      workspace_id: request.workspace_id,
      subject: { provider: request.subject_provider, id: request.subject_id },
      received_at: request.received_at ?? request.created_at,
      completed_at: request.completed_at,
      scope: parseScope(request.scope),
    },
    generated_at: text(pkg.generated_at),
    format: text(pkg.format),
    controller,
    note: text(pkg.controller_note),
    categories: categoriesOf(pkg),
    ...(systems ? { systems } : {}),
    ...(notSearched.length > 0 ? { not_searched: notSearched } : {}),
    regulations,
    rights: rightsOf(pkg.rights, controller, regulations),
    automated_decision_making: adm ? { applies: false, statement: text(adm.statement, noAdm.statement) } : noAdm,
    ...(confirmation ? { no_data_confirmation: confirmation } : {}),
  };
}
