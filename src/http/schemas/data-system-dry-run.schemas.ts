import { Type } from '@sinclair/typebox';
import { REQUEST_TYPES } from '../../modules/request-model/request-model.js';
import { StringEnum, SUBJECT_IDENTITY_CHECK } from './common.schemas.js';
import { Categories } from './data-system.schemas.js';

/*
 * A database system's dry runs (PRODUCT §2.14; src/workflows/data-systems/database-dry-runs.ts):
 * the preview of the statements a request would run, and the test of the connection and its
 * tables. The system itself is in data-system.schemas.ts.
 */

/** One of the four request types, a string first (as for a request's `request_type`). */
const RequestTypeItem = Type.Unsafe<(typeof REQUEST_TYPES)[number]>({ allOf: [Type.String(), StringEnum(REQUEST_TYPES)] });

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
