import { runUnitOfWork } from '../../db/unit-of-work.js';
import type { Executor } from '../../db/executor.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { decodeBoundCursor, encodeBoundCursor } from '../../lib/cursor.js';
import { actorFields, recordAudit } from '../audit/audit.repository.js';
import { lockRequest } from '../privacy-requests/privacy-request.repository.js';
import { SCOPE_KEYS } from '../data-categories/data-categories.fns.js';
import { coversSystem, coversWorkspace, type Principal } from '../principals/principal.js';
import { endRequestIfDone } from '../privacy-requests/lifecycle/request-end.js';
import { type TaskOutcome, withinTask } from './data-task.fns.js';
import type { DataTaskStatus } from '../../db/tables/data-system.table.js';
import { type DataTaskRow, findTask, finishTask, listTasks } from './data-task.repository.js';
import { type DataTaskResource, toTaskResource } from './data-task.resource.js';
import type { TaskResult } from './data-task-result.fns.js';

/** No such task, or not one the caller may see (another workspace, or a system its token is not limited to): 404. */
export class DataTaskNotFoundError extends Error {}

/** The task already has its final result; results are immutable (409). */
export class TaskAlreadyFinalError extends Error {
  constructor(readonly status: string) {
    super(`the task is already ${status}`);
  }
}

/** A result names categories outside the task, or data a task of its type does not take (422). */
export class TaskResultRefusedError extends Error {
  constructor(readonly problems: readonly { loc: (string | number)[]; input: unknown; problem: string }[]) {
    super('task result refused');
  }
}

/** What `POST /api/v1/data-tasks/{id}/result` takes (validated by the route's schema). */
export interface TaskResultInput {
  outcome: TaskOutcome;
  records?: Record<string, number>;
  data?: Record<string, unknown>;
  erased?: Record<string, number>;
  kept?: { category: string; reason: string }[];
  note?: string;
}

/** Filters of `GET /api/v1/data-tasks`. */
export interface ListTasksInput {
  workspaces: readonly string[] | '*';
  system_key?: string;
  status?: DataTaskStatus;
  overdue?: boolean;
  cursor?: string;
  limit: number;
}

/** True when the reader may see the task: its workspace, and its system when the token is limited to systems. */
function mayRead(reader: Principal, task: DataTaskRow): boolean {
  return coversWorkspace(reader, task.workspace_id) && coversSystem(reader, task.system_key);
}

/** Every category a result names, with where, checked against the task's categories and the request type. */
function resultProblems(task: DataTaskRow, input: TaskResultInput): TaskResultRefusedError['problems'] {
  const categories = JSON.parse(task.categories) as string[];
  const named: { loc: (string | number)[]; category: string }[] = [
    ...Object.keys(input.records ?? {}).map((c) => ({ loc: ['body', 'records', c], category: c })),
    ...Object.keys(input.data ?? {}).map((c) => ({ loc: ['body', 'data', c], category: c })),
    ...Object.keys(input.erased ?? {}).map((c) => ({ loc: ['body', 'erased', c], category: c })),
    ...(input.kept ?? []).map((k, i) => ({ loc: ['body', 'kept', i, 'category'], category: k.category })),
  ];
  const problems: { loc: (string | number)[]; input: unknown; problem: string }[] = [];
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
  if (input.data !== undefined && task.request_type !== 'access' && task.request_type !== 'export')
    problems.unshift({
      loc: ['body', 'data'],
      input: '[redacted]',
      problem: `data is only reported for access and export tasks`,
    });
  return problems;
}

/** The result as stored: the input's fields, nothing else. */
function storedResult(input: TaskResultInput): TaskResult {
  const { outcome, records, data, erased, kept, note } = input;
  return {
    outcome,
    ...(records !== undefined ? { records } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(erased !== undefined ? { erased } : {}),
    ...(kept !== undefined ? { kept } : {}),
    ...(note !== undefined ? { note } : {}),
  };
}

/** A task list cursor's position: the last task id of the page. */
const isTaskPosition = (p: readonly unknown[]): p is [string] =>
  p.length === 1 && typeof p[0] === 'string' && /^task_[0-9A-HJKMNP-TV-Z]{26}$/.test(p[0]);

/**
 * Data tasks (PRODUCT §2.9): listing and reading them, and a system's (or an operator's)
 * result. The last final result of a request whose own step is done ends it in the same unit of
 * work ({@link endRequestIfDone}).
 */
export function createDataTaskService(deps: { db: Executor; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /**
     * A page of tasks, newest first; `next_cursor` is bound to these filters.
     * @throws InvalidCursorError (lib/cursor.ts) for a cursor not issued here or issued for another query.
     */
    async list(reader: Principal, input: ListTasksInput): Promise<{ items: DataTaskResource[]; next_cursor: string | null }> {
      const filters = {
        w: input.workspaces,
        k: input.system_key ?? null,
        st: input.status ?? null,
        o: input.overdue ?? false,
        sys: reader.systems === undefined ? null : [...reader.systems].sort(),
      };
      const before = input.cursor === undefined ? undefined : decodeBoundCursor(input.cursor, filters, isTaskPosition)[0];
      const now = toTimestamp(clock());
      const rows = await listTasks(db, {
        workspaces: input.workspaces,
        ...(input.system_key !== undefined ? { systemKey: input.system_key } : {}),
        ...(reader.systems !== undefined ? { systems: [...reader.systems] } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.overdue ? { overdueAt: now } : {}),
        ...(before !== undefined ? { before } : {}),
        limit: input.limit + 1,
      });
      const items = rows.slice(0, input.limit);
      const last = items.at(-1);
      const next_cursor = rows.length > input.limit && last ? encodeBoundCursor([last.id], filters) : null;
      return { items: items.map((row) => toTaskResource(row, now)), next_cursor };
    },

    /** One task the reader may see. @throws DataTaskNotFoundError. */
    async get(reader: Principal, id: string): Promise<DataTaskResource> {
      const row = await findTask(db, id);
      if (!row || !mayRead(reader, row)) throw new DataTaskNotFoundError(id);
      return toTaskResource(row, toTimestamp(clock()));
    },

    /**
     * Records a task's result (final, immutable), audited (`data_task.<outcome>`, the request
     * id, counts and categories in `details`, never the data); ends the request when it was the
     * last pending task and the request's own step is done.
     * @throws DataTaskNotFoundError, TaskAlreadyFinalError, TaskResultRefusedError.
     */
    async report(principal: Principal, id: string, input: TaskResultInput): Promise<DataTaskResource> {
      return runUnitOfWork(db, async (unit) => {
        const { tx } = unit;
        const seen = await findTask(tx, id);
        if (!seen || !mayRead(principal, seen)) throw new DataTaskNotFoundError(id);
        // The request's row first (the worker recording the request's own step takes it too).
        const request = await lockRequest(tx, seen.request_id);
        const task = await findTask(tx, id);
        if (!task || !request) throw new DataTaskNotFoundError(id);
        if (task.status !== 'pending') throw new TaskAlreadyFinalError(task.status);
        const problems = resultProblems(task, input);
        if (problems.length > 0) throw new TaskResultRefusedError(problems);
        const at = toTimestamp(clock());
        const result = JSON.stringify(storedResult(input));
        if (!(await finishTask(tx, id, { status: input.outcome, result, completed_at: at, updated_at: at })))
          throw new TaskAlreadyFinalError('final');
        recordAudit(unit, {
          ...actorFields(principal),
          requestId: task.request_id,
          action: `data_task.${input.outcome}`,
          targetType: 'data_task',
          targetId: id,
          workspaceId: task.workspace_id,
          details: {
            request_id: task.request_id,
            system_key: task.system_key,
            from: 'pending',
            to: input.outcome,
            ...(input.records ? { records: input.records } : {}),
            ...(input.erased ? { erased: input.erased } : {}),
            ...(input.kept ? { kept: input.kept.map((k) => k.category) } : {}),
            ...(input.data ? { data_categories: Object.keys(input.data) } : {}),
          },
          occurredAt: at,
        });
        await endRequestIfDone(unit, request, principal, at);
        return toTaskResource({ ...task, status: input.outcome, result, completed_at: at, updated_at: at }, at);
      });
    },
  };
}

export type DataTaskService = ReturnType<typeof createDataTaskService>;
