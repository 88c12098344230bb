import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkDestination, guardedLookup } from './address-guard.js';
import { USER_AGENT } from '../../lib/service-version.js';

/** Most bytes of a response body read (then the connection is dropped); never logged. */
export const RESPONSE_BODY_LIMIT = 4096;
/** A delivery attempt's timeout (PRODUCT §2.8): connect, send and first response byte. */
export const DELIVERY_TIMEOUT_MS = 15_000;

/** The outcome of one attempt: the entry of a message's attempts log (without its number and time). */
export interface AttemptOutcome {
  /** True only for a 2xx answer. */
  ok: boolean;
  status_code: number | null;
  duration_ms: number;
  /** Short reason of a failure (`timeout`, `redirect`, `http_500`, `connection: ECONNRESET`, …); null on success. */
  error: string | null;
}

/** Options of {@link attemptDelivery}. `timeoutMs` is for tests only (not user configuration). */
export interface AttemptOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
}

/**
 * POSTs `body` with `headers` to `url` once (Node's http/https, no agent reuse across hosts).
 * Never follows redirects (a 3xx is a failure), reads at most {@link RESPONSE_BODY_LIMIT} bytes of
 * the answer and discards them, gives up after the timeout (15 s), and connects only to an
 * address that passed the SSRF guard (address-guard.ts). Never throws: every failure is an outcome.
 */
export function attemptDelivery(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: AttemptOptions,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const done = (ok: boolean, status: number | null, error: string | null): AttemptOutcome => ({
    ok,
    status_code: status,
    duration_ms: Math.round(performance.now() - started),
    error,
  });
  let target: URL;
  try {
    target = checkDestination(url, options.allowPrivate);
  } catch (err) {
    return Promise.resolve(done(false, null, `forbidden: ${(err as Error).message}`));
  }
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(outcome);
    };
    const req = send(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': USER_AGENT,
        ...headers,
      },
      lookup: guardedLookup(options.allowPrivate) as never,
      agent: false,
    });
    const timer = setTimeout(() => finish(done(false, null, 'timeout')), options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    req.on('response', (res: IncomingMessage) => readLimited(res, () => finish(outcomeOf(res.statusCode ?? 0, done))));
    req.on('error', (err: NodeJS.ErrnoException) => finish(done(false, null, `connection: ${err.code ?? err.name}`)));
    req.end(body);
  });
}

function outcomeOf(status: number, done: (ok: boolean, s: number | null, e: string | null) => AttemptOutcome): AttemptOutcome {
  if (status >= 200 && status < 300) return done(true, status, null);
  if (status >= 300 && status < 400) return done(false, status, 'redirect');
  return done(false, status, `http_${status}`);
}

/** Reads up to the body limit, then calls `end` once (at the end of the body or at the limit). */
function readLimited(res: IncomingMessage, end: () => void): void {
  let read = 0;
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read >= RESPONSE_BODY_LIMIT) end();
  });
  res.on('end', end);
  res.on('error', end);
}
