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
 * The `systems` section of a deletion (or correction) report: per system, its task's status, the
 * categories it covered, what it erased (category → count) and kept (category and reason), and
 * its note. No personal data: systems report counts and reasons only.
 */
export function reportSystems(tasks: readonly DataTaskRow[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const task of tasks) {
    const result = resultOf(task);
    out[task.system_key] = {
      status: task.status,
      categories: JSON.parse(task.categories) as string[],
      erased: result?.erased ?? {},
      kept: result?.kept ?? [],
      ...(result?.note !== undefined ? { note: result.note } : {}),
    };
  }
  return out;
}

/**
 * A stored package or report (JSON text) with the systems' part added under `systems`: the
 * package of an access/export request ({@link packageSystems}), the report of a deletion or
 * correction ({@link reportSystems}). Null stays null (nothing was stored, or it was erased).
 */
export function withSystems(kind: 'package' | 'report', json: string | null, tasks: readonly DataTaskRow[]): string | null {
  if (json === null || tasks.length === 0) return json;
  const parsed = JSON.parse(json) as Record<string, unknown>;
  parsed.systems = kind === 'package' ? packageSystems(tasks) : reportSystems(tasks);
  return JSON.stringify(parsed);
}
