import { createHmac } from 'node:crypto';

/**
 * The capability token of a DRP-filed access request's results link (PRODUCT §2.19 `results_url`,
 * docs/decisions.md "The DRP results link"): HMAC-SHA-256 under the service's pseudonym key over
 * `drp-results:<privacy request id>`, base64url (43 characters, the shape of a status link's
 * token). Derived, not drawn, so every status object of the request names the same link (the
 * callbacks compare objects) and no token waits anywhere in clear; the status-token table holds
 * its SHA-256 only, as for the center's own links.
 */
export function resultsLinkToken(key: string, privacyRequestId: string): string {
  return createHmac('sha256', key).update(`drp-results:${privacyRequestId}`).digest('base64url');
}

/**
 * The person's status link of request `privacyRequestId` (PRODUCT §2.15: the status page, from
 * which the letter and the JSON package are reached) under `publicBaseUrl` (no trailing `/`).
 */
export function statusLinkUrl(publicBaseUrl: string, workspaceId: string, privacyRequestId: string, token: string): string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return `${base}/privacy-center/${encodeURIComponent(workspaceId)}/status/${privacyRequestId}?token=${token}`;
}
