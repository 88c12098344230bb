import type { DrpAction, DrpRegime, DrpSupportableAction } from './drp.types.js';
import type { DrpExerciseClaims } from './claims.fns.js';

/** The agent that filed, as a request names it (PRODUCT §2.19: the new `agent` field). */
export interface DrpAgentRef {
  /** The agent's DRP id (`agent-id`). */
  readonly id: string;
  /** Its registered name. */
  readonly name: string;
  /** The DRP request's `request_id`. */
  readonly drp_request_id: string;
  /** The `power_of_attorney` claim, or null. */
  readonly proof_ref: string | null;
}

/** The registration and business an exercise was checked against. */
export interface ExerciseContext {
  /** The new DRP request's `request_id` (a UUID v4 the caller made). */
  readonly requestId: string;
  /** When the exercise arrived (RFC 3339): the privacy request's `received_at`, even when filed later. */
  readonly receivedAt: string;
  readonly agent: { readonly agentId: string; readonly name: string; readonly confirmWithConsumer: boolean };
  /** The business's `supported_actions`. */
  readonly supportedActions: readonly DrpSupportableAction[];
}

/** When the filing happens: at once, or once the person entered the code mailed to `email`. */
export type FilingMoment = 'now' | 'after_user_verification';

/** A privacy request to file (the fields of PRODUCT §2.3's create, as §2.19 sets them). */
export interface DrpPrivacyRequestFiling {
  readonly request_type: 'access' | 'deletion';
  readonly scope: readonly ['user'];
  readonly subject_provider: 'email';
  readonly subject_id: string;
  readonly received_at: string;
  readonly intake_ref: string;
  readonly client_request_id: string;
  /** `regime: ccpa` adds `ccpa` to the workspace's regulations (due date: the earlier one). */
  readonly add_regulation: 'ccpa' | null;
  readonly agent: DrpAgentRef;
}

/** An opt-out or opt-in to record (PRODUCT §2.18's resource; described here, filed by its module). */
export interface DrpOptOutFiling {
  readonly kind: 'sale_sharing';
  readonly choice: 'opt_out' | 'opt_in';
  readonly source: 'agent';
  readonly subject_provider: 'email';
  readonly subject_id: string;
  readonly received_at: string;
  readonly client_request_id: string;
  readonly agent: DrpAgentRef;
}

/** What an exercise leads to (PRODUCT §2.19, the table of "Exercise"). */
export type ExercisePlan =
  | {
      readonly outcome: 'denied';
      readonly reason: 'claim_not_covered' | 'insuf_verification';
      readonly processingDetails: string;
    }
  | { readonly outcome: 'privacy_request'; readonly filing: FilingMoment; readonly request: DrpPrivacyRequestFiling }
  | { readonly outcome: 'opt_out'; readonly filing: 'now'; readonly optOut: DrpOptOutFiling }
  /** The person confirms first (11 CCR §7028(a)); with no opt-out on record the answer is `fulfilled` at once. */
  | { readonly outcome: 'opt_in'; readonly filing: 'after_user_verification'; readonly optOut: DrpOptOutFiling };

/** The sentence of a denial for an action the business does not take (`processing_details`). */
export function unsupportedActionDetails(supported: readonly DrpSupportableAction[]): string {
  return supported.length === 0
    ? 'This business takes no DRP actions.'
    : `This business takes these DRP actions: ${supported.join(', ')}.`;
}

/** The sentence of a denial for a missing `email` claim. */
export const EMAIL_REQUIRED_DETAILS = 'This business identifies people by e-mail address; the request carried no email claim.';

/**
 * Decides what an exercise files (PRODUCT §2.19 "Exercise" and "Identity"): `deletion`/`access`
 * a privacy request of that type, scope `["user"]`; `sale:opt-out` an opt-out of kind
 * `sale_sharing`, at once (no verification, 11 CCR §7026(d)); `sale:opt-in` an opt-in after the
 * person's own code (§7028(a)). `access:categories`, `access:specific` or an action outside
 * `supported_actions`: denied `claim_not_covered`. Then, with no `email`: denied
 * `insuf_verification`. A privacy request is filed at once when the agent attested
 * `email_verified: true` and its registration does not ask to confirm with the consumer, or when
 * the message carries `power_of_attorney` (11 CCR §7063(b)); otherwise after the person's code.
 */
export function planExercise(claims: DrpExerciseClaims, context: ExerciseContext): ExercisePlan {
  if (!isSupported(claims.exercise, context.supportedActions)) {
    return {
      outcome: 'denied',
      reason: 'claim_not_covered',
      processingDetails: unsupportedActionDetails(context.supportedActions),
    };
  }
  if (claims.email === null)
    return { outcome: 'denied', reason: 'insuf_verification', processingDetails: EMAIL_REQUIRED_DETAILS };
  const common = {
    subject_provider: 'email' as const,
    subject_id: claims.email,
    received_at: context.receivedAt,
    client_request_id: `drp-${context.requestId}`,
    agent: {
      id: context.agent.agentId,
      name: context.agent.name,
      drp_request_id: context.requestId,
      proof_ref: claims.powerOfAttorney,
    },
  };
  switch (claims.exercise) {
    case 'sale:opt-out':
      return {
        outcome: 'opt_out',
        filing: 'now',
        optOut: { ...common, kind: 'sale_sharing', choice: 'opt_out', source: 'agent' },
      };
    case 'sale:opt-in':
      return {
        outcome: 'opt_in',
        filing: 'after_user_verification',
        optOut: { ...common, kind: 'sale_sharing', choice: 'opt_in', source: 'agent' },
      };
    case 'access':
    case 'deletion': {
      const atOnce = claims.powerOfAttorney !== null || (claims.emailVerified === true && !context.agent.confirmWithConsumer);
      const request: DrpPrivacyRequestFiling = {
        ...common,
        request_type: claims.exercise,
        scope: ['user'],
        intake_ref: `drp:${context.requestId}`,
        add_regulation: claims.regime === 'ccpa' ? 'ccpa' : null,
      };
      return { outcome: 'privacy_request', filing: atOnce ? 'now' : 'after_user_verification', request };
    }
  }
}

function isSupported(action: DrpAction, supported: readonly DrpSupportableAction[]): action is DrpSupportableAction {
  return (supported as readonly string[]).includes(action);
}

/**
 * What the DRP record keeps of an exercise's claims (PRODUCT §2.19 "Identity"): the action, the
 * regime, the agent's ids and hints, the callback address, the `*_verified` flags the agent
 * attested and the proof reference. Never `name`, `phone_number` or `address` (they are not in
 * {@link DrpExerciseClaims} at all), nor `email`, which only the filing (or the filing that
 * waits for the person's code) holds.
 */
export interface DrpRecordClaims {
  readonly exercise: DrpAction;
  readonly regime: DrpRegime | null;
  readonly agent_request_id: string | null;
  readonly relationships: readonly string[];
  readonly status_callback: string | null;
  readonly email_verified: boolean | null;
  readonly phone_number_verified: boolean | null;
  readonly address_verified: boolean | null;
  readonly proof_ref: string | null;
}

/** The {@link DrpRecordClaims} of validated claims. */
export function recordClaims(claims: DrpExerciseClaims): DrpRecordClaims {
  return {
    exercise: claims.exercise,
    regime: claims.regime,
    agent_request_id: claims.agentRequestId,
    relationships: claims.relationships,
    status_callback: claims.statusCallback,
    email_verified: claims.emailVerified,
    phone_number_verified: claims.phoneNumberVerified,
    address_verified: claims.addressVerified,
    proof_ref: claims.powerOfAttorney,
  };
}
