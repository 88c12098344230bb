import { ErrorResponse } from '../schemas/common.schemas.js';
import type { OperationDoc } from './operation-doc.js';

/** The operations of the privacy center (PRODUCT §2.15), merged into `OPERATIONS`. */
export const PRIVACY_CENTER_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  'GET /api/v1/workspaces/{workspace_id}/privacy-center': {
    operationId: 'getPrivacyCenter',
    summary: 'Get the privacy center of a workspace',
    description:
      'Whether the public privacy center of the workspace is on, which request types it takes and its title. 404 while never set (the center is off). Scope `privacy:read` (PRODUCT §2.21: the console shows it to every officer).',
  },
  'PUT /api/v1/workspaces/{workspace_id}/privacy-center': {
    operationId: 'putPrivacyCenter',
    summary: 'Turn the privacy center of a workspace on or off',
    description:
      'The whole setting: `enabled`, the `request_types` people may file through it, an optional `title`, and `agent_requests` (default false): whether authorized agents outside DRP may file through the center (PRODUCT §2.19). Audited. Scope `admin`.',
  },
  'POST /privacy-center/v1/{workspace_id}/requests': {
    operationId: 'submitPrivacyCenterRequest',
    summary: 'File a request as the person (no token)',
    description:
      'A person files their own request: a 6-digit code is mailed to the address (valid 10 minutes, 3 attempts). With `Sec-GPC: 1` a `sale_sharing` opt-out with `source` `gpc` is recorded for the address too (PRODUCT §2.18; once per address and workspace). The answer is the same whether the address is known or not. Not a privacy request until verified. 404 when the center is off; 422 for a request type it does not take; 429 over 5 submissions a minute per client or 3 codes an hour per address.',
    responses: { 404: ErrorResponse, 413: ErrorResponse, 429: ErrorResponse },
  },
  'POST /privacy-center/v1/{workspace_id}/opt-outs': {
    operationId: 'submitPrivacyCenterOptOuts',
    summary: 'Opt out as the person (no token, no code)',
    description:
      'PRODUCT §2.18: one opt-out per kind in `kinds` for the address (`subject_provider` `email`, the address lower-cased), `source` `form`, honoured at once; the same kinds from the same address on the same UTC day file once. With `Sec-GPC: 1` also a `sale_sharing` opt-out with `source` `gpc`, once per address and workspace. With `choice` `opt_in` nothing changes yet: the answer is `{id, status: "identity_unverified"}` and a 6-digit code is mailed to the address (as for a request; 11 CCR §7028: the person confirms an opt-in); the opt-ins are recorded at `…/opt-outs/{id}/verify`. 404 when the center is off; 429 over 5 submissions a minute per client (and, for an opt-in, 3 codes an hour per address); the CAPTCHA as for requests.',
    responses: { 404: ErrorResponse, 413: ErrorResponse, 429: ErrorResponse },
  },
  'POST /privacy-center/v1/{workspace_id}/opt-outs/{id}/verify': {
    operationId: 'verifyPrivacyCenterOptIn',
    summary: 'Verify an opt-in with the mailed code',
    description:
      "PRODUCT §2.18: the right code records one opt-in per kind of the submission (`choice` `opt_in`, `source` `form`, `subject_provider` `email`), which replaces the preference of the kind and is passed on to the systems naming it; verifying again answers the same and records nothing new. A wrong code is a 403 naming the attempts left; after three the code is void (429); an expired code is a 410; a request's submission id is a 404.",
    responses: { 403: ErrorResponse, 404: ErrorResponse, 410: ErrorResponse, 429: ErrorResponse },
  },
  'POST /privacy-center/v1/{workspace_id}/requests/{id}/verify': {
    operationId: 'verifyPrivacyCenterRequest',
    summary: 'Verify a submission with the mailed code',
    description:
      'The right code files the privacy request (subject_provider `email`, intake_ref `privacy-center`) and mails the status link; verifying again answers the same. A wrong code is a 403 naming the attempts left; after three the code is void (429); an expired code is a 410.',
    responses: { 403: ErrorResponse, 404: ErrorResponse, 410: ErrorResponse, 429: ErrorResponse },
  },
  'POST /privacy-center/v1/{workspace_id}/agent-requests': {
    operationId: 'submitPrivacyCenterAgentRequest',
    summary: 'File as an authorized agent outside DRP (no token)',
    description:
      "PRODUCT §2.19, 11 CCR §7063(a): an authorized agent files for a person. A 6-digit code is mailed to `agent_email` (valid 10 minutes, 3 attempts). Once verified, the person is mailed at `subject_email` with the agent's name, the request type and the controller, and a link to confirm or refuse; only a confirmation files the privacy request. 404 when the center is off or does not take agent requests (`agent_requests`); 422 for a request type it does not take; 429 over 5 submissions a minute per client or 3 codes an hour per agent address; the CAPTCHA as for a person's request.",
    responses: { 404: ErrorResponse, 413: ErrorResponse, 429: ErrorResponse },
  },
  'POST /privacy-center/v1/{workspace_id}/agent-requests/{id}/verify': {
    operationId: 'verifyPrivacyCenterAgentRequest',
    summary: "Verify the agent's address with the mailed code",
    description:
      'PRODUCT §2.19: the right code answers `{"status": "awaiting_confirmation"}` and mails the person the confirmation link (once; verifying again answers the same). A wrong code is a 403 naming the attempts left; after three the code is void (429); an expired code is a 410; an unknown id (or one older than 24 hours unverified) a 404.',
    responses: { 403: ErrorResponse, 404: ErrorResponse, 410: ErrorResponse, 429: ErrorResponse },
  },
};
