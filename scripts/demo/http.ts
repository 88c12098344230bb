/** The demo's HTTP client: the API with a bearer token, and signed webhook deliveries. */
import { randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';

/** An answer the demo did not expect: the message names the call and the status. */
export class DemoFailure extends Error {
  override name = 'DemoFailure';
}

/** A parsed JSON answer and its status. */
export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed JSON answer, read field by field by the demo
  body: any;
}

async function send(url: string, init: RequestInit, expected: number[]): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  const body = text === '' ? null : JSON.parse(text);
  if (!expected.includes(res.status)) {
    throw new DemoFailure(`${init.method ?? 'GET'} ${new URL(url).pathname} answered ${res.status}: ${text.slice(0, 300)}`);
  }
  return { status: res.status, body };
}

/** Calls `/api/v1…` with the token; `expected` statuses (default 200, 201, 202) or a DemoFailure. */
export function apiClient(baseUrl: string, token: string) {
  return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, expected = [200, 201, 202]) =>
    send(
      `${baseUrl}${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
      expected,
    );
}

/** `POST /webhook/prhost` as GitHub sends it: `X-Hub-Signature-256` by @octokit/webhooks-methods. */
export async function sendGithub(baseUrl: string, secret: string, body: string, delivery: string): Promise<Answer> {
  const headers = {
    'content-type': 'application/json',
    'x-github-event': 'pull_request',
    'x-github-delivery': delivery,
    'x-hub-signature-256': await sign(secret, body),
  };
  return send(`${baseUrl}/webhook/prhost`, { method: 'POST', headers, body }, [200]);
}

/** `POST /webhook/identity?integration=…` as Clerk sends it through Svix (Standard Webhooks 1.0 signature). */
export async function sendClerk(baseUrl: string, integrationId: string, secret: string, body: string): Promise<Answer> {
  const id = `msg_${randomUUID().replaceAll('-', '')}`;
  const now = new Date();
  const headers = {
    'content-type': 'application/json',
    'svix-id': id,
    'svix-timestamp': String(Math.floor(now.getTime() / 1000)),
    'svix-signature': new Webhook(secret).sign(id, now, body),
  };
  return send(`${baseUrl}/webhook/identity?integration=${integrationId}`, { method: 'POST', headers, body }, [200]);
}
