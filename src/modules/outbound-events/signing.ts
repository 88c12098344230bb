import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** How long a rotated-out secret keeps signing next to the new one (PRODUCT §2.8). */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

/** A new endpoint signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The headers that sign one delivery (Standard Webhooks 1.0: `webhook-id`, `-timestamp`, `-signature`). */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs `payload` (the exact body bytes sent) for message `msgId` at `timestamp` with every
 * secret in `secrets` (the current one first, then a rotated-out one still inside its 24 h):
 * `webhook-signature` holds one `v1,<base64>` per secret, space-separated, so a receiver that
 * knows either secret verifies it. Spec: Standard Webhooks 1.0, via the `standardwebhooks` package.
 * @throws Error when `secrets` is empty or a secret is not base64 after `whsec_`.
 */
export function signatureHeaders(msgId: string, timestamp: Date, payload: string, secrets: readonly string[]): SignatureHeaders {
  if (secrets.length === 0) throw new Error('no signing secret');
  const signatures = secrets.map((secret) => new Webhook(secret).sign(msgId, timestamp, payload));
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
