import type { DataTaskRow } from './data-task.repository.js';
import { isTaskOverdue } from './data-task.fns.js';

/** A data task as the API shows it (PRODUCT §2.9). */
export interface DataTaskResource {
  id: string;
  request_id: string;
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
  links: { self: string; result: string; request: string };
}

/** The API path of a task. */
export function taskLocation(id: string): string {
  return `/api/v1/data-tasks/${id}`;
}

/** Maps a stored task to the API resource; `overdue` as of `now` (RFC 3339 UTC). */
export function toTaskResource(row: DataTaskRow, now: string): DataTaskResource {
  return {
    id: row.id,
    request_id: row.request_id,
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
      request: `/api/v1/privacy/requests/${row.request_id}`,
    },
  };
}
