import type { OperationDoc } from './operation-doc.js';

/** The operations of opt-outs and objections (PRODUCT §2.18), merged into `OPERATIONS`. */
export const OPT_OUT_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  'POST /api/v1/privacy/opt-outs': {
    operationId: 'createOptOut',
    summary: 'File an opt-out or opt-in',
    description:
      'An opt-out of sale/sharing or of the use of sensitive data (CCPA) or an objection to direct marketing (GDPR Art. 21), or an opt-in (`source: "api"` only, audited as the operator’s). 202 + Location with `{id, status, due_at}`. Honoured at once: the subject’s preference of that kind is set (unless a choice received later stands) and `privacy_preference.changed` is sent. `Idempotency-Key` as for privacy requests; the same `client_request_id` in the workspace under another key is a 409. Scope `privacy:write`.',
  },
  'GET /api/v1/privacy/opt-outs': {
    operationId: 'listOptOuts',
    summary: 'List opt-outs',
    description:
      'Newest first, with cursor pagination; filters `workspace_id` (repeatable; absent: every workspace the caller may read), `subject_provider`, `subject_id`, `status` (repeatable, `open` for the non-final ones). Scope `privacy:read`.',
  },
  'GET /api/v1/privacy/opt-outs/{id}': {
    operationId: 'getOptOut',
    summary: 'Get an opt-out',
    description: 'An opt-out or opt-in by id; 404 outside the caller’s workspaces. Scope `privacy:read`.',
  },
  'GET /api/v1/privacy/preferences': {
    operationId: 'getPrivacyPreferences',
    summary: 'A subject’s opt-out preferences',
    description:
      'Per kind (`sale_sharing`, `sensitive_use`, `direct_marketing`) the standing choice (`opt_out`, `opt_in` or `not_set`), its source and when it was set. Scope `privacy:read`.',
  },
  'GET /.well-known/gpc.json': {
    operationId: 'getGpcWellKnown',
    summary: 'Global Privacy Control support',
    description:
      'The GPC well-known resource: `{"gpc": true, "lastUpdate": "YYYY-MM-DD"}`, the date this service began honouring the signal. No token.',
  },
};
