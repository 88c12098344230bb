import { Type } from '@sinclair/typebox';
import { OPT_OUT_REQUEST_TYPES, SYSTEM_KEY_PATTERN } from '../../modules/data-systems/data-task.fns.js';
import { SCOPE_KEYS } from '../../modules/data-categories/data-categories.fns.js';
import { REQUEST_TYPES } from '../../modules/request-model/request-model.js';
import { StringEnum } from './common.schemas.js';

/*
 * Data systems (PRODUCT §2.9, §2.14): the create and PATCH bodies, the resource, its list. A
 * database system's preview and test are in data-system-dry-run.schemas.ts, tasks in
 * data-task.schemas.ts.
 */

/** A scope key (PRODUCT §1): a string first, then one of the keys, as for a request's `scope`. */
const Category = Type.Unsafe<(typeof SCOPE_KEYS)[number]>({ allOf: [Type.String(), StringEnum(SCOPE_KEYS)] });

/** What a system may take: the four request types and the opt-out kinds (PRODUCT §2.18; a database system takes the four only). */
const SYSTEM_REQUEST_TYPES = [...REQUEST_TYPES, ...OPT_OUT_REQUEST_TYPES] as const;
const SystemRequestTypeItem = Type.Unsafe<(typeof SYSTEM_REQUEST_TYPES)[number]>({
  allOf: [Type.String(), StringEnum(SYSTEM_REQUEST_TYPES)],
});

/** The scope keys a system (or a preview) covers: 1 to 20. */
export const Categories = Type.Array(Category, { minItems: 1, maxItems: 20 });
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

export const DataSystemList = Type.Object({ items: Type.Array(DataSystemResource) });
export const DataSystemIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });
export const DataSystemListQuery = Type.Object({ workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) });
