import type { DataTaskRow } from './data-task.repository.js';
import { isTaskOverdue } from './data-task.fns.js';

/** A data task as the API shows it (PRODUCT §2.9). */
export interface DataTaskResource {
  id: string;
  /** The task's privacy request; null for an opt-out's task. */
  request_id: string | null;
  /** The opt-out whose choice the task tells its system of (PRODUCT §2.18); null for a request's task. */
  opt_out_id: string | null;
  workspace_id: string;
  system_key: string;
  request_type: string;
  categories: string[];
  status: string;
  due_at: string;
  overdue: boolean;
  created_at: string;
  completed_at: string | null;
  /** What the system (or an operator) reported: `outcome`, `records`, `data`, `erased`, `kept`, `note`; null while pending. */
  result: Record<string, unknown> | null;
  /** `request` for a request's task, `opt_out` for an opt-out's. */
  links: { self: string; result: string; request?: string; opt_out?: string };
}

/** The API path of a task. */
export function taskLocation(id: string): string {
  return `/api/v1/data-tasks/${id}`;
}

/** Maps a stored task to the API resource; `overdue` as of `now` (RFC 3339 UTC). */
export function toTaskResource(row: DataTaskRow, now: string): DataTaskResource {
  return {
    id: row.id,
    request_id: row.opt_out_id === null ? row.request_id : null,
    opt_out_id: row.opt_out_id,
    workspace_id: row.workspace_id,
    system_key: row.system_key,
    request_type: row.request_type,
    categories: JSON.parse(row.categories) as string[],
    status: row.status,
    due_at: row.due_at,
    overdue: isTaskOverdue(row, now),
    created_at: row.created_at,
    completed_at: row.completed_at,
    result: row.result === null ? null : (JSON.parse(row.result) as Record<string, unknown>),
    links: {
      self: taskLocation(row.id),
      result: `${taskLocation(row.id)}/result`,
      ...(row.opt_out_id === null
        ? { request: `/api/v1/privacy/requests/${row.request_id}` }
        : { opt_out: `/api/v1/privacy/opt-outs/${row.opt_out_id}` }),
    },
  };
}
