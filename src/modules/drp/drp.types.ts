/**
 * The words of the Data Rights Protocol 1.0 (DRP, consumer-reports-innovation-lab/data-rights-protocol
 * `data-rights-protocol.md` @ca1f837), spelled as DRP spells them (PRODUCT §2.19): request bodies
 * kebab-case (`agent-id`), answers snake_case (`request_id`).
 */

/** The rights actions of DRP §3.01, in its order. */
export const DRP_ACTIONS = ['sale:opt-out', 'sale:opt-in', 'deletion', 'access', 'access:categories', 'access:specific'] as const;
export type DrpAction = (typeof DRP_ACTIONS)[number];

/**
 * The actions a business may list in `supported_actions` (PRODUCT §2.19): DRP 1.0 leaves the
 * meaning of `access:categories` and `access:specific` undefined (§3.01 ☆), so they are never
 * supported here.
 */
export const DRP_SUPPORTABLE_ACTIONS = ['access', 'deletion', 'sale:opt-out', 'sale:opt-in'] as const;
export type DrpSupportableAction = (typeof DRP_SUPPORTABLE_ACTIONS)[number];

/** The legal regimes of DRP §3.01: `ccpa`, or `voluntary` (also what no `regime` means). */
export const DRP_REGIMES = ['ccpa', 'voluntary'] as const;
export type DrpRegime = (typeof DRP_REGIMES)[number];

/** Request states of DRP §3.02. */
export const DRP_STATUSES = ['open', 'in_progress', 'fulfilled', 'revoked', 'denied', 'expired'] as const;
export type DrpStatus = (typeof DRP_STATUSES)[number];

/** The reasons a `denied` request carries (DRP §3.02). */
export const DRP_DENIAL_REASONS = [
  'suspected_fraud',
  'insuf_verification',
  'no_match',
  'claim_not_covered',
  'outside_jurisdiction',
  'too_many_requests',
  'other',
] as const;
export type DrpDenialReason = (typeof DRP_DENIAL_REASONS)[number];

/** Every `reason` of DRP §3.02: the denial reasons and `need_user_verification` (§3.02.1). */
export type DrpReason = DrpDenialReason | 'need_user_verification';

/** The protocol version this service speaks, as `drp.version` carries it. */
export const DRP_VERSION = '1.0';

/**
 * The Exercise Status object (DRP §3.03; PRODUCT §2.19 "Status object"). Absent fields are left
 * out, never `null`. Times are RFC 3339 UTC strings as the service stores them.
 */
export interface DrpStatusObject {
  readonly request_id: string;
  readonly agent_request_id?: string;
  readonly status: DrpStatus;
  readonly reason?: DrpReason;
  readonly received_at: string;
  readonly expected_by: string;
  readonly processing_details?: string;
  readonly user_verification_url?: string;
  readonly results_url?: string;
  readonly expires_at?: string;
}

/** A DRP error body (DRP §3.06): the HTTP status as a string, a sentence, and whether it is final. */
export interface DrpErrorBody {
  readonly code: string;
  readonly message: string;
  readonly fatal?: boolean;
  /** Only on a 409 for a message already received: the `request_id` of the first one. */
  readonly request_id?: string;
}

/** True when `value` is one of DRP §3.01's six actions. */
export function isDrpAction(value: unknown): value is DrpAction {
  return typeof value === 'string' && (DRP_ACTIONS as readonly string[]).includes(value);
}

/** True when `value` is one of DRP §3.02's denial reasons. */
export function isDrpDenialReason(value: unknown): value is DrpDenialReason {
  return typeof value === 'string' && (DRP_DENIAL_REASONS as readonly string[]).includes(value);
}
