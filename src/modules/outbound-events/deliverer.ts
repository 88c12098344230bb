import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { followEndpointHealth } from './endpoint-health.js';
import { claimDueMessages, type ClaimedMessage, recordAttempt } from './message-delivery.repository.js';
import { attemptDelivery, type AttemptOutcome, DELIVERY_TIMEOUT_MS } from './http-attempt.js';
import { nextAttemptAt } from './retry-schedule.js';
import { signatureHeaders } from './signing.js';

/** What the deliverer needs. `timeoutMs` and `random` exist for tests only. */
export interface DelivererOptions {
  db: Kysely<DB>;
  secretBox: SecretBox;
  /** `OUTBOUND_ALLOW_PRIVATE_NETWORKS`. */
  allowPrivate: boolean;
  clock: () => Date;
  /** Messages claimed per round of {@link deliverDueMessages} (default 20). */
  batchSize?: number;
  /** `OUTBOUND_ENDPOINT_CONCURRENCY`: most attempts in flight per endpoint (default 2; 1 while it fails). */
  perEndpoint?: number;
  /**
   * `OUTBOUND_ENDPOINT_BURST`: the cap of an endpoint whose last attempt from this process
   * succeeded within {@link FAST_ATTEMPT_MS} (default 64; at least `perEndpoint`).
   */
  burst?: number;
  timeoutMs?: number;
  random?: () => number;
  /** Told each recorded attempt's result: `delivered`, `retried` (another attempt is due) or `failed` (no more); and each endpoint disabled. */
  onAttempt?: (result: 'delivered' | 'retried' | 'failed') => void;
  onEndpointDisabled?: () => void;
}

/** Default of `OUTBOUND_ENDPOINT_CONCURRENCY`. */
export const DEFAULT_ENDPOINT_CONCURRENCY = 2;

/** An attempt answered 2xx within this long marks its endpoint fast (it may burst). */
export const FAST_ATTEMPT_MS = 1_000;

/**
 * What the deliverer of one process knows of each endpoint's speed: fast while its last attempt
 * from this process succeeded within {@link FAST_ATTEMPT_MS}. A fast endpoint's cap is `burst`,
 * any other's `perEndpoint`, a failing one's 1 (fair-claim.fns.ts). An endpoint that starts to
 * hang holds at most `burst` slots until its attempts time out and it is failing.
 */
export class EndpointSpeeds {
  private readonly fast = new Set<string>();
  constructor(
    readonly perEndpoint: number,
    readonly burst: number,
  ) {}

  /** Notes one attempt's outcome. */
  note(endpointId: string, ok: boolean, durationMs: number): void {
    if (ok && durationMs < FAST_ATTEMPT_MS) this.fast.add(endpointId);
    else this.fast.delete(endpointId);
  }

  /** The endpoint's cap now. */
  capOf = (endpointId: string, failingSince: string | null): number =>
    failingSince !== null ? 1 : this.fast.has(endpointId) ? this.burst : this.perEndpoint;
}

/**
 * Claims up to `limit` due messages for delivery, fairly (delivery.repository.ts
 * `claimDueMessages`: per-endpoint cap, round-robin across workspaces and endpoints), leased for
 * twice the attempt timeout plus 5 s.
 */
export function claimForDelivery(options: DelivererOptions, limit: number, speeds?: EndpointSpeeds): Promise<ClaimedMessage[]> {
  const now = options.clock();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const lease = new Date(now.getTime() + 2 * timeoutMs + 5_000).toISOString();
  return claimDueMessages(
    options.db,
    now.toISOString(),
    lease,
    limit,
    options.perEndpoint ?? DEFAULT_ENDPOINT_CONCURRENCY,
    speeds?.capOf,
    speeds ? Math.max(speeds.burst, speeds.perEndpoint) : undefined,
  );
}

/**
 * Delivers the messages due now, one round: claims a batch ({@link claimForDelivery}), sends
 * each (concurrently, outside any transaction, non-blocking I/O) and waits for them all. The
 * worker does not run rounds: its loop (jobs/outbound-delivery-loop.ts) claims again as soon as
 * one attempt ends; rounds serve tests and tools.
 * @returns how many messages it attempted (0 when none was due).
 */
export async function deliverDueMessages(options: DelivererOptions): Promise<number> {
  const claimed = await claimForDelivery(options, options.batchSize ?? 20);
  await Promise.all(claimed.map((message) => deliverClaimed(options, message)));
  return claimed.length;
}

function secretsOf(options: DelivererOptions, message: ClaimedMessage, now: Date): string[] {
  const secrets = [options.secretBox.open(message.secret_ciphertext)];
  const expires = message.previous_secret_expires_at;
  if (message.previous_secret_ciphertext && expires && expires > now.toISOString()) {
    secrets.push(options.secretBox.open(message.previous_secret_ciphertext));
  }
  return secrets;
}

/**
 * One attempt of a claimed message: signs and sends it, records the attempt while the claim's
 * lease holds: `delivered` on 2xx, else the next attempt per the retry schedule or `failed`; then
 * follows the endpoint's health (endpoint-health.ts: disabled after 5 days of failures).
 * @throws only when the database fails while recording.
 */
export async function deliverClaimed(options: DelivererOptions, message: ClaimedMessage, speeds?: EndpointSpeeds): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const sentAt = options.clock();
  const headers = signatureHeaders(message.id, sentAt, message.payload, secretsOf(options, message, sentAt));
  const outcome = await attemptDelivery(message.url, { ...headers }, message.payload, {
    allowPrivate: options.allowPrivate,
    timeoutMs,
  });
  speeds?.note(message.endpoint_id, outcome.ok, outcome.duration_ms);
  const record = recordOf(message, outcome, sentAt, options.random);
  if (!(await recordAttempt(options.db, message.id, message.lease_until, record))) return;
  options.onAttempt?.(record.status === 'pending' ? 'retried' : record.status);
  if (await followEndpointHealth(options.db, message, outcome.ok, sentAt)) options.onEndpointDisabled?.();
}

function recordOf(message: ClaimedMessage, outcome: AttemptOutcome, at: Date, random?: () => number) {
  const attempt = message.attempt_count + 1;
  const entry = {
    attempt,
    at: at.toISOString(),
    status_code: outcome.status_code,
    duration_ms: outcome.duration_ms,
    error: outcome.error,
  };
  const attempts = JSON.stringify([...(JSON.parse(message.attempts) as unknown[]), entry]);
  if (outcome.ok) return { status: 'delivered' as const, attempts, attempt_count: attempt, next_attempt_at: null };
  const next = nextAttemptAt(attempt, at.getTime(), random);
  return next === null
    ? { status: 'failed' as const, attempts, attempt_count: attempt, next_attempt_at: null }
    : { status: 'pending' as const, attempts, attempt_count: attempt, next_attempt_at: new Date(next).toISOString() };
}
