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
      "A downstream system of a workspace that holds personal data and receives data tasks (PRODUCT §2.9, §2.14). `kind`: `webhook` (an `endpoint_id` is told of each task), `manual` (an operator answers), or a database the service runs itself: `postgres`, `mysql` (MySQL and MariaDB) with a write-only `connection.url` (sealed at rest, its host allowed by `CONNECTOR_ALLOWED_HOSTS`) and a Fides `dataset` (object or YAML string; every check a 422 whose `loc` points into the dataset); database kinds default `categories` to the dataset's `user.*` categories and `request_types` to all four. `key` is unique per workspace, deleted systems included (409); so is the dataset's `fides_key` among live systems (409); past `MAX_DATA_SYSTEMS_PER_WORKSPACE` live systems, a 409. A dataset of more than 500 collections, 5 000 fields or 250 000 values once its YAML aliases are expanded is a 413 naming the limit; nesting past 64 levels a 422; a 422's `input` is cut to 1 KiB (PRODUCT §2.17). An `endpoint_id` that is not a webhook endpoint of the same workspace is a 422. Any kind may declare its processing (PRODUCT §2.17): `purposes`, `recipients`, `retention`, `source`, plain-text lists the person reads in the access letter for this system (absent: the letter says the controller has not declared them). Audited (never the connection). Scope `admin`.",
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
      'Any of `name`, `categories`, `request_types`, `endpoint_id` (null: manual tasks), `due_days` (null: none), `purposes`, `recipients`, `retention`, `source` (null: not declared); for database systems `connection` and `dataset`, checked again as at registration (the same bounds: 413, 422 with `input` cut to 1 KiB). The kind never changes. New values apply to tasks created afterwards. Audited. Scope `admin`.',
  },
  'POST /api/v1/data-systems/{id}/preview': {
    operationId: 'previewDataSystem',
    summary: "Preview a database system's statements for a subject",
    description:
      "The statements a task of `request_type` would run for the subject (PRODUCT §2.14), in order, with placeholders and never values, and the rows each would touch. The access pass runs in a read-only transaction; a deletion's or correction's writes are planned, never run. `warnings` (PRODUCT §2.17) lists the collections whose columns would refuse this deletion's masking (`cannot_mask`: NOT NULL masked with null, UNIQUE with one fixed value, longer than the column) or are searched without an index (`unindexed`, with the table's row estimate); null when the catalog could not be read. `scope` defaults to the system's categories. Webhook and manual systems: 409. A database failure: 502 naming system and collection, never the connection. Scope `admin`.",
  },
  'POST /api/v1/data-systems/{id}/test': {
    operationId: 'testDataSystem',
    summary: 'Test a database system',
    description:
      'Connects (through the allowed-hosts check) and reports `reachable`, `latency_ms` and for each collection whether its table exists and its declared fields can be read and written (statements that touch no row, rolled back), `cannot_mask` (fields an erasure may write whose column refuses the masking: NOT NULL with null, UNIQUE with one fixed rewrite value, a value longer than the column) and `unindexed` (identity and reference columns the search uses that no index starts with, with the row estimate); both null when the table could not be looked at (PRODUCT §2.17). A missing database or a refused login answers `reachable: false` with the reason. Writes nothing. Webhook and manual systems: 409. Scope `admin`.',
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
      "A task with its result. `status` `not_searchable` (set by the service for a database system only, PRODUCT §2.17): none of the system's identity fields could be filled from the request's identities; its result names them (`searched_by`) and those the request had (`request_had`). Outside the caller's workspaces or systems: 404. Scope `privacy:read` or `tasks:write`.",
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
      'The data categories the service accepts (PRODUCT §2.14): the keys of the Fides (fideslang) default taxonomy, named in plain words. `scope: true`: a `user.*` key, valid in a request `scope` and a data system `categories`; `system.*` keys label dataset fields only and never reach a package. Any authenticated token.',
  },
  'GET /api/v1/change-events': {
    operationId: 'listChangeEvents',
    summary: 'List change events',
    description: 'Recorded pull/merge-request events with their policy decision, newest first. Scope `privacy:read`.',
  },
};
