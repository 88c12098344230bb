import { SCOPE_KEYS } from '../data-categories/data-categories.fns.js';
import { type TaskOutcome, withinTask } from './data-task.fns.js';
import type { DataTaskRow } from './data-task.repository.js';

/** One refused part of a result: where (`loc`), what was sent there, and why. */
export interface ResultProblem {
  loc: (string | number)[];
  input: unknown;
  problem: string;
}

/** The result a system reported for its task (PRODUCT §2.9), as stored in `data_tasks.result`. */
export interface TaskResult {
  outcome: string;
  records?: Record<string, number>;
  /** Category → JSON (a system's answer), or collection → rows (a connector's, `data_by: 'collection'`). */
  data?: Record<string, unknown>;
  erased?: Record<string, number>;
  kept?: { category: string; reason: string }[];
  note?: string;
  /** A connector's answer: `data` by collection (PRODUCT §2.14: `systems.<key>.<collection>`). */
  data_by?: 'collection';
  /** A connector's deletion or correction: rows masked/deleted (or updated) per collection. */
  collections?: Record<string, Record<string, number>>;
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
    };
  });
}

/**
 * A stored package or report (JSON text) with `systems` (JSON text) added as its last member:
 * the same text `JSON.stringify` gives for the document with that member added. Null stays null
 * (nothing was stored, or it was erased).
 */
export function withSystemsMember(json: string | null, systems: string): string | null {
  if (json === null) return null;
  const parsed = JSON.parse(json) as Record<string, unknown>;
  // A document that already names systems keeps its member order (JSON.parse + assign does that).
  if (Object.hasOwn(parsed, 'systems')) return JSON.stringify({ ...parsed, systems: JSON.parse(systems) as unknown });
  return Object.keys(parsed).length === 0
    ? `{"systems":${systems}}`
    : `${json.slice(0, json.lastIndexOf('}'))},"systems":${systems}}`;
}

/**
 * One member of an access/export package's `systems` (JSON text, `"<key>":<data>`): the `data`
 * a completed task's system reported, `{}` when none (failed and not-applicable tasks add no
 * member; the caller skips them).
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
  return withSystemsMember(json, JSON.stringify(reportSystems(tasks, names)));
}

/** What `POST /api/v1/data-tasks/{id}/result` takes (validated by the route's schema). */
export interface TaskResultInput {
  outcome: TaskOutcome;
  records?: Record<string, number>;
  data?: Record<string, unknown>;
  erased?: Record<string, number>;
  kept?: { category: string; reason: string }[];
  note?: string;
  /** Set by the service's own executors only (the API's schema has no such field): see {@link TaskResult}. */
  data_by?: 'collection';
  collections?: Record<string, Record<string, number>>;
}

/**
 * Every category a result names, with where, checked against the task's categories; and `data`,
 * refused unless the task's request type produces a package (`takesData`: access and export,
 * said by the request type's traits, modules/privacy-requests/request-types.ts).
 */
export function resultProblems(task: DataTaskRow, input: TaskResultInput, takesData: boolean): ResultProblem[] {
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
  return problems;
}

/**
 * A stored result without its `data` (personal data), keeping which categories it held
 * (`data_categories`), or null when it has no `data` (nothing to drop).
 */
export function withoutData(result: TaskResult): string | null {
  const { data, ...rest } = result;
  if (data === undefined) return null;
  return JSON.stringify({ ...rest, data_categories: Object.keys(data) });
}

/** The result as stored: the input's fields, nothing else. */
export function storedResult(input: TaskResultInput): TaskResult {
  const { outcome, records, data, erased, kept, note, data_by, collections } = input;
  return {
    outcome,
    ...(records !== undefined ? { records } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(erased !== undefined ? { erased } : {}),
    ...(kept !== undefined ? { kept } : {}),
    ...(note !== undefined ? { note } : {}),
    ...(data_by !== undefined ? { data_by } : {}),
    ...(collections !== undefined ? { collections } : {}),
  };
}
