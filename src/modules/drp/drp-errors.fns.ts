import type { DrpErrorBody } from './drp.types.js';
import type { DrpFailure, DrpFailureReason, StatusCallbackProblem } from './drp-failure.types.js';

/** An HTTP answer to a refused DRP call: status, DRP error body (null: no body at all), headers. */
export interface DrpRefusal {
  readonly status: number;
  readonly body: DrpErrorBody | null;
  readonly headers: Readonly<Record<string, string>>;
}

/** Which DRP route refuses: key setup answers every refusal without a body (DRP §2.05.1). */
export type DrpRoute = 'key_setup' | 'other';

type Row<R extends DrpFailureReason> = {
  readonly status: number;
  /** `true`/`false` is written into the body; undefined leaves `fatal` out (DRP §3.06: MAY). */
  readonly fatal?: boolean;
  readonly message: (failure: Extract<DrpFailure, { reason: R }>) => string;
};

const SIGNATURE = 'Signature does not verify';
const EXPIRED = 'Request expired';
const same = (text: string) => () => text;

const CALLBACK_PROBLEMS: Record<StatusCallbackProblem, string> = {
  not_url: 'status_callback must be an absolute URL of at most 2000 characters',
  scheme: 'status_callback must use https://',
  credentials: 'status_callback must not carry credentials',
  address: 'status_callback points to a private, loopback, link-local or reserved address',
};

/**
 * Every refusal, one row per reason: the contract's table (PRODUCT §2.19, "DRP error body") with
 * DRP §3.06's body. Statuses and sentences are the contract's; where it says "the sentence names
 * which", the sentence after the colon does.
 */
export const DRP_REFUSALS: { readonly [R in DrpFailureReason]: Row<R> } = {
  token_invalid: { status: 401, fatal: true, message: same('Invalid or missing bearer token') },
  body_not_base64: { status: 403, fatal: true, message: same(SIGNATURE) },
  signature_invalid: { status: 403, fatal: true, message: same(SIGNATURE) },
  agent_mismatch: { status: 403, fatal: true, message: same('agent-id does not match the bearer token') },
  business_mismatch: { status: 403, fatal: true, message: same('business-id names another business') },
  time_invalid: { status: 403, fatal: true, message: (f) => `${EXPIRED}: ${f.claim} is not an ISO 8601 time with an offset` },
  issued_in_future: { status: 403, fatal: true, message: same(`${EXPIRED}: issued-at is more than 60 seconds in the future`) },
  expired: { status: 403, fatal: true, message: same(`${EXPIRED}: expires-at has passed`) },
  window_invalid: {
    status: 403,
    fatal: true,
    message: same(`${EXPIRED}: expires-at must be after issued-at and at most 1 hour after it`),
  },
  replayed: { status: 409, fatal: false, message: same('Already received') },
  agent_request_id_reused: { status: 409, fatal: false, message: same('Already received') },
  message_not_object: { status: 400, fatal: true, message: same('The signed message is not a JSON object') },
  drp_version_invalid: { status: 400, fatal: true, message: same('drp.version must be "1.0"') },
  claim_invalid: { status: 400, fatal: true, message: (f) => `${f.claim} must be ${f.expected}` },
  email_invalid: { status: 400, fatal: true, message: same('email is not an e-mail address') },
  exercise_unsupported: { status: 400, fatal: true, message: same('Unsupported rights actions submitted.') },
  regime_unsupported: { status: 400, fatal: true, message: same('Unsupported regime: DRP 1.0 knows ccpa and voluntary') },
  status_callback_invalid: { status: 400, fatal: true, message: (f) => CALLBACK_PROBLEMS[f.problem] },
  request_id_mismatch: { status: 400, fatal: true, message: same('request_id does not name the request of the path') },
  agent_unknown: { status: 403, fatal: true, message: same('No such agent is registered with this business') },
  agent_disabled: { status: 403, fatal: true, message: same('This agent is disabled') },
  business_unknown: { status: 403, fatal: true, message: same('business-id names no business of this service') },
  drp_disabled: { status: 403, fatal: true, message: same('This business does not accept DRP requests') },
  agent_path_mismatch: { status: 403, fatal: true, message: same("The path's agent-id is not the bearer token's agent") },
  not_this_agents_request: { status: 403, message: same("Not this agent's request") },
  request_not_found: { status: 404, message: same('No such request') },
  already_final: { status: 409, fatal: false, message: (f) => `Request is already ${f.status}` },
  not_revocable: {
    status: 409,
    fatal: false,
    message: same('This request can no longer be revoked: the business is already applying it'),
  },
  rate_limited: { status: 429, fatal: false, message: same('Too many requests: at most 60 a minute per agent') },
  body_too_large: { status: 413, fatal: true, message: same('The body is larger than 64 KiB') },
};

/**
 * The HTTP answer to a refused DRP call (PRODUCT §2.19). On key setup every refusal of the
 * message, the agent or the business is a 403 without a body (DRP §2.05.1); a body over the
 * limit (413) and the rate limit (429) keep their status there too, still without a body. A 401
 * carries `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3.1), a 429 `Retry-After`,
 * a 409 for a message already received the first one's `request_id` when known.
 */
export function drpRefusal(failure: DrpFailure, route: DrpRoute): DrpRefusal {
  const row = DRP_REFUSALS[failure.reason] as Row<DrpFailureReason>;
  const headers: Record<string, string> = {};
  if (failure.reason === 'token_invalid') headers['www-authenticate'] = 'Bearer error="invalid_token"';
  if (failure.reason === 'rate_limited') headers['retry-after'] = String(failure.retryAfterSeconds);
  if (route === 'key_setup') {
    const keeps = failure.reason === 'body_too_large' || failure.reason === 'rate_limited';
    return { status: keeps ? row.status : 403, body: null, headers: keeps ? headers : {} };
  }
  const firstId =
    (failure.reason === 'replayed' || failure.reason === 'agent_request_id_reused') && failure.requestId !== null
      ? { request_id: failure.requestId }
      : {};
  const body: DrpErrorBody = {
    code: String(row.status),
    message: row.message(failure),
    ...(row.fatal === undefined ? {} : { fatal: row.fatal }),
    ...firstId,
  };
  return { status: row.status, body, headers };
}
