import { createPublicKey, hash, verify, type KeyObject } from 'node:crypto';
import { fail, ok, type DrpResult } from './drp-failure.types.js';

/** Bytes of an Ed25519 signature (RFC 8032 §5.1.6). */
export const SIGNATURE_BYTES = 64;
/** Bytes of an Ed25519 public key (RFC 8032 §5.1.5). */
export const VERIFY_KEY_BYTES = 32;

/** A signed body split as libsodium's "combined mode" lays it out: the signature, then the message. */
export interface DecodedSignedBody {
  /** The 64-byte Ed25519 signature. */
  readonly signature: Buffer;
  /** The exact bytes that were signed (the JSON text, UTF-8), never re-serialised. */
  readonly message: Buffer;
}

/** Standard Base64 (RFC 4648 §4), padding optional but complete when present; no `-`/`_`, no inner whitespace. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
/** ASCII whitespace around the body (a trailing newline from `curl -d @file`, say). */
const AROUND = /^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g;

/**
 * Decodes a DRP signed body (DRP §3.07 "decodes from a base64 request in to a binary buffer",
 * §3.07.1 combined mode; PRODUCT §2.19 "Signed bodies"): standard Base64, ASCII whitespace around
 * it ignored, of a 64-byte signature followed by at least one byte of message. The body's
 * `Content-Type` plays no part.
 * @param body - the raw request body, as text or bytes (bytes outside ASCII fail).
 * @returns the signature and the signed bytes, or `body_not_base64`.
 */
export function decodeSignedBody(body: string | Uint8Array): DrpResult<DecodedSignedBody> {
  const text = (typeof body === 'string' ? body : Buffer.from(body).toString('latin1')).replace(AROUND, '');
  if (!BASE64.test(text)) return fail({ reason: 'body_not_base64' });
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length <= SIGNATURE_BYTES) return fail({ reason: 'body_not_base64' });
  return ok({ signature: bytes.subarray(0, SIGNATURE_BYTES), message: bytes.subarray(SIGNATURE_BYTES) });
}

/** An agent's Ed25519 verify key, parsed once (at registration, or when a registration is loaded). */
export interface DrpVerifyKey {
  /** The 32 raw public-key bytes. */
  readonly raw: Buffer;
  /** Node's key object for `crypto.verify`. */
  readonly key: KeyObject;
  /** The key as stored and shown: standard Base64 with padding (44 characters). */
  readonly text: string;
  /** {@link keyFingerprint} of the key. */
  readonly fingerprint: string;
}

/** Why a `verify_key` is refused (the 422 `verify_key_invalid` says which). */
export type VerifyKeyProblem = 'hex_form' | 'not_base64_32_bytes' | 'low_order';

/** A 32-byte key in standard Base64: 42 characters, then one whose low 4 bits are zero (canonical), then `=` or nothing. */
const KEY_BASE64 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$/;

/**
 * Parses a DRP `verify_key` (PRODUCT §2.19; DRP §3.05.1 and change log 0.9 → 0.9.1: Base64 since
 * 0.9.1, as PyNaCl's `Base64Encoder`): standard Base64 of the 32 raw bytes, padding optional,
 * canonical, nothing around it. The 64-hex form of DRP ≤ 0.9 (OSIRAA's `agents.json` still
 * holds one) is refused, and so is any of the low-order points libsodium refuses as a public key
 * (OpenSSL, under Node's `crypto.verify`, accepts them, and with such a key anyone can make a
 * signature that verifies).
 * @returns the parsed key, or the problem (for the 422 of type `verify_key_invalid`).
 */
export function parseVerifyKey(text: string): { ok: true; key: DrpVerifyKey } | { ok: false; problem: VerifyKeyProblem } {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return { ok: false, problem: 'hex_form' };
  if (!KEY_BASE64.test(text)) return { ok: false, problem: 'not_base64_32_bytes' };
  const raw = Buffer.from(text, 'base64');
  if (raw.length !== VERIFY_KEY_BYTES) return { ok: false, problem: 'not_base64_32_bytes' };
  if (isLowOrderPoint(raw)) return { ok: false, problem: 'low_order' };
  let key: KeyObject;
  try {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  } catch {
    return { ok: false, problem: 'not_base64_32_bytes' };
  }
  return { ok: true, key: { raw, key, text: raw.toString('base64'), fingerprint: keyFingerprint(raw) } };
}

/** The sentence of a {@link VerifyKeyProblem}, for the 422's `msg`. */
export function verifyKeyProblemMessage(problem: VerifyKeyProblem): string {
  switch (problem) {
    case 'hex_form':
      return 'verify_key is in the hexadecimal form of DRP 0.9; DRP 1.0 takes the standard Base64 of the 32 raw key bytes';
    case 'not_base64_32_bytes':
      return 'verify_key must be the standard Base64 of a 32-byte Ed25519 public key';
    case 'low_order':
      return 'verify_key is a low-order point, which verifies forged signatures; it is not an Ed25519 public key of a signer';
  }
}

/**
 * The fingerprint of a verify key: SHA-256 of its 32 raw bytes, lowercase hex (64 characters).
 * Shown beside the key (`key_fingerprint`) so an operator can compare it with the agent's.
 */
export function keyFingerprint(raw: Uint8Array): string {
  return hash('sha256', raw, 'hex');
}

/**
 * Whether the signature verifies the message under the key (Ed25519, RFC 8032 §5.1.7, by Node's
 * own `crypto.verify`; a bad length or malformed signature is simply `false`).
 *
 * Fast path: the check runs on libuv's thread pool (`crypto.verify` with a callback), not on the
 * event loop. It saves the loop ≈ 0.13 ms per signed body on the CI machine (an Ed25519 verify;
 * bench row `drp-exercise`), time every other request in flight would otherwise wait; the
 * answer is the same as the synchronous call's.
 * @returns (resolves) true when it verifies; never rejects.
 */
export function signatureVerifies(decoded: DecodedSignedBody, key: DrpVerifyKey): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      verify(null, decoded.message, key.key, decoded.signature, (error, valid) => resolve(error === null && valid));
    } catch {
      resolve(false);
    }
  });
}

/**
 * The key of the single-use rule (PRODUCT §2.19: "the same signed body was never used before"):
 * SHA-256 of the signed message bytes, lowercase hex. Computed on the decoded message, so the
 * same message sent again in another Base64 spelling, with other whitespace or under another
 * signature of its own signer counts as the same. The store keeps it until `expires-at`.
 */
export function signedMessageDigest(decoded: DecodedSignedBody): string {
  return hash('sha256', decoded.message, 'hex');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parses the signed bytes, only after the signature verified (PRODUCT §2.19): strict UTF-8, JSON
 * (RFC 8259; a byte-order mark is refused), and a JSON object. Unknown members are kept: DRP
 * allows custom claims (§3.04).
 * @returns the members, or `message_not_object` (invalid UTF-8, invalid JSON, or not an object).
 */
export function parseSignedMessage(message: Uint8Array): DrpResult<Readonly<Record<string, unknown>>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(UTF8.decode(message));
  } catch {
    return fail({ reason: 'message_not_object' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail({ reason: 'message_not_object' });
  return ok(parsed as Record<string, unknown>);
}

/**
 * The encodings of Ed25519's low-order points (orders 1, 2, 4 and 8), and of 0 and 1 written as
 * p and p + 1, compared without the sign bit: libsodium's blocklist
 * (`crypto_sign_ed25519_verify_detached` refuses such a public key). test/unit/drp-signed-body.test.ts
 * shows each one letting Node verify a forged signature.
 */
const LOW_ORDER = [
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0100000000000000000000000000000000000000000000000000000000000000',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
].map((hex) => Buffer.from(hex, 'hex'));

function isLowOrderPoint(raw: Buffer): boolean {
  const unsigned = Buffer.from(raw);
  unsigned[31] = (unsigned[31] as number) & 0x7f;
  return LOW_ORDER.some((point) => point.equals(unsigned));
}
