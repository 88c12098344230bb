import { Type } from '@sinclair/typebox';
import { SYSTEM_KEY_PATTERN, TASK_OUTCOMES, TASK_STATUSES } from '../../modules/data-systems/data-task.fns.js';
import { PageLimit, StringEnum } from './common.schemas.js';

/* Data tasks (PRODUCT §2.9): the list, a task, and the result a system reports. */

/** `GET /api/v1/data-tasks` query. */
export const ListDataTasksQuery = Type.Object({
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  system_key: Type.Optional(Type.String({ pattern: SYSTEM_KEY_PATTERN })),
  status: Type.Optional(StringEnum(TASK_STATUSES)),
  overdue: Type.Optional(Type.Boolean()),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  limit: PageLimit,
});

/** A data task. */
export const DataTaskResource = Type.Object({
  id: Type.String(),
  request_id: Type.Union([Type.String(), Type.Null()], { description: "The privacy request's id; null for an opt-out's task" }),
  opt_out_id: Type.Union([Type.String(), Type.Null()], {
    description: "The opt-out (`oo_…`) whose choice the task tells its system of (PRODUCT §2.18); null for a request's task",
  }),
  workspace_id: Type.String(),
  system_key: Type.String(),
  request_type: Type.String(),
  categories: Type.Array(Type.String()),
  status: StringEnum(TASK_STATUSES),
  due_at: Type.String({ format: 'date-time' }),
  overdue: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  result: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  links: Type.Object({
    self: Type.String(),
    result: Type.String(),
    request: Type.Optional(Type.String({ description: "A request's task: its request" })),
    opt_out: Type.Optional(Type.String({ description: "An opt-out's task: its opt-out" })),
  }),
});

export const DataTaskPage = Type.Object({
  items: Type.Array(DataTaskResource),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export const DataTaskIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });

/** category → count (a non-negative integer). */
const Counts = Type.Unsafe<Record<string, number>>({
  type: 'object',
  additionalProperties: { type: 'integer', minimum: 0 },
  description: 'data category → number of records',
});

/** `POST /api/v1/data-tasks/{id}/result` body (PRODUCT §2.9). */
export const TaskResultBody = Type.Object({
  outcome: StringEnum(TASK_OUTCOMES),
  records: Type.Optional(Counts),
  data: Type.Optional(
    Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      additionalProperties: {},
      description: 'access/export: data category → the JSON the system holds (it goes into the package under systems.<key>)',
    }),
  ),
  erased: Type.Optional(Counts),
  kept: Type.Optional(
    Type.Array(
      Type.Object({
        category: Type.String({ minLength: 1, maxLength: 100 }),
        reason: Type.String({ minLength: 1, maxLength: 500 }),
      }),
      { maxItems: 50 },
    ),
  ),
  note: Type.Optional(Type.String({ maxLength: 2000 })),
  delivered_separately: Type.Optional(
    Type.Boolean({
      description:
        "access/export: the system's answer reaches the person another way (by post, from the system itself); a completed result then needs no data or records (PRODUCT §2.13)",
    }),
  ),
});
