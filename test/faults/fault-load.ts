/**
 * Load for fault tests: concurrent creates (each with its own Idempotency-Key and
 * client_request_id) and effective-policy reads against a running service, every answer kept
 * with the test phase in which it started and ended.
 */
import { type Answer, call } from '../helpers/service-process.js';
import { createBody } from '../helpers/requests.js';

/** One create the load sent: its key and client_request_id (to find its records later). */
export interface CreateAttempt {
  readonly key: string;
  readonly clientRequestId: string;
  readonly body: Record<string, unknown>;
}

/** One request of the load and what came of it: an answer, or a transport error (hang, reset). */
export interface Outcome {
  readonly kind: 'create' | 'read';
  readonly attempt: CreateAttempt | null;
  readonly answer: Answer | null;
  readonly error: string | null;
  readonly startPhase: string;
  readonly endPhase: string;
}

/** A running load: the outcomes so far, and how to stop it (waits for the requests in flight). */
export interface Load {
  readonly outcomes: Outcome[];
  stop(): Promise<void>;
}

/** The create body of attempt `n` of `prefix`: an access request for its own subject. */
export function createAttempt(prefix: string, n: number): CreateAttempt {
  const clientRequestId = `${prefix}-crid-${n}`;
  return {
    key: `${prefix}-key-${n}`,
    clientRequestId,
    body: createBody({ client_request_id: clientRequestId, subject_id: `${prefix}-${n}` }),
  };
}

/** Files `attempt` once. */
export function sendCreate(url: string, auth: string, attempt: CreateAttempt, timeoutMs?: number): Promise<Answer> {
  return call(
    `${url}/api/v1/privacy/requests`,
    { method: 'POST', headers: { authorization: auth, 'idempotency-key': attempt.key }, body: attempt.body },
    timeoutMs,
  );
}

/** Reads the effective policy of acme / `repository`. */
export function readPolicy(url: string, auth: string, repository = 'octo/app', timeoutMs?: number): Promise<Answer> {
  return call(
    `${url}/api/v1/policies/effective?workspace_id=acme&repository=${encodeURIComponent(repository)}`,
    {
      headers: { authorization: auth },
    },
    timeoutMs,
  );
}

/**
 * Starts `concurrency` loops, each alternating a create and a read (`reads: false`: creates only)
 * until stopped. Every request is bounded by `timeoutMs`: a hang is recorded as an error.
 *
 * @param phase - the test's current phase, read when each request starts and ends.
 */
export function startLoad(options: {
  url: string;
  auth: string;
  prefix: string;
  concurrency: number;
  phase: () => string;
  reads?: boolean;
  timeoutMs?: number;
}): Load {
  const { url, auth, prefix, phase } = options;
  const outcomes: Outcome[] = [];
  let running = true;
  let next = 0;
  const loop = async () => {
    while (running) {
      const n = next++;
      const kind = options.reads === false || n % 2 === 0 ? 'create' : 'read';
      const attempt = kind === 'create' ? createAttempt(prefix, n) : null;
      const startPhase = phase();
      let answer: Answer | null = null;
      let error: string | null = null;
      try {
        answer = attempt
          ? await sendCreate(url, auth, attempt, options.timeoutMs)
          : await readPolicy(url, auth, undefined, options.timeoutMs);
      } catch (e) {
        error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      }
      outcomes.push({ kind, attempt, answer, error, startPhase, endPhase: phase() });
    }
  };
  const loops = Array.from({ length: options.concurrency }, loop);
  return {
    outcomes,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Polls `check` every 50 ms until it returns true; throws `message` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, message: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out: ${message}`);
}
