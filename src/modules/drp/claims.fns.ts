import { isIP } from 'node:net';
import { DRP_VERSION, isDrpAction, type DrpAction, type DrpRegime } from './drp.types.js';
import { fail, ok, type DrpResult, type StatusCallbackProblem } from './drp-failure.types.js';
import { ownClaim } from './message-checks.fns.js';

type Message = Readonly<Record<string, unknown>>;

/**
 * The claims of a Data Rights Exercise this service keeps or acts on (DRP §2.01, §3.04; PRODUCT
 * §2.19 "Exercise"), validated. `name`, `phone_number` and `address` are type-checked and then
 * dropped here, so no later step can store or log them (data minimisation, DRP §3.04).
 */
export interface DrpExerciseClaims {
  /** `agent-request-id`, 1–200 characters, or null. */
  readonly agentRequestId: string | null;
  readonly exercise: DrpAction;
  /** `regime`, or null when the message named none (voluntary). */
  readonly regime: DrpRegime | null;
  /** `relationships` hints (kept and shown, never acted on); empty when none. */
  readonly relationships: readonly string[];
  /** `status_callback`, checked by {@link checkStatusCallback}, or null. */
  readonly statusCallback: string | null;
  /** `email`, trimmed, or null when absent. */
  readonly email: string | null;
  /** The `*_verified` flags as the agent attested them; null when not given. */
  readonly emailVerified: boolean | null;
  readonly phoneNumberVerified: boolean | null;
  readonly addressVerified: boolean | null;
  /** `power_of_attorney`: the agent's reference to the person's signed permission, or null. */
  readonly powerOfAttorney: string | null;
}

/** What decides whether a `status_callback` address may be called (PRODUCT §2.8's rules). */
export interface CallbackAddressRules {
  /** `OUTBOUND_ALLOW_PRIVATE_NETWORKS`: `http://` and private, loopback and link-local addresses allowed. */
  readonly allowPrivate: boolean;
  /** The service's one SSRF judgement of an IP literal (outbound-events' `isForbiddenAddress`), injected. */
  readonly isForbiddenAddress: (address: string) => boolean;
}

/**
 * Validates the claims of a key setup beyond the signed-body checks (DRP §2.05; PRODUCT §2.19
 * "Key setup": `{agent-id, business-id, issued-at, expires-at, "drp.version":"1.0"}`).
 * @returns ok, or `drp_version_invalid` (which key setup answers with its 403 and no body).
 */
export function validateKeySetupClaims(message: Message): DrpResult<null> {
  return ownClaim(message, 'drp.version') === DRP_VERSION ? ok(null) : fail({ reason: 'drp_version_invalid' });
}

/**
 * Validates an exercise's claims (PRODUCT §2.19 "Exercise" and its error table), in this order:
 * `drp.version`, `exercise`, `regime`, `agent-request-id`, `relationships`, `status_callback`,
 * `email`, then the types of the other identity claims. A claim set to JSON `null` counts as
 * absent (PyNaCl-era agents send `"regime": null` when none was chosen). Unknown claims are
 * ignored (DRP §3.04 allows custom claims). `email` absent is not an error here: the request is
 * then denied `insuf_verification` ({@link planExercise}).
 * @returns the claims, or the first failure.
 */
export function validateExerciseClaims(message: Message, rules: CallbackAddressRules): DrpResult<DrpExerciseClaims> {
  const claim: Claim = (name) => {
    const value = ownClaim(message, name);
    return value === null ? undefined : value;
  };
  const request = requestClaims(claim, rules);
  if (!request.ok) return request;
  const email = claim('email');
  if (email !== undefined && typeof email !== 'string')
    return fail({ reason: 'claim_invalid', claim: 'email', expected: 'a string' });
  if (email !== undefined && !isEmailAddress(email.trim())) return fail({ reason: 'email_invalid' });
  const identity = checkIdentityClaimTypes(claim);
  if (!identity.ok) return identity;
  return ok({
    ...request.value,
    email: email === undefined ? null : email.trim(),
    emailVerified: (claim('email_verified') as boolean | undefined) ?? null,
    phoneNumberVerified: (claim('phone_number_verified') as boolean | undefined) ?? null,
    addressVerified: (claim('address_verified') as boolean | undefined) ?? null,
    powerOfAttorney: (claim('power_of_attorney') as string | undefined) ?? null,
  });
}

/** A claim of the message; JSON `null` reads as absent. */
type Claim = (name: string) => unknown;

type RequestClaims = Pick<DrpExerciseClaims, 'exercise' | 'regime' | 'agentRequestId' | 'relationships' | 'statusCallback'>;

/** DRP §2.01's second group (what is asked, and where to answer), in the order of {@link validateExerciseClaims}. */
function requestClaims(claim: Claim, rules: CallbackAddressRules): DrpResult<RequestClaims> {
  if (claim('drp.version') !== DRP_VERSION) return fail({ reason: 'drp_version_invalid' });
  const exercise = claim('exercise');
  if (!isDrpAction(exercise)) return fail({ reason: 'exercise_unsupported' });
  const regime = claim('regime');
  if (regime !== undefined && regime !== 'ccpa' && regime !== 'voluntary') return fail({ reason: 'regime_unsupported' });
  const agentRequestId = claim('agent-request-id');
  if (agentRequestId !== undefined && !isText(agentRequestId, 200)) {
    return fail({ reason: 'claim_invalid', claim: 'agent-request-id', expected: 'a string of 1 to 200 characters' });
  }
  const relationships = claim('relationships') ?? [];
  if (!Array.isArray(relationships) || relationships.length > 20 || !relationships.every((r) => isText(r, 100))) {
    return fail({
      reason: 'claim_invalid',
      claim: 'relationships',
      expected: 'a list of at most 20 strings of 1 to 100 characters',
    });
  }
  const statusCallback = claim('status_callback');
  if (statusCallback !== undefined) {
    const problem = typeof statusCallback === 'string' ? checkStatusCallback(statusCallback, rules) : 'not_url';
    if (problem !== null) return fail({ reason: 'status_callback_invalid', problem });
  }
  return ok({
    exercise,
    regime: (regime as DrpRegime | undefined) ?? null,
    agentRequestId: (agentRequestId as string | undefined) ?? null,
    relationships: relationships as string[],
    statusCallback: (statusCallback as string | undefined) ?? null,
  });
}

/** The schema.org/Person claims of DRP §3.04 other than `email`: their types only. */
const IDENTITY_CLAIM_TYPES: readonly [name: string, test: (v: unknown) => boolean, expected: string][] = [
  ['email_verified', (v) => typeof v === 'boolean', 'a boolean'],
  ['name', (v) => typeof v === 'string', 'a string'],
  ['phone_number', (v) => typeof v === 'string', 'a string'],
  ['phone_number_verified', (v) => typeof v === 'boolean', 'a boolean'],
  // OpenID Connect Core 1.0 §5.1.1 makes `address` a JSON object; DRP-era agents also send text.
  ['address', (v) => typeof v === 'string' || (typeof v === 'object' && !Array.isArray(v)), 'a string or an object'],
  ['address_verified', (v) => typeof v === 'boolean', 'a boolean'],
  ['power_of_attorney', (v) => isText(v, 500), 'a string of 1 to 500 characters'],
];

function checkIdentityClaimTypes(claim: Claim): DrpResult<null> {
  for (const [name, test, expected] of IDENTITY_CLAIM_TYPES) {
    const value = claim(name);
    if (value !== undefined && !test(value)) return fail({ reason: 'claim_invalid', claim: name, expected });
  }
  return ok(null);
}

/** What a revoke body may say (DRP §2.04: `{reason}`). */
export interface DrpRevokeClaims {
  /** The agent's `reason`, or null. */
  readonly reason: string | null;
}

/**
 * Validates a revoke's claims (DRP §2.04; PRODUCT §2.19 "Revoke"): `reason` (1–1000 characters)
 * is optional, and a `request_id` in the body must name the request of the path. The envelope
 * claims (`agent-id` …) were checked by `checkSignedMessage` with `envelope: 'when_present'`.
 */
export function validateRevokeClaims(message: Message, pathRequestId: string): DrpResult<DrpRevokeClaims> {
  const requestId = ownClaim(message, 'request_id');
  if (requestId !== undefined && requestId !== pathRequestId) return fail({ reason: 'request_id_mismatch' });
  const reason = ownClaim(message, 'reason') ?? undefined;
  if (reason !== undefined && !isText(reason, 1000)) {
    return fail({ reason: 'claim_invalid', claim: 'reason', expected: 'a string of 1 to 1000 characters' });
  }
  return ok({ reason: (reason as string | undefined) ?? null });
}

/**
 * The part of the `status_callback` check that needs no DNS (PRODUCT §2.19 and §2.8): an absolute
 * URL of at most 2000 characters, `https://` (`http://` too with `allowPrivate`), no user info,
 * and a host that is an IP literal must not be private, loopback, link-local or reserved unless
 * `allowPrivate`. A host name is judged when it is resolved, at delivery (§2.8).
 * @returns null when acceptable, else the problem.
 */
export function checkStatusCallback(value: string, rules: CallbackAddressRules): StatusCallbackProblem | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not_url';
  }
  if (value.length > 2000) return 'not_url';
  if (!(url.protocol === 'https:' || (rules.allowPrivate && url.protocol === 'http:'))) return 'scheme';
  if (url.username !== '' || url.password !== '') return 'credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!rules.allowPrivate && isIP(host) !== 0 && rules.isForbiddenAddress(host)) return 'address';
  return null;
}

/**
 * An e-mail address as the service accepts one everywhere (the same pattern as
 * `EMAIL_PATTERN` of src/http/schemas/controller.schemas.ts, which a module may not import;
 * test/unit/drp-claims.test.ts keeps the two equal), 3–254 characters.
 */
export const DRP_EMAIL_PATTERN = '^[^\\x00-\\x20@"<>()\\[\\],;:\\\\]{1,64}@[A-Za-z0-9-]{1,63}(\\.[A-Za-z0-9-]{1,63})+$';
const EMAIL = new RegExp(DRP_EMAIL_PATTERN);

function isEmailAddress(text: string): boolean {
  return text.length >= 3 && text.length <= 254 && EMAIL.test(text);
}

/** A string of 1 to `max` characters, counted in Unicode code points (PRODUCT §2.1). */
function isText(value: unknown, max: number): value is string {
  if (typeof value !== 'string' || value.length === 0) return false;
  return [...value].length <= max;
}
