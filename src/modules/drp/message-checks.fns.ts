import { fail, ok, type DrpFailure, type DrpResult } from './drp-failure.types.js';
import { parseDrpTime } from './drp-time.fns.js';
import {
  type DecodedSignedBody,
  decodeSignedBody,
  parseSignedMessage,
  signatureVerifies,
  signedMessageDigest,
  type DrpVerifyKey,
} from './signed-body.fns.js';

/** How far `issued-at` may be ahead of the service's clock (PRODUCT §2.19: clock skew). */
export const CLOCK_SKEW_MS = 60_000;
/** The longest `expires-at` − `issued-at` accepted (PRODUCT §2.19; DRP §2.01 recommends 10 minutes). */
export const MAX_WINDOW_MS = 60 * 60_000;

/** A key a message may be signed with, and the agent and business it stands for. */
export interface DrpSigner {
  /** The agent's DRP id, as `agent-id` must name it. */
  readonly agentId: string;
  /** The business's DRP id (the workspace's `business_id`), as `business-id` must name it. */
  readonly businessId: string;
  /** The agent's registered verify key. */
  readonly verifyKey: DrpVerifyKey;
}

/** What to check a signed body against. */
export interface SignedMessageExpectation<S extends DrpSigner> {
  /**
   * The keys that may have signed it. With a bearer token: the one registration the token was
   * issued for. For key setup (no token): every registration of the path's `{agent-id}`, one per
   * workspace that registered it, so the message is never read before a signature verified it.
   */
  readonly signers: readonly S[];
  /** The service's clock, read once for the whole check. */
  readonly now: Date;
  /**
   * `required` (key setup, exercise): `agent-id`, `business-id`, `issued-at` and `expires-at` must
   * be there. `when_present` (revoke, whose DRP body is `{reason}` alone, §2.04): each one given
   * is checked like an exercise's, and one left out is not.
   */
  readonly envelope: 'required' | 'when_present';
}

/** A message that passed every check of DRP §3.07 and the window rule. */
export interface CheckedMessage<S extends DrpSigner> {
  /** The registration whose key verified it and whose business it names. */
  readonly signer: S;
  /** The members of the signed JSON object, as signed (validate them next, by route). */
  readonly message: Readonly<Record<string, unknown>>;
  /** {@link signedMessageDigest}: the single-use key. */
  readonly digest: string;
  /** `issued-at` and `expires-at`, epoch ms (null only when absent under `when_present`). */
  readonly issuedAt: number | null;
  readonly expiresAt: number | null;
}

/**
 * Checks a DRP signed body in DRP's order (§3.07; PRODUCT §2.19 "Signed bodies"), each failure
 * ending the check: 1. the body decodes; 2. the signature verifies under a signer's key; then the
 * JSON is parsed (not an object: `message_not_object`); 3. `agent-id` = the signer's agent;
 * 4. `business-id` = the signer's business; 5. `issued-at` ≤ now + 60 s; 6. now < `expires-at`;
 * then the window, 0 < `expires-at` − `issued-at` ≤ 1 h. A time that is not ISO 8601 with an
 * offset fails its own step (`time_invalid`). Single use is the store's: it keeps `digest` until
 * `expiresAt` and refuses it again (`replayed`).
 * @returns the checked message, or the first failure.
 */
export async function checkSignedMessage<S extends DrpSigner>(
  body: string | Uint8Array,
  expect: SignedMessageExpectation<S>,
): Promise<DrpResult<CheckedMessage<S>>> {
  const decoded = decodeSignedBody(body);
  if (!decoded.ok) return decoded;
  return checkDecodedMessage(decoded.value, expect);
}

/**
 * {@link checkSignedMessage} from step 2 on, for a body its caller decoded already (an exercise
 * decodes once, for the single-use read made beside the pairing's).
 */
export async function checkDecodedMessage<S extends DrpSigner>(
  decoded: DecodedSignedBody,
  expect: SignedMessageExpectation<S>,
): Promise<DrpResult<CheckedMessage<S>>> {
  const verdicts = await Promise.all(expect.signers.map((s) => signatureVerifies(decoded, s.verifyKey)));
  const verifiedBy = expect.signers.filter((_s, i) => verdicts[i]);
  if (verifiedBy.length === 0) return fail({ reason: 'signature_invalid' });
  const parsed = parseSignedMessage(decoded.message);
  if (!parsed.ok) return parsed;
  const message = parsed.value;
  const required = expect.envelope === 'required';

  const agentId = ownClaim(message, 'agent-id');
  const byAgent = agentId === undefined && !required ? verifiedBy : verifiedBy.filter((s) => s.agentId === agentId);
  if (byAgent.length === 0) return fail({ reason: 'agent_mismatch' });
  const businessId = ownClaim(message, 'business-id');
  const signer = businessId === undefined && !required ? byAgent[0] : byAgent.find((s) => s.businessId === businessId);
  if (signer === undefined) return fail({ reason: 'business_mismatch' });

  const times = checkTimes(message, expect.now.getTime(), required);
  if (!times.ok) return times;
  return ok({ signer, message, digest: signedMessageDigest(decoded), ...times.value });
}

type Times = { issuedAt: number | null; expiresAt: number | null };

/** Steps 5 and 6 of DRP §3.07 and the window rule, in that order. */
function checkTimes(message: Readonly<Record<string, unknown>>, now: number, required: boolean): DrpResult<Times> {
  const issued = timeClaim(message, 'issued-at', required);
  if (!issued.ok) return issued;
  const issuedAt = issued.value;
  if (issuedAt !== null && issuedAt > now + CLOCK_SKEW_MS) return fail({ reason: 'issued_in_future' });
  const expires = timeClaim(message, 'expires-at', required);
  if (!expires.ok) return expires;
  const expiresAt = expires.value;
  if (expiresAt !== null && !(now < expiresAt)) return fail({ reason: 'expired' });
  if (issuedAt !== null && expiresAt !== null && !(expiresAt > issuedAt && expiresAt - issuedAt <= MAX_WINDOW_MS)) {
    return fail({ reason: 'window_invalid' });
  }
  return ok({ issuedAt, expiresAt });
}

function timeClaim(
  message: Readonly<Record<string, unknown>>,
  claim: 'issued-at' | 'expires-at',
  required: boolean,
): DrpResult<number | null> {
  const value = ownClaim(message, claim);
  if (value === undefined && !required) return ok(null);
  const at = parseDrpTime(value);
  const failure: DrpFailure = { reason: 'time_invalid', claim };
  return at === null ? fail(failure) : ok(at);
}

/** A member of the signed object, or undefined when the object has no own member of that name. */
export function ownClaim(message: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(message, name) ? message[name] : undefined;
}
