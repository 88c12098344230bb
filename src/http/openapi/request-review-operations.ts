import { type OperationDoc, requestAction as request } from './operation-doc.js';

/**
 * The operations of a request's reviews (PRODUCT §2.13 identity review, §2.20 repeats and the
 * review of a package before release), merged into `OPERATIONS`.
 */
export const REQUEST_REVIEW_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  'POST /api/v1/privacy/requests/{id}/proceed': {
    operationId: 'proceedWithRepeatedPrivacyRequest',
    ...request(
      'Proceed with',
      'For a request in `action_required` with `status_reason: repeat_request` (PRODUCT §2.20: filed while another request of the same type for the same subject was open, or completed within the policy’s `repeat_window_days`; `related_request_id` names it): it goes on where filing would have sent it, `pending_approval` when the workspace policy requires approval, else `queued`; `related_request_id` stays. To refuse it as manifestly unfounded or excessive (GDPR Art. 12(5)), reject it: the person is told the reason.',
      ' 409 for a request that does not wait as a repeat; nothing changes.',
    ),
  },
  'POST /api/v1/privacy/requests/{id}/identity': {
    operationId: 'repointPrivacyRequestIdentity',
    ...request(
      'Re-point the identity of',
      'For a request in `action_required` with `status_reason: identity_unmatched` (PRODUCT §2.13): names the identity it meant; every data task of the request is re-opened for that identity (pending again, under a new id, announced again with the new identities: PRODUCT §2.17), its stored answer is dropped, and it runs again from the start; it completes only once every system has answered for the new identity. A `phone` identity must be a phone number in E.164 once spaces, dashes, dots and parentheses are removed (else 422 at `["body","subject_id"]`). 409 for a request that does not wait for this review.',
    ),
  },
  'POST /api/v1/privacy/requests/{id}/confirm-no-data': {
    operationId: 'confirmPrivacyRequestNoData',
    ...request(
      'Confirm no data for',
      'For a request in `action_required` with `status_reason: identity_unmatched` (PRODUCT §2.13): completes it with its answer and the confirmation that no personal data of the person is processed (GDPR Art. 15(1)). 409 for a request that does not wait for this review.',
    ),
  },
  'GET /api/v1/privacy/requests/{id}/confirm-no-data': {
    operationId: 'previewPrivacyRequestNoData',
    summary: 'What confirming no data would tell the person',
    description:
      "For a request in `action_required` with `status_reason: identity_unmatched` (PRODUCT §2.13, §2.21): `{statement}`, the sentence the person's answer carries once an operator confirms that no data is held, so it can be read before confirming. Changes nothing. 409 for a request that does not wait for this review. Scope `privacy:read`.",
  },
  'POST /api/v1/privacy/requests/{id}/package/redactions': {
    operationId: 'withholdPackageValue',
    summary: 'Withhold a value of a package before release',
    description:
      'For an access or export request in `action_required` with `status_reason: awaiting_review` (PRODUCT §2.20, the policy’s `review_packages`): the value at the JSON Pointer `path` (RFC 6901, into the package as found: `/systems/shop/orders/0/notes`) is withheld from the person, who reads `[withheld: <reason>]` in its place (GDPR Art. 15(4): the rights and freedoms of others). Audited with the path and the reason, never the value. 422 at `["body","path"]` for a path the package does not have; 409 for a request not awaiting review or a path withheld already; nothing changes. Scope `privacy:write`.',
  },
  'GET /api/v1/privacy/requests/{id}/package/redactions': {
    operationId: 'listPackageRedactions',
    summary: 'List the redactions of a package',
    description:
      'The values withheld from the request’s package, oldest first, with who withheld them and why; never the values. Scope `privacy:read`.',
  },
  'DELETE /api/v1/privacy/requests/{id}/package/redactions/{redaction_id}': {
    operationId: 'removePackageRedaction',
    summary: 'Stop withholding a value',
    description:
      'Removes a redaction while the request awaits review (409 afterwards: the person has the package as released). Audited with the path. Scope `privacy:write`.',
  },
  'POST /api/v1/privacy/requests/{id}/release': {
    operationId: 'releasePrivacyRequestPackage',
    summary: 'Release a reviewed package',
    description:
      'Completes an access or export request that awaits review (PRODUCT §2.20): the person gets the letter and the package with each redaction applied, and the “completed” mail. Four eyes: an operator whose own redaction still stands cannot release it (403); with none of theirs standing, any operator may. 409 for a request not awaiting review. Scope `privacy:write`.',
  },
};
