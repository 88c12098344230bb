import { isUtf8 } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { header } from '../shared/webhook-body.js';

/** Signature timestamps further than this from now are refused (replay window), ms. */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;

/** The delivery's message id (`webhook-id` or Svix's `svix-id`), or undefined. */
export function messageId(request: FastifyRequest): string | undefined {
  return header(request, 'webhook-id') ?? header(request, 'svix-id');
}

/** How far a Standard Webhooks timestamp may be from now, seconds (the `standardwebhooks` package's tolerance). */
const STANDARD_TOLERANCE_S = TIMESTAMP_TOLERANCE_MS / 1000;

/** Decoded keys by secret, or null for a secret only the `standardwebhooks` package may judge. Bounded. */
const standardKeys = new Map<string, Buffer | null>();
const PROBE = { id: 'msg_probe', timestamp: 1_614_265_330, body: '{"probe":true}' };

/**
 * The HMAC key of a Standard Webhooks secret (`whsec_` + base64), decoded once per secret. A key
 * is used only when it signs a probe exactly as the `standardwebhooks` package does, so the two
 * decoders never disagree; otherwise null (the package then verifies, or refuses, the delivery).
 * Caching needs no invalidation: the key is a pure function of the secret.
 */
function standardKey(secret: string): Buffer | null {
  const known = standardKeys.get(secret);
  if (known !== undefined) return known;
  let key: Buffer | null = null;
  try {
    const expected = new Webhook(secret).sign(PROBE.id, new Date(PROBE.timestamp * 1000), PROBE.body);
    const decoded = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
    const probe = createHmac('sha256', decoded).update(`${PROBE.id}.${PROBE.timestamp}.${PROBE.body}`).digest('base64');
    key = expected === `v1,${probe}` ? decoded : null;
  } catch {
    key = null;
  }
  if (standardKeys.size >= 100) standardKeys.clear();
  standardKeys.set(secret, key);
  return key;
}

/** The signed content's body: the bytes as the package reads them (a Buffer that is not UTF-8 is decoded lossily first). */
function signedBody(body: Buffer | string): Buffer | string {
  return typeof body === 'string' || isUtf8(body) ? body : Buffer.from(body.toString('utf8'), 'utf8');
}

/** True when one of the space-separated `v1,<base64>` signatures is `expected`, compared in constant time. */
function anySignatureMatches(signatures: string, expected: Buffer): boolean {
  let matched = false;
  for (const versioned of signatures.split(' ')) {
    const [version, signature] = versioned.split(',');
    if (version !== 'v1' || signature === undefined) continue;
    const presented = Buffer.from(signature, 'utf8');
    if (presented.length === expected.length && timingSafeEqual(presented, expected)) matched = true;
  }
  return matched;
}

/**
 * Standard Webhooks verification with node:crypto, exactly as `Webhook.verify` of the
 * `standardwebhooks` package decides (which computes its HMAC in JavaScript): headers required,
 * timestamp read with `parseInt` and within 5 minutes of `Date.now()` either way, HMAC-SHA-256
 * over `id.timestamp.body`, any `v1` signature of the space-separated list.
 */
function verifyWithKey(
  key: Buffer,
  headers: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>,
  body: Buffer | string,
): boolean {
  const id = headers['webhook-id'];
  const signatures = headers['webhook-signature'];
  if (!id || !signatures || !headers['webhook-timestamp']) return false;
  const timestamp = Number.parseInt(headers['webhook-timestamp'], 10);
  const now = Math.floor(Date.now() / 1000);
  if (Number.isNaN(timestamp) || now - timestamp > STANDARD_TOLERANCE_S || timestamp > now + STANDARD_TOLERANCE_S) return false;
  const digest = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(signedBody(body)).digest('base64');
  return anySignatureMatches(signatures, Buffer.from(digest, 'utf8'));
}

/**
 * Standard Webhooks verification (also Clerk, which signs through Svix with the same scheme):
 * `webhook-id`/`webhook-timestamp`/`webhook-signature`, or their `svix-` twins; HMAC-SHA-256 over
 * `id.timestamp.body`; 5-minute tolerance. Decides as the `standardwebhooks` package does, with
 * node:crypto and the secret decoded once (see {@link standardKey}).
 * Source: Standard Webhooks specification 1.0, "Verifying webhook authenticity".
 *
 * @param body - the raw bytes (a Buffer keeps a BOM and any byte exactly).
 * @returns false when a header is missing, the timestamp is stale, or no signature matches.
 */
export function verifyStandardWebhook(secret: string, request: FastifyRequest, body: Buffer | string): boolean {
  const headers = {
    'webhook-id': messageId(request) ?? '',
    'webhook-timestamp': header(request, 'webhook-timestamp') ?? header(request, 'svix-timestamp') ?? '',
    'webhook-signature': header(request, 'webhook-signature') ?? header(request, 'svix-signature') ?? '',
  };
  const key = standardKey(secret);
  if (key !== null) return verifyWithKey(key, headers, body);
  try {
    new Webhook(secret).verify(body, headers, { jsonParse: false });
    return true;
  } catch {
    return false;
  }
}

/**
 * WorkOS verification: `WorkOS-Signature: t=<unix ms>, v1=<hex HMAC-SHA-256 of "t.body">`,
 * compared in constant time, with the timestamp within {@link TIMESTAMP_TOLERANCE_MS} of `now`.
 * Source: WorkOS Docs, "Webhooks: validating webhooks".
 *
 * @returns false when the header is missing or malformed, stale, or the signature differs.
 */
export function verifyWorkosSignature(
  secret: string,
  signatureHeader: string | undefined,
  body: Buffer | string,
  now: Date,
): boolean {
  const parts = Object.fromEntries((signatureHeader ?? '').split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  const signature = parts.v1;
  if (!Number.isSafeInteger(timestamp) || !signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
  if (Math.abs(now.getTime() - timestamp) > TIMESTAMP_TOLERANCE_MS) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.`).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
