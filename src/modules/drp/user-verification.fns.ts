import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long the person has to confirm a DRP request with their code, ms (PRODUCT §2.19: 14 days). */
export const USER_VERIFICATION_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;

/** Codes mailed for one DRP request at most (each new one voids the last). */
export const MAX_CODES = 5;

/** `processing_details` of a DRP request the person did not confirm within the 14 days. */
export const NOT_CONFIRMED_DETAILS = 'The person did not confirm this request with the code mailed to them within 14 days.';

/**
 * The capability token of a DRP request's `user_verification_url` (PRODUCT §2.19): HMAC-SHA-256
 * of the request id under the service's pseudonym key, base64url (43 characters). Derived, never
 * stored: the status object can give the same URL on every read, and a leaked table holds none.
 * It opens nothing once the request is filed or its 14 days passed (the verification row is gone).
 */
export function userVerificationToken(key: string, requestId: string): string {
  return createHmac('sha256', key).update(`drp-user-verification:${requestId}`).digest('base64url');
}

/** Whether `given` is the request's token, compared in constant time. */
export function isUserVerificationToken(key: string, requestId: string, given: string): boolean {
  const expected = Buffer.from(userVerificationToken(key, requestId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * The page the agent sends the person to (PRODUCT §2.19):
 * `PUBLIC_BASE_URL/privacy-center/{workspace_id}/agent-requests/{request_id}/verify?token=…`; the
 * agent appends `redirect_to` and `request_id`.
 */
export function userVerificationUrl(publicBaseUrl: string, workspaceId: string, requestId: string, token: string): string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return `${base}/privacy-center/${encodeURIComponent(workspaceId)}/agent-requests/${requestId}/verify?token=${token}`;
}

/**
 * Where the page may send the person once the code is right (PRODUCT §2.19): `redirect_to` when
 * it is an absolute `https://` URL (or `http://` to a loopback host with
 * `OUTBOUND_ALLOW_PRIVATE_NETWORKS=true`), else null (the page says it is done instead).
 */
export function allowedRedirect(redirectTo: string | undefined, allowPrivate: boolean): string | null {
  if (redirectTo === undefined || redirectTo.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(redirectTo);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '') return null;
  if (url.protocol === 'https:') return url.href;
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  return allowPrivate && url.protocol === 'http:' && loopback ? url.href : null;
}
