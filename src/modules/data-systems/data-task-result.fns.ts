import type { DataTaskRow } from './data-task.repository.js';

/** The result a system reported for its task (PRODUCT §2.9), as stored in `data_tasks.result`. */
export interface TaskResult {
  outcome: string;
  records?: Record<string, number>;
  data?: Record<string, unknown>;
  erased?: Record<string, number>;
  kept?: { category: string; reason: string }[];
  note?: string;
}

function resultOf(task: DataTaskRow): TaskResult | null {
  return task.result === null ? null : (JSON.parse(task.result) as TaskResult);
}

/**
 * The `systems` section of an access/export package: each system whose task completed, by key,
 * with the `data` it reported (category → JSON; `{}` when it sent none). Failed and
 * not-applicable tasks add nothing (a failed task fails the request anyway).
 */
export function packageSystems(tasks: readonly DataTaskRow[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const task of tasks) if (task.status === 'completed') out[task.system_key] = resultOf(task)?.data ?? {};
  return out;
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
      ...(result?.note !== undefined ? { note: result.note } : {}),
    };
  });
}

/**
 * A stored package or report (JSON text) with the systems' part added under `systems`: the
 * package of an access/export request ({@link packageSystems}), the report of a deletion or
 * correction ({@link reportSystems}). Null stays null (nothing was stored, or it was erased).
 */
export function withSystems(
  kind: 'package' | 'report',
  json: string | null,
  tasks: readonly DataTaskRow[],
  names: ReadonlyMap<string, string> = new Map(),
): string | null {
  if (json === null || tasks.length === 0) return json;
  const parsed = JSON.parse(json) as Record<string, unknown>;
  parsed.systems = kind === 'package' ? packageSystems(tasks) : reportSystems(tasks, names);
  return JSON.stringify(parsed);
}
