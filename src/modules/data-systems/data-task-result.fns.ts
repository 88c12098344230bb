import { SCOPE_KEYS } from '../data-categories/data-categories.fns.js';
import { NOT_SEARCHABLE, type TaskFinalStatus, withinTask } from './data-task.fns.js';
import type { DataTaskRow } from './data-task.repository.js';

/** One refused part of a result: where (`loc`), what was sent there, and why. */
export interface ResultProblem {
  loc: (string | number)[];
  input: unknown;
  problem: string;
}

/**
 * The result a system reported for its task (PRODUCT §2.9), as stored in `data_tasks.result`: the
 * input as accepted (`delivered_separately` kept only when true).
 */
export interface TaskResult extends Omit<TaskResultInput, 'outcome' | 'delivered_separately'> {
  outcome: string;
  /** The system's answer reaches the person another way (PRODUCT §2.13); set only when true. */
  delivered_separately?: true;
}

function resultOf(task: DataTaskRow): TaskResult | null {
  return task.result === null ? null : (JSON.parse(task.result) as TaskResult);
}

/**
 * The `systems` section of a deletion (or correction) report: one entry per task, by system key,
 * in the shape the served report expects (`SystemReportPart` of
 * privacy-requests/report-context.fns.ts): the system's key and name, the task's outcome, the
 * categories it covered, what it erased (category → count) and kept (category and reason), and
 * its note. No personal data: systems report counts and reasons only.
 *
 * @param names - system key → name (a system deleted since keeps its name; unknown: the key).
 */
export function reportSystems(tasks: readonly DataTaskRow[], names: ReadonlyMap<string, string>): Record<string, unknown>[] {
  return tasks.map((task) => {
    const result = resultOf(task);
    return {
      key: task.system_key,
      name: names.get(task.system_key) ?? task.system_key,
      outcome: task.status,
      categories: JSON.parse(task.categories) as string[],
      erased: result?.erased ?? {},
      kept: result?.kept ?? [],
      ...(result?.collections !== undefined ? { collections: result.collections } : {}),
      ...(result?.note !== undefined ? { note: result.note } : {}),
      ...(result?.searched_by !== undefined ? { searched_by: result.searched_by } : {}),
      ...(result?.request_had !== undefined ? { request_had: result.request_had } : {}),
    };
  });
}

/**
 * A stored package or report (JSON text) with `member` (its value as JSON text) added as its last
 * member: the same text `JSON.stringify` gives for the document with that member added. Null
 * stays null (nothing was stored, or it was erased).
 */
export function withMember(
  json: string | null,
  member: 'systems' | 'system_answers' | 'system_processing',
  value: string,
): string | null {
  if (json === null) return null;
  const parsed = JSON.parse(json) as Record<string, unknown>;
  // A document that already has the member keeps its member order (JSON.parse + assign does that).
  if (Object.hasOwn(parsed, member)) return JSON.stringify({ ...parsed, [member]: JSON.parse(value) as unknown });
  return Object.keys(parsed).length === 0
    ? `{${JSON.stringify(member)}:${value}}`
    : `${json.slice(0, json.lastIndexOf('}'))},${JSON.stringify(member)}:${value}}`;
}

/**
 * What a completed task's system said besides its data, as the package's `system_answers.<key>`
 * holds it (PRODUCT §2.13): its `records` counts and `delivered_separately`, when given. The
 * letter reads it to say what the system answered (docs/true-answers.md, "What a system answered").
 */
export interface SystemAnswer {
  records?: Record<string, number>;
  delivered_separately?: true;
  /**
   * The system could not be searched with any identity the request had (PRODUCT §2.17): it holds
   * no `systems.<key>` member, and the letter says it was not searched, never "holds no data".
   */
  not_searchable?: true;
  /** With `not_searchable`: the identities the system is searched by, and those the request had (names). */
  searched_by?: string[];
  request_had?: string[];
}

/**
 * A final task's {@link SystemAnswer}: a completed one's `records` and `delivered_separately`,
 * when given; a `not_searchable` one's identities. Null for other statuses (no answer to show).
 */
export function answerOf(status: string, result: TaskResult | null): SystemAnswer | null {
  if (status === NOT_SEARCHABLE)
    return { not_searchable: true, searched_by: result?.searched_by ?? [], request_had: result?.request_had ?? [] };
  if (status !== 'completed') return null;
  return {
    ...(result?.records !== undefined ? { records: result.records } : {}),
    ...(result?.delivered_separately === true ? { delivered_separately: true as const } : {}),
  };
}

/**
 * One member of an access/export package's `systems` (JSON text, `"<key>":<data>`): the `data`
 * a completed task's system reported, `{}` when none (failed and not-applicable tasks add no
 * member; the caller skips them). What else the system said goes under `system_answers`
 * ({@link answerOf}).
 */
export function packageMember(systemKey: string, result: TaskResult | null): string {
  return `${JSON.stringify(systemKey)}:${JSON.stringify(result?.data ?? {})}`;
}

/**
 * A deletion's (or correction's) stored report with the systems' part added under `systems`
 * ({@link reportSystems}). Null stays null; with no task the report is unchanged.
 *
 * @param names - system key → name (unknown: the key).
 */
export function reportWithSystems(
  json: string | null,
  tasks: readonly DataTaskRow[],
  names: ReadonlyMap<string, string>,
): string | null {
  if (json === null || tasks.length === 0) return json;
  return withMember(json, 'systems', JSON.stringify(reportSystems(tasks, names)));
}

/** What `POST /api/v1/data-tasks/{id}/result` takes (validated by the route's schema). */
export interface TaskResultInput {
  /** The API's outcomes; `not_searchable` from the service's own connector only (PRODUCT §2.17). */
  outcome: TaskFinalStatus;
  records?: Record<string, number>;
  /** Category → JSON (a system's answer), or collection → rows (a connector's, `data_by: 'collection'`). */
  data?: Record<string, unknown>;
  erased?: Record<string, number>;
  kept?: { category: string; reason: string }[];
  note?: string;
  delivered_separately?: boolean;
  /**
   * A connector's answer: `data` by collection (PRODUCT §2.14: `systems.<key>.<collection>`). Set
   * by the service's own executors only (the API's schema has no such field).
   */
  data_by?: 'collection';
  /** A connector's deletion or correction: rows masked/deleted (or updated) per collection. */
  collections?: Record<string, Record<string, number>>;
  /** `not_searchable`: the identities the system's dataset is searched by (`email`, `phone_number`, …). */
  searched_by?: string[];
  /** `not_searchable`: the identities the request had (names only, never values). */
  request_had?: string[];
}

/** Why a completed access/export result without an answer is refused (PRODUCT §2.13), as the 422 says it. */
export const ANSWER_NEEDED =
  'a completed access or export result carries data or records (counts, zeros included), ' +
  'or delivered_separately: true when the answer reaches the person another way';

/**
 * Whether `input` is a completed access/export result that says nothing of what the system holds
 * (PRODUCT §2.13): no `data`, no `records`, not `delivered_separately`. Such a result would make
 * the letter say "holds no data" for a system that never said so.
 */
export function lacksAnswer(input: TaskResultInput, takesData: boolean): boolean {
  return (
    takesData &&
    input.outcome === 'completed' &&
    input.data === undefined &&
    input.records === undefined &&
    input.delivered_separately !== true
  );
}

/**
 * Every category a result names, with where, checked against the task's categories; and `data`,
 * refused unless the task's request type produces a package (`takesData`: access and export,
 * said by the request type's traits, modules/privacy-requests/request-types.ts); and a completed
 * access/export result with no answer ({@link lacksAnswer}), at `["body"]` with `sent` (the body
 * as the client sent it) as input, as a Pydantic `model_validator` reports it.
 */
export function resultProblems(
  task: DataTaskRow,
  input: TaskResultInput,
  takesData: boolean,
  sent: unknown = input,
): ResultProblem[] {
  const categories = JSON.parse(task.categories) as string[];
  // A connector's data is by collection (its rows hold only fields in the task's categories).
  const dataCategories = input.data_by === 'collection' ? [] : Object.keys(input.data ?? {});
  const named: { loc: (string | number)[]; category: string }[] = [
    ...Object.keys(input.records ?? {}).map((c) => ({ loc: ['body', 'records', c], category: c })),
    ...dataCategories.map((c) => ({ loc: ['body', 'data', c], category: c })),
    ...Object.keys(input.erased ?? {}).map((c) => ({ loc: ['body', 'erased', c], category: c })),
    ...(input.kept ?? []).map((k, i) => ({ loc: ['body', 'kept', i, 'category'], category: k.category })),
  ];
  const problems: ResultProblem[] = [];
  for (const { loc, category } of named) {
    if (!(SCOPE_KEYS as readonly string[]).includes(category))
      problems.push({ loc, input: category, problem: `unknown data category ${category}` });
    else if (!withinTask(categories, category))
      problems.push({
        loc,
        input: category,
        problem: `category ${category} is outside the task's categories (${categories.join(', ')})`,
      });
  }
  if (input.data !== undefined && !takesData)
    problems.unshift({
      loc: ['body', 'data'],
      input: '[redacted]',
      problem: `data is only reported for access and export tasks`,
    });
  if (lacksAnswer(input, takesData)) problems.push({ loc: ['body'], input: sent, problem: ANSWER_NEEDED });
  return problems;
}

/**
 * Whether a system's answer holds nothing (PRODUCT §2.13): null, `""`, `[]`, or an object all of
 * whose values hold nothing. The letter's "holds no data of yours" uses the same rule.
 */
export function isEmptyAnswer(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value).every(isEmptyAnswer);
  return false;
}

/** The keys of `data` (categories, or a connector's collections) whose values hold something ({@link isEmptyAnswer}). */
export function heldCategories(data: Record<string, unknown>): string[] {
  return Object.keys(data).filter((key) => !isEmptyAnswer(data[key]));
}

/**
 * A stored result without its `data` (personal data), keeping which categories held something
 * (`data_categories`), or null when it has no `data` (nothing to drop).
 */
export function withoutData(result: TaskResult): string | null {
  const { data, ...rest } = result;
  if (data === undefined) return null;
  return JSON.stringify({ ...rest, data_categories: heldCategories(data) });
}

/** The result as stored: the input's fields, nothing else. */
export function storedResult(input: TaskResultInput): TaskResult {
  const { outcome, records, data, erased, kept, note, delivered_separately, data_by, collections, searched_by, request_had } =
    input;
  return {
    outcome,
    ...(records !== undefined ? { records } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(erased !== undefined ? { erased } : {}),
    ...(kept !== undefined ? { kept } : {}),
    ...(note !== undefined ? { note } : {}),
    ...(delivered_separately === true ? { delivered_separately } : {}),
    ...(data_by !== undefined ? { data_by } : {}),
    ...(collections !== undefined ? { collections } : {}),
    ...(searched_by !== undefined ? { searched_by } : {}),
    ...(request_had !== undefined ? { request_had } : {}),
  };
}
