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
      'The whole setting: `enabled`, the `request_types` people may file through it, an optional `title`. Audited. Scope `admin`.',
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
      'PRODUCT §2.18: one opt-out per kind in `kinds` for the address (`subject_provider` `email`, the address lower-cased), `source` `form`, honoured at once; the same kinds from the same address on the same UTC day file once. With `Sec-GPC: 1` also a `sale_sharing` opt-out with `source` `gpc`, once per address and workspace. `choice` `opt_in` is a 422 at `choice` (an opt-in needs the mailed code, not offered yet). 404 when the center is off; 429 over 5 submissions a minute per client; the CAPTCHA as for requests.',
    responses: { 404: ErrorResponse, 413: ErrorResponse, 429: ErrorResponse },
  },
  'POST /privacy-center/v1/{workspace_id}/requests/{id}/verify': {
    operationId: 'verifyPrivacyCenterRequest',
    summary: 'Verify a submission with the mailed code',
    description:
      'The right code files the privacy request (subject_provider `email`, intake_ref `privacy-center`) and mails the status link; verifying again answers the same. A wrong code is a 403 naming the attempts left; after three the code is void (429); an expired code is a 410.',
    responses: { 403: ErrorResponse, 404: ErrorResponse, 410: ErrorResponse, 429: ErrorResponse },
  },
};
