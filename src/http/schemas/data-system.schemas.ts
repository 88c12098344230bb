import { Type } from '@sinclair/typebox';
import {
  OPT_OUT_REQUEST_TYPES,
  SYSTEM_KEY_PATTERN,
  TASK_OUTCOMES,
  TASK_STATUSES,
} from '../../modules/data-systems/data-task.fns.js';
import { SCOPE_KEYS } from '../../modules/data-categories/data-categories.fns.js';
import { REQUEST_TYPES } from '../../modules/request-model/request-model.js';
import { PageLimit, StringEnum, SUBJECT_IDENTITY_CHECK } from './common.schemas.js';

/** A scope key (PRODUCT §1): a string first, then one of the keys, as for a request's `scope`. */
const Category = Type.Unsafe<(typeof SCOPE_KEYS)[number]>({ allOf: [Type.String(), StringEnum(SCOPE_KEYS)] });
const RequestTypeItem = Type.Unsafe<(typeof REQUEST_TYPES)[number]>({ allOf: [Type.String(), StringEnum(REQUEST_TYPES)] });

/** What a system may take: the four request types and the opt-out kinds (PRODUCT §2.18; a database system takes the four only). */
const SYSTEM_REQUEST_TYPES = [...REQUEST_TYPES, ...OPT_OUT_REQUEST_TYPES] as const;
const SystemRequestTypeItem = Type.Unsafe<(typeof SYSTEM_REQUEST_TYPES)[number]>({
  allOf: [Type.String(), StringEnum(SYSTEM_REQUEST_TYPES)],
});

const Categories = Type.Array(Category, { minItems: 1, maxItems: 20 });
const RequestTypes = Type.Array(SystemRequestTypeItem, {
  minItems: 1,
  maxItems: SYSTEM_REQUEST_TYPES.length,
  description:
    'Request types (`access`, `export`, `correction`, `deletion`) and, for webhook and manual systems, opt-out kinds (`opt_out_sale_sharing`, `limit_sensitive_use`, `object_direct_marketing`) the system is told of',
});
const ThirdParty = Type.Boolean({
  description:
    'The system belongs to a third party the personal information was sold or shared to (11 CCR §7026(f)(2)); default false',
});
const Name = Type.String({ minLength: 1, maxLength: 200 });
const DueDays = Type.Integer({ minimum: 1, maximum: 3650, description: 'Days a task has from its creation' });
const EndpointId = Type.String({ minLength: 1, maxLength: 40, description: 'A webhook endpoint (`ep_…`) of the same workspace' });
/** The kinds of data system (PRODUCT §2.14). */
export const SYSTEM_KINDS = ['webhook', 'manual', 'postgres', 'mysql'] as const;
const Kind = StringEnum(SYSTEM_KINDS, {
  description:
    '`webhook` (default with an endpoint_id), `manual` (default without), or a database the service runs itself: `postgres`, `mysql` (MySQL and MariaDB)',
});
/** Write-only: never returned, logged or audited; a 422 shows `[redacted]` in its place. */
const Connection = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        '`postgres://user:password@host:port/db?sslmode=disable|require|verify-full` or `mysql://…?ssl=false|true|verify`; no other parameter',
    }),
    sslrootcert: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20_000,
        description:
          'PEM text (not a file path) of the CA certificate(s) that signed the server certificate; with sslmode=verify-full (ssl=verify) only. Other keys are refused',
      }),
    ),
  },
  {
    writeOnly: true,
    additionalProperties: false,
    description:
      'Database kinds: how to reach the database (sealed at rest; its host must be allowed by CONNECTOR_ALLOWED_HOSTS)',
  },
);
const DatasetKey = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'Database kinds, with `dataset`: the `fides_key` of the dataset to take from a Fides file holding several (without it such a file is a 422 listing the keys)',
});
const DatasetInput = Type.Unsafe<unknown>({
  description:
    'Database kinds: a Fides dataset (PRODUCT §2.14): an object, or a YAML or JSON string; a bare dataset or a Fides file whose `dataset` list holds one (or several, with `dataset_key`). Checked by the service (422 with `loc` into the dataset).',
});

/** One declared statement: plain text, not blank. */
const Statement = Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' });
/** What the controller declares about the system's processing (PRODUCT §2.17), one list per field. */
const processingList = (what: string) =>
  Type.Array(Statement, {
    minItems: 1,
    maxItems: 20,
    description: `${what}, in plain words the person reads in the letter (GDPR Art. 15(1)); absent: not declared, and the letter says so`,
  });
const Purposes = processingList('Why the system holds personal data');
const Recipients = processingList('Who receives data from the system');
const Retention = processingList('How long the system keeps personal data, or the criteria');
const Source = processingList("Where the system's data came from");
/** A PATCH value: a new list, or null to withdraw the declaration (checked by the route). */
const nullableList = (what: string) =>
  Type.Unsafe<string[] | null>({ description: `${what}: a new list (1–20 strings of 1–500 characters), or null to withdraw it` });
const DeclaredList = Type.Union([Type.Array(Type.String()), Type.Null()]);

/** `POST /api/v1/data-systems` body (PRODUCT §2.9). */
export const CreateDataSystemBody = Type.Object({
  workspace_id: Type.String({ minLength: 1, maxLength: 200 }),
  key: Type.String({ pattern: SYSTEM_KEY_PATTERN }),
  name: Name,
  kind: Type.Optional(Kind),
  categories: Type.Optional(Categories),
  request_types: Type.Optional(RequestTypes),
  endpoint_id: Type.Optional(EndpointId),
  due_days: Type.Optional(DueDays),
  connection: Type.Optional(Connection),
  dataset: Type.Optional(DatasetInput),
  dataset_key: Type.Optional(DatasetKey),
  purposes: Type.Optional(Purposes),
  recipients: Type.Optional(Recipients),
  retention: Type.Optional(Retention),
  source: Type.Optional(Source),
  third_party: Type.Optional(ThirdParty),
});

/**
 * `PATCH /api/v1/data-systems/{id}` body: any of the changeable fields. `endpoint_id` and
 * `due_days` also take `null` (checked by the route: the validator has no unions).
 */
export const UpdateDataSystemBody = Type.Object({
  name: Type.Optional(Name),
  categories: Type.Optional(Categories),
  request_types: Type.Optional(RequestTypes),
  endpoint_id: Type.Optional(Type.Unsafe<string | null>({ description: 'An endpoint id, or null to make its tasks manual' })),
  due_days: Type.Optional(Type.Unsafe<number | null>({ description: '1–3650, or null for none' })),
  connection: Type.Optional(Connection),
  dataset: Type.Optional(DatasetInput),
  dataset_key: Type.Optional(DatasetKey),
  purposes: Type.Optional(nullableList('Purposes')),
  recipients: Type.Optional(nullableList('Recipients')),
  retention: Type.Optional(nullableList('Retention')),
  source: Type.Optional(nullableList('Source')),
  third_party: Type.Optional(ThirdParty),
});

/** A data system. */
export const DataSystemResource = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  key: Type.String(),
  name: Type.String(),
  categories: Type.Array(Type.String()),
  request_types: Type.Array(Type.String()),
  kind: StringEnum(SYSTEM_KINDS),
  endpoint_id: Type.Union([Type.String(), Type.Null()]),
  due_days: Type.Union([Type.Integer(), Type.Null()]),
  dataset: Type.Union([
    Type.Object(
      {
        fides_key: Type.String(),
        collections: Type.Array(Type.String()),
        identities: Type.Array(Type.String()),
        categories: Type.Array(Type.String()),
      },
      { description: 'Database kinds: a summary of the dataset (never the connection)' },
    ),
    Type.Null(),
  ]),
  purposes: DeclaredList,
  recipients: DeclaredList,
  retention: DeclaredList,
  source: DeclaredList,
  third_party: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

/** `POST /api/v1/data-systems/{id}/preview` body (PRODUCT §2.14). */
export const PreviewBody = Type.Object(
  {
    subject_provider: Type.String({ minLength: 1, maxLength: 100 }),
    subject_id: Type.String({ minLength: 1, maxLength: 300 }),
    request_type: RequestTypeItem,
    scope: Type.Optional(Categories),
  },
  SUBJECT_IDENTITY_CHECK,
);

/** A field whose masking its column refuses (PRODUCT §2.17). */
const CannotMaskItem = Type.Object({
  field: Type.String(),
  reason: Type.String({
    description: 'NOT NULL masked with null, UNIQUE with one fixed rewrite value, or longer than the column',
  }),
});
/** A searched column no index starts with (PRODUCT §2.17). */
const UnindexedItem = Type.Object({
  field: Type.String(),
  estimated_rows: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: "the table's row estimate (PostgreSQL reltuples, MySQL TABLE_ROWS); null before the database has one",
  }),
});
const CannotMaskList = Type.Union([Type.Array(CannotMaskItem), Type.Null()], {
  description: "fields an erasure may write whose column refuses the dataset's masking; null: the table could not be looked at",
});
const UnindexedList = Type.Union([Type.Array(UnindexedItem), Type.Null()], {
  description:
    'columns the traversal searches by (identity and reference fields) that no index starts with; null: the table could not be looked at',
});

/** The preview: statements in order, placeholders only, with the rows each would touch. */
export const PreviewResponse = Type.Object({
  request_type: Type.String(),
  categories: Type.Array(Type.String()),
  statements: Type.Array(
    Type.Object({
      collection: Type.String(),
      operation: StringEnum(['select', 'update', 'delete'] as const),
      sql: Type.String({ description: 'placeholders ($1 or ?), never values' }),
      rows: Type.Integer({ minimum: 0 }),
    }),
  ),
  warnings: Type.Union(
    [
      Type.Array(
        Type.Object({ collection: Type.String(), cannot_mask: Type.Array(CannotMaskItem), unindexed: Type.Array(UnindexedItem) }),
      ),
      Type.Null(),
    ],
    {
      description:
        "the collections whose columns refuse this deletion's masking (cannot_mask) or are searched without an index (unindexed); null: the database's catalog could not be read",
    },
  ),
});

/** `POST /api/v1/data-systems/{id}/test` answer. */
export const TestResponse = Type.Object({
  reachable: Type.Boolean(),
  latency_ms: Type.Union([Type.Integer(), Type.Null()]),
  collections: Type.Array(
    Type.Object({
      name: Type.String(),
      exists: Type.Boolean(),
      can_read: Type.Boolean(),
      can_write: Type.Boolean(),
      cannot_mask: CannotMaskList,
      unindexed: UnindexedList,
    }),
  ),
  error: Type.Optional(Type.String({ description: 'why it is unreachable (names the system, never the URL)' })),
});

export const DataSystemList = Type.Object({ items: Type.Array(DataSystemResource) });
export const DataSystemIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });
export const DataSystemListQuery = Type.Object({ workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) });

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
