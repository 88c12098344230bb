/**
 * Why a DRP message or call is refused (PRODUCT §2.19, "DRP error body"): one typed reason per
 * row of the contract's table. `reason` is a closed set, so it is also the label of
 * `drp_refused_total{reason}`; no variant carries a claim's value, only its name.
 */
export type DrpFailure =
  // The signed body (DRP §3.07, in its order).
  | { readonly reason: 'body_not_base64' }
  | { readonly reason: 'signature_invalid' }
  | { readonly reason: 'message_not_object' }
  | { readonly reason: 'agent_mismatch' }
  | { readonly reason: 'business_mismatch' }
  | { readonly reason: 'time_invalid'; readonly claim: 'issued-at' | 'expires-at' }
  | { readonly reason: 'issued_in_future' }
  | { readonly reason: 'expired' }
  | { readonly reason: 'window_invalid' }
  // Single use (needs the store: the check gives the key, the store answers).
  | { readonly reason: 'replayed'; readonly requestId: string | null }
  | { readonly reason: 'agent_request_id_reused'; readonly requestId: string | null }
  // The claims.
  | { readonly reason: 'drp_version_invalid' }
  | { readonly reason: 'claim_invalid'; readonly claim: string; readonly expected: string }
  | { readonly reason: 'email_invalid' }
  | { readonly reason: 'exercise_unsupported' }
  | { readonly reason: 'regime_unsupported' }
  | { readonly reason: 'status_callback_invalid'; readonly problem: StatusCallbackProblem }
  | { readonly reason: 'request_id_mismatch' }
  // Who is calling, and about what (decided with the store).
  | { readonly reason: 'token_invalid' }
  | { readonly reason: 'agent_unknown' }
  | { readonly reason: 'agent_disabled' }
  | { readonly reason: 'business_unknown' }
  | { readonly reason: 'drp_disabled' }
  | { readonly reason: 'agent_path_mismatch' }
  | { readonly reason: 'not_this_agents_request' }
  | { readonly reason: 'request_not_found' }
  | { readonly reason: 'already_final'; readonly status: 'fulfilled' | 'denied' | 'expired' }
  /** Open, but what it filed cannot be canceled now (an opt-out being passed on to the systems). */
  | { readonly reason: 'not_revocable' }
  // Transport limits.
  | { readonly reason: 'rate_limited'; readonly retryAfterSeconds: number }
  | { readonly reason: 'body_too_large' };

/** Every reason a {@link DrpFailure} may have. */
export type DrpFailureReason = DrpFailure['reason'];

/** What is wrong with a `status_callback` (the part decided before any DNS lookup). */
export type StatusCallbackProblem = 'not_url' | 'scheme' | 'credentials' | 'address';

/** A decision that either holds a value or names the first failure. */
export type DrpResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: DrpFailure };

/** A success of {@link DrpResult}. */
export function ok<T>(value: T): DrpResult<T> {
  return { ok: true, value };
}

/** A failure of {@link DrpResult}. */
export function fail<T = never>(failure: DrpFailure): DrpResult<T> {
  return { ok: false, failure };
}
