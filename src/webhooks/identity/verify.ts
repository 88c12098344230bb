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

/**
 * Standard Webhooks verification (also Clerk, which signs through Svix with the same scheme):
 * `webhook-id`/`webhook-timestamp`/`webhook-signature`, or their `svix-` twins; HMAC-SHA-256 over
 * `id.timestamp.body`; 5-minute tolerance. Uses the `standardwebhooks` package.
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
