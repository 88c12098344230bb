import { Type } from '@sinclair/typebox';
import { REQUEST_STATUSES } from '../../modules/request-model/request-model.js';
import { NAME_PATTERN, StringEnum } from './common.schemas.js';
import { MAX_LISTED_WORKSPACES } from './privacy-request.schemas.js';

/*
 * The officer's day (PRODUCT §2.16): queue counts, assignment, notes, bulk actions, the report.
 * Each body has its Pydantic twin in scripts/pydantic-golden/generate.py.
 */

/** `workspace_id` repeated or left out (every workspace the caller may read). */
const WorkspaceIds = Type.Optional(
  Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: MAX_LISTED_WORKSPACES }),
);

/** `GET /api/v1/privacy/requests/stats` query. */
export const QueueStatsQuery = Type.Object({ workspace_id: WorkspaceIds });

/** The queue's counts, exact, over the caller's (or the named) workspaces. */
export const QueueStats = Type.Object({
  open: Type.Integer({ description: 'Requests in a non-final status' }),
  overdue: Type.Integer({ description: 'Open requests past their binding due date' }),
  due_within_7_days: Type.Integer({ description: 'Open, not overdue, binding due date within 7 days' }),
  pending_approval: Type.Integer(),
  action_required: Type.Integer(),
  unassigned_open: Type.Integer({ description: 'Open requests assigned to nobody' }),
  open_opt_outs: Type.Integer({ description: 'Opt-outs queued or processing (PRODUCT §2.18)' }),
  overdue_opt_outs: Type.Integer({ description: 'Open opt-outs past their due date' }),
});

/** `POST …/{id}/assign` body: the operator's name (as the audit trail shows it), or null to unassign. */
export const AssignBody = Type.Object({
  assignee: Type.Union([Type.String({ minLength: 1, maxLength: 300, pattern: NAME_PATTERN }), Type.Null()]),
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
});

/** Longest note, in characters. */
export const MAX_NOTE_CHARS = 4000;

/** `POST …/{id}/notes` body. */
export const NoteBody = Type.Object({ text: Type.String({ minLength: 1, maxLength: MAX_NOTE_CHARS }) });

/** A note as the API returns it; `text` null once a deletion of the subject erased it. */
export const NoteResource = Type.Object({
  id: Type.String(),
  text: Type.Union([Type.String(), Type.Null()]),
  author: Type.String({ description: 'The operator who wrote it, as the audit trail names them' }),
  created_at: Type.String({ format: 'date-time' }),
});

/** `GET …/{id}/notes`: oldest first. */
export const NoteList = Type.Object({ items: Type.Array(NoteResource) });

/** Most ids one bulk action takes. */
export const MAX_BULK_IDS = 100;

/** `POST /api/v1/privacy/requests/bulk` body. */
export const BulkBody = Type.Object({
  action: StringEnum(['approve', 'reject', 'cancel', 'extend', 'assign'] as const),
  ids: Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { minItems: 1, maxItems: MAX_BULK_IDS }),
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  assignee: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 300, pattern: NAME_PATTERN }), Type.Null()])),
});

/** One id's outcome: the new status, or the HTTP status the action alone would have had, with its detail. */
export const BulkResult = Type.Object({
  id: Type.String(),
  status: Type.Union([StringEnum(REQUEST_STATUSES), Type.Integer()]),
  error: Type.Optional(Type.String()),
});

/** The bulk action's answer, in the order of `ids`. */
export const BulkResults = Type.Object({ results: Type.Array(BulkResult) });

/** A day (`2026-01-31`) or an RFC 3339 time. */
export const DAY_OR_TIME_PATTERN =
  '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9]))?$';

/** `GET /api/v1/reports/requests` query. */
export const ReportQuery = Type.Object({
  workspace_id: WorkspaceIds,
  from: Type.Optional(Type.String({ pattern: DAY_OR_TIME_PATTERN, description: 'Received at or after (a day: its start, UTC)' })),
  to: Type.Optional(Type.String({ pattern: DAY_OR_TIME_PATTERN, description: 'Received before (a day: its end, UTC)' })),
  format: Type.Optional(StringEnum(['json', 'csv'] as const)),
});

const Days = Type.Union([Type.Number(), Type.Null()], { description: 'Days (one decimal); null without any' });

/** Per request type. */
export const ReportTypeRow = Type.Object({
  request_type: Type.String(),
  received: Type.Integer(),
  completed: Type.Integer(),
  rejected: Type.Integer(),
  canceled: Type.Integer(),
  open: Type.Integer(),
  completed_late: Type.Integer({ description: 'Completed after their binding due date' }),
  median_days_to_complete: Days,
  p90_days_to_complete: Days,
});

/**
 * CCPA §7102(a) (11 CCR §7102(a)(1)) per calendar year, over requests under CCPA, and over
 * opt-outs (PRODUCT §2.18): `opt_out_sale_sharing` ("requests to opt out of sale/sharing") and
 * `limit_sensitive_use` ("requests to limit").
 */
export const ReportCcpaRow = Type.Object({
  year: Type.Integer(),
  request_type: Type.String({
    description:
      'A request type, or `opt_out_sale_sharing` (requests to opt out of sale/sharing) or `limit_sensitive_use` (requests to limit): opt-outs with choice `opt_out`',
  }),
  received: Type.Integer(),
  complied_in_whole_or_in_part: Type.Integer(),
  denied: Type.Integer(),
  median_days_to_substantive_response: Days,
  mean_days_to_substantive_response: Days,
});

/** The report. */
export const RequestReport = Type.Object({
  from: Type.Union([Type.String(), Type.Null()]),
  to: Type.Union([Type.String(), Type.Null()]),
  workspaces: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'null: every workspace' }),
  by_type: Type.Array(ReportTypeRow),
  ccpa_7102: Type.Array(ReportCcpaRow),
});

/** `GET /api/v1/whoami`: who the token or session is, for the console to show only what it can do. */
export const WhoAmI = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  workspaces: Type.Union([Type.Array(Type.String()), Type.Literal('*')]),
});
