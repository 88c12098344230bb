/** Sending GitHub/GitLab deliveries to a test app, and counting what they stored. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Services } from '../../src/services.js';
import { githubSignature } from './webhook-payloads.js';

export interface GithubDelivery {
  /** The exact body text (or bytes) sent and signed. */
  body: string | Buffer;
  /** Signs `body` with this secret; ignored when `signature` is given. Null: no signature header. */
  secret: string | null;
  signature?: string;
  event?: string;
  /** `X-GitHub-Delivery`; a fresh UUID by default. */
  delivery?: string;
  contentType?: string;
  /** Query string, e.g. `?integration=int_…`. */
  query?: string;
}

/** POSTs a delivery to `/webhook/prhost` (event `pull_request`, JSON, signed, by default). */
export function sendGithub(app: FastifyInstance, d: GithubDelivery): Promise<LightMyRequestResponse> {
  const signature = d.signature ?? (d.secret === null ? undefined : githubSignature(d.secret, d.body));
  return app.inject({
    method: 'POST',
    url: `/webhook/prhost${d.query ?? ''}`,
    headers: {
      'content-type': d.contentType ?? 'application/json',
      'x-github-event': d.event ?? 'pull_request',
      'x-github-delivery': d.delivery ?? randomUUID(),
      ...(signature === undefined ? {} : { 'x-hub-signature-256': signature }),
    },
    payload: d.body,
  });
}

export interface GitlabDelivery {
  body: string | Buffer;
  /** `X-Gitlab-Token`; null: no token header. */
  token: string | null;
  event?: string;
  /** `X-Gitlab-Event-UUID`; a fresh UUID by default, null for none. */
  uuid?: string | null;
  idempotencyKey?: string;
  contentType?: string;
  query?: string;
}

/** POSTs a delivery to `/webhook/mrhost` (event `Merge Request Hook`, JSON, by default). */
export function sendGitlab(app: FastifyInstance, d: GitlabDelivery): Promise<LightMyRequestResponse> {
  const uuid = d.uuid === undefined ? randomUUID() : d.uuid;
  return app.inject({
    method: 'POST',
    url: `/webhook/mrhost${d.query ?? ''}`,
    headers: {
      'content-type': d.contentType ?? 'application/json',
      'x-gitlab-event': d.event ?? 'Merge Request Hook',
      ...(d.token === null ? {} : { 'x-gitlab-token': d.token }),
      ...(uuid === null ? {} : { 'x-gitlab-event-uuid': uuid }),
      ...(d.idempotencyKey === undefined ? {} : { 'idempotency-key': d.idempotencyKey }),
    },
    payload: d.body,
  });
}

/** How many change events and remembered deliveries the database holds. */
export async function storedCounts(services: Services): Promise<{ events: number; deliveries: number }> {
  const db = services.database.db;
  const events = await db
    .selectFrom('change_events')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return { events: Number(events.n), deliveries: Number(deliveries.n) };
}

/** The service's keyed-pseudonym key (generated on first start, kept in `service_keys`). */
export async function pseudonymKey(services: Services): Promise<string> {
  const row = await services.database.db
    .selectFrom('service_keys')
    .select('value')
    .where('name', '=', 'pseudonym_key')
    .executeTakeFirstOrThrow();
  return row.value;
}

/** The 401 body of every unverifiable delivery (PRODUCT.md §2.6). */
export const UNVERIFIED = { detail: 'Webhook signature or token could not be verified' };
