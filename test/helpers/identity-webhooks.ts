/** Signing and delivery helpers for `POST /webhook/identity` tests (PRODUCT.md §2.6). */
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { TestApp } from './app.js';

/** A fresh Standard Webhooks secret (`whsec_` + base64 of 24 random bytes), as Clerk/Svix issue them. */
export function newStandardSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Standard Webhooks headers for `body`: `webhook-id`/`-timestamp`/`-signature`, or their `svix-`
 * twins. Signed with the `standardwebhooks` package itself, at `at` (default now).
 */
export function standardHeaders(
  secret: string,
  messageId: string,
  body: string,
  options: { at?: Date; prefix?: 'webhook' | 'svix' } = {},
): Record<string, string> {
  const at = options.at ?? new Date();
  const prefix = options.prefix ?? 'webhook';
  return {
    'content-type': 'application/json',
    [`${prefix}-id`]: messageId,
    [`${prefix}-timestamp`]: String(Math.floor(at.getTime() / 1000)),
    [`${prefix}-signature`]: new Webhook(secret).sign(messageId, at, body),
  };
}

/** `WorkOS-Signature: t=<unix ms>, v1=<hex HMAC-SHA-256 of "t.body">` (WorkOS Docs, "Webhooks"). */
export function workosHeaders(secret: string, body: string, at: Date = new Date()): Record<string, string> {
  const t = at.getTime();
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return { 'content-type': 'application/json', 'workos-signature': `t=${t}, v1=${v1}` };
}

/** A canonical (`format: standard`) identity event body. */
export function canonicalEvent(id: string, type: string, occurredAt: string, data: Record<string, unknown>): string {
  return JSON.stringify({ id, type, occurred_at: occurredAt, data });
}

/** Minutes from now, as a Date. */
export function minutesFromNow(minutes: number): Date {
  return new Date(Date.now() + minutes * 60_000);
}

/** Flips one bit of the byte at `index` (default: the middle) of an ASCII body. */
export function flipByte(body: string, index = Math.floor(body.length / 2)): string {
  const bytes = Buffer.from(body, 'utf8');
  bytes[index] = (bytes[index] ?? 0) ^ 0x01;
  return bytes.toString('utf8');
}

/** `POST /webhook/identity[?integration=…]` with the raw body and headers. */
export function postIdentity(t: TestApp, body: string, headers: Record<string, string>, integration?: string) {
  const url = integration ? `/webhook/identity?integration=${encodeURIComponent(integration)}` : '/webhook/identity';
  return t.app.inject({ method: 'POST', url, headers, payload: body });
}

/** How many identity events are stored for the subject (workspace, provider, user id). */
export async function countIdentityEvents(t: TestApp, workspaceId: string, provider: string, userId: string): Promise<number> {
  const rows = await t.services.database.db
    .selectFrom('identity_events')
    .innerJoin('subjects', 'subjects.id', 'identity_events.subject_ref')
    .select('identity_events.event_id')
    .where('subjects.workspace_id', '=', workspaceId)
    .where('subjects.subject_provider', '=', provider)
    .where('subjects.subject_id', '=', userId)
    .execute();
  return rows.length;
}

/** The detail of every 401 from a webhook (PRODUCT.md §2.6). */
export const UNVERIFIED = { detail: 'Webhook signature or token could not be verified' };
