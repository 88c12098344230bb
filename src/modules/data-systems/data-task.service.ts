import type { Executor } from '../../db/executor.js';
import type { DataTaskStatus } from '../../db/tables/data-system.table.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { decodeBoundCursor, encodeBoundCursor } from '../../lib/cursor.js';
import { coversSystem, coversWorkspace, type Principal } from '../principals/principal.js';
import { DataTaskNotFoundError } from './data-task.errors.js';
import { type DataTaskRow, findTask, listTasks } from './data-task.repository.js';
import { type DataTaskResource, toTaskResource } from './data-task.resource.js';

/** Filters of `GET /api/v1/data-tasks`. */
export interface ListTasksInput {
  workspaces: readonly string[] | '*';
  system_key?: string;
  status?: DataTaskStatus;
  overdue?: boolean;
  cursor?: string;
  limit: number;
}

/** A task list cursor's position: the last task id of the page. */
const isTaskPosition = (p: readonly unknown[]): p is [string] =>
  p.length === 1 && typeof p[0] === 'string' && /^task_[0-9A-HJKMNP-TV-Z]{26}$/.test(p[0]);

/**
 * Reading data tasks (PRODUCT §2.9): listing and reading them as a principal may see them. A
 * task's result is reported through the request's lifecycle owner
 * (workflows/tasks/task-result.ts), since it may end the request.
 */
/** True when the reader may see the task: its workspace, and its system when the token is limited to systems. */
export function mayReadTask(reader: Principal, task: DataTaskRow): boolean {
  return coversWorkspace(reader, task.workspace_id) && coversSystem(reader, task.system_key);
}

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
      if (!row || !mayReadTask(reader, row)) throw new DataTaskNotFoundError(id);
      return toTaskResource(row, toTimestamp(clock()));
    },
  };
}

export type DataTaskService = ReturnType<typeof createDataTaskService>;
