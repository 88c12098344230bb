import { createHash, createHmac } from 'node:crypto';

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

/** A results link as stored: its token replaced by the token's SHA-256 (hex). */
const STORED_LINK = /^(.*\/status\/([^/?#]+)\?token=)sha256:([0-9a-f]{64})$/;
const SENT_LINK = /^(.*\/status\/[^/?#]+\?token=)([A-Za-z0-9_-]{43})$/;

/**
 * A status object as it is stored (`drp_requests.last_status`, a callback's payload): a
 * `results_url`'s token replaced by `sha256:<its SHA-256, hex>`, so no capability token is kept
 * in clear (docs/decisions.md, "The DRP results link"), and without `user_verification_url`
 * (derived from the request id on every read of the agent's, modules/drp/user-verification.fns.ts;
 * it changes only with the state, which the other members show). Still one stored form per
 * object, so comparing stored forms finds exactly the changes comparing the objects would.
 */
export function storedStatusObject<T extends { readonly results_url?: string; readonly user_verification_url?: string }>(
  given: T,
): T {
  const { user_verification_url: _capability, ...rest } = given;
  const object = (given.user_verification_url === undefined ? given : rest) as T;
  const link = object.results_url === undefined ? null : SENT_LINK.exec(object.results_url);
  if (!link) return object;
  const hash = createHash('sha256').update(link[2]!).digest('hex');
  return { ...object, results_url: `${link[1]}sha256:${hash}` };
}

/**
 * The status object to send from its stored form ({@link storedStatusObject}): the link's token
 * derived again under `key` for the request the link names.
 */
export function sentStatusObject<T extends { readonly results_url?: string }>(stored: T, key: string): T {
  const link = stored.results_url === undefined ? null : STORED_LINK.exec(stored.results_url);
  if (!link) return stored;
  return { ...stored, results_url: `${link[1]}${resultsLinkToken(key, decodeURIComponent(link[2]!))}` };
}
