import { Type } from '@sinclair/typebox';
import type { OperationDoc } from './operation-doc.js';

/** A bodiless answer, documented. */
const empty = (description: string) => Type.Null({ description });

/** The operations of `/api/v1/data-systems` and `/api/v1/data-tasks` (PRODUCT §2.9), merged into `OPERATIONS`. */
export const DATA_SYSTEM_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  'POST /api/v1/data-systems': {
    operationId: 'createDataSystem',
    summary: 'Register a data system',
    description:
      'A downstream system of a workspace that holds personal data and receives data tasks (PRODUCT §2.9). `key` is unique per workspace, deleted systems included (409). An `endpoint_id` that is not a webhook endpoint of the same workspace is a 422. Audited. Scope `admin`.',
  },
  'GET /api/v1/data-systems': {
    operationId: 'listDataSystems',
    summary: 'List data systems',
    description: 'The live (not deleted) data systems of the workspaces the token covers, or of `workspace_id`. Scope `admin`.',
  },
  'GET /api/v1/data-systems/{id}': {
    operationId: 'getDataSystem',
    summary: 'Get a data system',
    description: 'A live data system; deleted ones and those of other workspaces are 404. Scope `admin`.',
  },
  'PATCH /api/v1/data-systems/{id}': {
    operationId: 'updateDataSystem',
    summary: 'Change a data system',
    description:
      'Any of `name`, `categories`, `request_types`, `endpoint_id` (null: manual tasks), `due_days` (null: none). New values apply to tasks created afterwards. Audited. Scope `admin`.',
  },
  'DELETE /api/v1/data-systems/{id}': {
    operationId: 'deleteDataSystem',
    summary: 'Delete a data system',
    description:
      'It gets no new tasks; its open tasks stay and can still be answered; its key stays reserved. Audited. Scope `admin`.',
    responses: { 204: empty('Deleted') },
  },
  'GET /api/v1/data-tasks': {
    operationId: 'listDataTasks',
    summary: 'List data tasks',
    description:
      'Tasks of the workspaces the token covers (of its systems only, for a token limited to systems), newest first, cursor-paged; `overdue=true`: pending and past `due_at`. Scope `privacy:read` or `tasks:write`.',
  },
  'GET /api/v1/data-tasks/{id}': {
    operationId: 'getDataTask',
    summary: 'Get a data task',
    description:
      "A task with its result. Outside the caller's workspaces or systems: 404. Scope `privacy:read` or `tasks:write`.",
  },
  'POST /api/v1/data-tasks/{id}/result': {
    operationId: 'reportDataTaskResult',
    summary: "Report a data task's result",
    description:
      "The final outcome of a task (`completed`, `failed`, `not_applicable`) with counts, data (access/export) and what was erased and kept (deletion). Immutable once final (409). Categories outside the task are a 422. The last pending task's result ends the request (completed, or failed naming the systems). Audited. Scope `tasks:write`, the task's workspace and, for a token limited to systems, its system (else 404).",
  },
  'GET /api/v1/data-categories': {
    operationId: 'listDataCategories',
    summary: 'List data categories',
    description:
      'The Fides (fideslang) default data-category taxonomy the service accepts (PRODUCT §2.14), with the vendored version and source. `scope: true`: a `user.*` key, valid in a request `scope` and a data system `categories`; `system.*` keys label dataset fields only and never reach a package. Any authenticated token.',
  },
  'GET /api/v1/change-events': {
    operationId: 'listChangeEvents',
    summary: 'List change events',
    description: 'Recorded pull/merge-request events with their policy decision, newest first. Scope `privacy:read`.',
  },
};
