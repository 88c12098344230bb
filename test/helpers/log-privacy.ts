/**
 * Tools for the log-privacy test: one HTTP client shape over `app.inject` and over a real
 * listening server, the list of values that must never reach a log, and the checks on a capture.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';

/** One HTTP answer, the same for `app.inject` and `fetch`. */
export interface HttpAnswer {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed JSON answer, read field by field by the flow
  json(): any;
}

/** A request: a string body is sent as the exact bytes, anything else as JSON. */
export interface HttpCall {
  headers?: Record<string, string>;
  body?: unknown;
}

/** Sends one request to the service under test. */
export type HttpClient = (method: string, url: string, call?: HttpCall) => Promise<HttpAnswer>;

function encode(call: HttpCall): { headers: Record<string, string>; payload?: string } {
  if (call.body === undefined) return { headers: { ...call.headers } };
  if (typeof call.body === 'string') return { headers: { ...call.headers }, payload: call.body };
  return { headers: { 'content-type': 'application/json', ...call.headers }, payload: JSON.stringify(call.body) };
}

function answer(status: number, headers: Record<string, string>, text: string): HttpAnswer {
  return { status, headers, text, json: () => JSON.parse(text) };
}

/** A client over `app.inject` (in-process). */
export function injectClient(app: FastifyInstance): HttpClient {
  return async (method, url, call = {}) => {
    const { headers, payload } = encode(call);
    const res = await app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
    const flat = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
    return answer(res.statusCode, flat, res.body);
  };
}

/** A client over real HTTP to `baseUrl` (e.g. `http://127.0.0.1:40123`). */
export function fetchClient(baseUrl: string): HttpClient {
  return async (method, url, call = {}) => {
    const { headers, payload } = encode(call);
    const res = await fetch(`${baseUrl}${url}`, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
    const text = await res.text();
    return answer(res.status, Object.fromEntries(res.headers.entries()), text);
  };
}

/** Asserts the status, showing the body when it differs. @returns the answer. */
export function expectStatus(res: HttpAnswer, status: number): HttpAnswer {
  assert.equal(res.status, status, res.text);
  return res;
}

/**
 * The values that must never appear in a log: labelled, compared case-insensitively. Values
 * shorter than 6 characters are refused (they would match by chance), so each one is distinctive.
 */
export class SensitiveValues {
  readonly entries: { label: string; value: string }[] = [];

  /** Records `value` under `label`. @throws when it is shorter than 6 characters. */
  add(label: string, value: string | number): this {
    const text = String(value);
    if (text.length < 6) throw new Error(`sensitive value "${label}" is too short to search for`);
    this.entries.push({ label, value: text });
    return this;
  }

  /** An API token: whole and its random part (after `pcs_`). */
  addToken(label: string, token: string): this {
    return this.add(label, token).add(`${label} (random part)`, token.replace(/^pcs_/, ''));
  }

  /** A Standard Webhooks secret: whole, its base64 key, and that key's bytes in hex and base64url. */
  addWhsec(label: string, secret: string): this {
    const key = secret.replace(/^whsec_/, '');
    const bytes = Buffer.from(key, 'base64');
    return this.add(label, secret)
      .add(`${label} (base64 key)`, key)
      .add(`${label} (hex key)`, bytes.toString('hex'))
      .add(`${label} (base64url key)`, bytes.toString('base64url'));
  }
}

/** Fails naming every sensitive value found in `text` (case-insensitive). */
export function assertNoSensitive(text: string, sensitive: SensitiveValues): void {
  const lower = text.toLowerCase();
  const leaked = sensitive.entries.filter((e) => lower.includes(e.value.toLowerCase())).map((e) => e.label);
  assert.deepEqual(leaked, [], `the logs contain: ${leaked.join(', ')}`);
}

/** One parsed pino line. */
export interface LogEntry {
  level: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  [field: string]: unknown;
}

/** Parses pino's JSON lines; every non-empty line must be JSON (nothing printed around the logger). */
export function parseLogLines(text: string): LogEntry[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as LogEntry;
      } catch {
        return assert.fail(`a log line is not JSON: ${line.slice(0, 200)}`);
      }
    });
}

/** pino's numeric levels. */
export const LEVEL = { trace: 10, debug: 20, info: 30, warn: 40, error: 50 } as const;

/**
 * The capture is real: debug lines, request lines with their route, rejected webhooks and worker
 * lines are there, so the privacy check cannot pass by capturing nothing.
 */
export function assertCaptureIsReal(entries: LogEntry[]): void {
  assert.ok(entries.length >= 50, `only ${entries.length} log lines captured`);
  const messages = new Set(entries.map((e) => e.msg));
  const debug = entries.filter((e) => e.level === LEVEL.debug);
  assert.ok(
    debug.some((e) => e.msg === 'authenticated'),
    'no debug line "authenticated"',
  );
  assert.ok(
    debug.some((e) => e.msg === 'authentication failed'),
    'no debug line "authentication failed"',
  );
  assert.ok(
    debug.some((e) => e.msg === 'privacy request claimed'),
    'no debug line from the worker',
  );
  for (const msg of ['incoming request', 'request completed', 'webhook rejected', 'privacy request processed'])
    assert.ok(messages.has(msg), `no "${msg}" line`);
  const urls = new Set(entries.filter((e) => e.msg === 'incoming request').map((e) => e.req?.url));
  for (const url of ['/api/v1/privacy/requests', '/webhook/prhost', '/webhook/mrhost', '/webhook/identity'])
    assert.ok(urls.has(url), `no request line for ${url}`);
  const statuses = new Set(entries.filter((e) => e.msg === 'request completed').map((e) => e.res?.statusCode));
  for (const status of [200, 201, 202, 401, 422]) assert.ok(statuses.has(status), `no completed request with ${status}`);
}
