/**
 * A DRP authorized agent for tests (PRODUCT §2.19; DRP 1.0 §3.07.1): an Ed25519 key pair from
 * `node:crypto`, signing exactly as DRP and OSIRAA sign. OSIRAA's `sign_request`
 * (drp_aa_mvp/data_rights_request/views.py):
 *
 *     signed_obj = signing_key.sign(json.dumps(request_obj).encode())   # signature + message
 *     return base64.b64encode(signed_obj)
 *
 * so the body is standard Base64 (padded) of the 64-byte signature followed by the UTF-8 bytes of
 * Python's `json.dumps` (`", "` and `": "` separators, non-ASCII escaped as `\uXXXX`), sent with
 * `Content-Type: text/plain` on POST and with no content type on DELETE. Times are
 * `datetime.now(timezone.utc).isoformat(timespec='milliseconds')` (`…T16:00:00.123+00:00`) and a
 * message lives 15 minutes. {@link pythonJsonDumps} reproduces those bytes; `style: 'compact'`
 * signs `JSON.stringify`'s bytes instead (another agent's spelling).
 */
import { createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** PKCS #8 prefix of an Ed25519 private key given by its 32-byte seed (RFC 8410 §7). */
const PKCS8_ED25519_SEED_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** How a message is spelled before it is signed. */
export type MessageStyle = 'osiraa' | 'compact';

/** The times of a message, relative to `now`. */
export interface ClaimTimes {
  readonly now: Date;
  /** `issued-at` − now (default 0). */
  readonly issuedOffsetMs?: number;
  /** `expires-at` − `issued-at` (default 15 minutes, as OSIRAA). */
  readonly ttlMs?: number;
  /** `osiraa`: `+00:00` (default); `z`: `Z`; `none`: no offset at all (refused). */
  readonly offset?: 'osiraa' | 'z' | 'none';
}

/** Times of the variants the tests need: fresh, expired, issued in the future, without an offset. */
export const TIMES = {
  fresh: (now: Date): ClaimTimes => ({ now }),
  expired: (now: Date): ClaimTimes => ({ now, issuedOffsetMs: -20 * 60_000 }),
  issuedInFuture: (now: Date): ClaimTimes => ({ now, issuedOffsetMs: 5 * 60_000 }),
  withoutOffset: (now: Date): ClaimTimes => ({ now, offset: 'none' }),
  windowOverAnHour: (now: Date): ClaimTimes => ({ now, ttlMs: 61 * 60_000 }),
};

export interface DrpTestAgent {
  readonly agentId: string;
  /** The verify key as DRP 1.0 and the service take it: standard Base64 of the 32 raw bytes. */
  readonly verifyKey: string;
  /** The same key in DRP 0.9's 64-hex form (refused by the service). */
  readonly verifyKeyHex: string;
  readonly privateKey: KeyObject;
  /** Signs a message object (its key order kept) and returns the body to send. */
  sign(message: Readonly<Record<string, unknown>>, style?: MessageStyle): string;
  /** Signs these exact bytes (combined mode) and returns the body to send. */
  signBytes(bytes: Uint8Array): string;
  /** Key setup's message (DRP §2.05), in OSIRAA's key order. */
  keySetupClaims(businessId: string, times: ClaimTimes): Record<string, unknown>;
  /**
   * An exercise's message (DRP §2.01) in OSIRAA's key order (`create_exercise_request_json`):
   * deletion, `ccpa`, a callback, `name`, `email` and `email_verified: true`. `fields` replace or
   * add members; a field set to `undefined` is left out.
   */
  exerciseClaims(businessId: string, times: ClaimTimes, fields?: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

/** An agent with a key pair made from `seed` (32 bytes), or a fresh random key pair. */
export function createDrpAgent(agentId: string, seed?: Buffer): DrpTestAgent {
  const der = Buffer.concat([PKCS8_ED25519_SEED_PREFIX, seed ?? randomBytes(32)]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const raw = Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x as string, 'base64url');
  const signBytes = (bytes: Uint8Array) => Buffer.concat([sign(null, bytes, privateKey), bytes]).toString('base64');
  return {
    agentId,
    verifyKey: raw.toString('base64'),
    verifyKeyHex: raw.toString('hex'),
    privateKey,
    signBytes,
    sign: (message, style = 'osiraa') =>
      signBytes(Buffer.from(style === 'osiraa' ? pythonJsonDumps(message) : JSON.stringify(message), 'utf8')),
    keySetupClaims: (businessId, times) => ({
      'agent-id': agentId,
      'business-id': businessId,
      ...timeClaims(times),
      'drp.version': '1.0',
    }),
    exerciseClaims: (businessId, times, fields = {}) =>
      withFields(
        {
          'agent-id': agentId,
          'business-id': businessId,
          ...timeClaims(times),
          'drp.version': '1.0',
          exercise: 'deletion',
          regime: 'ccpa',
          status_callback: 'https://agent.example/drp/update_status',
          name: 'Doe, Jane',
          email: 'jane.doe@example.com',
          email_verified: true,
        },
        fields,
      ),
  };
}

/** The committed test agent (test/fixtures/drp/test-agent-key.json): a TEST key, public on purpose. */
export function fixtureDrpAgent(): DrpTestAgent {
  const file = JSON.parse(readFileSync(new URL('../fixtures/drp/test-agent-key.json', import.meta.url), 'utf8')) as {
    agent_id: string;
    signing_seed: string;
  };
  return createDrpAgent(file.agent_id, Buffer.from(file.signing_seed, 'base64'));
}

function withFields(base: Record<string, unknown>, fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base, ...fields };
  for (const [key, value] of Object.entries(fields)) if (value === undefined) delete merged[key];
  return merged;
}

/** `issued-at` and `expires-at` for `times`. */
export function timeClaims(times: ClaimTimes): { 'issued-at': string; 'expires-at': string } {
  const issued = times.now.getTime() + (times.issuedOffsetMs ?? 0);
  const expires = issued + (times.ttlMs ?? 15 * 60_000);
  return { 'issued-at': drpTime(issued, times.offset), 'expires-at': drpTime(expires, times.offset) };
}

/** A time as Python's `isoformat(timespec='milliseconds')` of an aware UTC datetime writes it (or with `Z`, or with no offset). */
export function drpTime(ms: number, offset: ClaimTimes['offset'] = 'osiraa'): string {
  const iso = new Date(ms).toISOString(); // 2025-09-10T16:00:00.123Z
  if (offset === 'z') return iso;
  return iso.slice(0, -1) + (offset === 'none' ? '' : '+00:00');
}

/**
 * Python's `json.dumps(value)` with its defaults (separators `", "` and `": "`, `ensure_ascii`:
 * every character outside printable ASCII as `\uXXXX` in lowercase hex, astral ones as surrogate
 * pairs), for strings, integers, booleans, null, lists and objects (keys in insertion order).
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error('pythonJsonDumps: only integers are spelled as Python spells them');
    return String(value);
  }
  if (typeof value === 'string') return asciiOnly(JSON.stringify(value));
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${members.map(([k, v]) => `${asciiOnly(JSON.stringify(k))}: ${pythonJsonDumps(v)}`).join(', ')}}`;
  }
  throw new Error(`pythonJsonDumps: cannot spell a ${typeof value}`);
}

function asciiOnly(json: string): string {
  return json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The body with one byte of the signed message changed (the signature kept), re-encoded: a
 * tampered message. `at` counts from the start of the message (default: its middle).
 */
export function withOneByteChanged(body: string, at?: number): string {
  const bytes = Buffer.from(body, 'base64');
  const index = 64 + (at ?? Math.floor((bytes.length - 64) / 2));
  bytes[index] = (bytes[index] as number) ^ 0x01;
  return bytes.toString('base64');
}

/** The same signed bytes in another spelling: no padding, a line break and spaces around (a replay). */
export function respelled(body: string): string {
  return `\r\n  ${body.replace(/=+$/, '')}\n`;
}
