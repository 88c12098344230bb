/**
 * The demo's authorized-agent step (PRODUCT §2.19, docs/drp.md): the workspace joins the Data
 * Rights Protocol 1.0 network; an agent with a fresh Ed25519 key pair (node:crypto, made for this
 * run) is registered, pairs with a signed key setup, and files a CCPA deletion for a person with a
 * signed exercise; the demo prints the status object the agent gets at once and, once the worker
 * and the data systems are done, the one it reads with `GET` (`fulfilled`). Each message is signed
 * as DRP 1.0 asks: standard Base64 of the 64-byte signature followed by the exact JSON bytes.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { type Answer, DemoFailure } from './http.js';
import { line } from './print.js';

/** The API client of demo.ts (bearer token). */
type Api = (method: string, path: string, body?: unknown) => Promise<Answer>;

const AGENT_ID = 'demo-agent';
const BUSINESS_ID = 'demo-software';
/** States the status object leaves once the request is answered. */
const OPEN = new Set(['open', 'in_progress']);

/** `body` signed in DRP's combined mode: Base64 of signature ‖ the JSON bytes. */
function signed(privateKey: KeyObject, body: Record<string, unknown>): string {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  return Buffer.concat([sign(null, bytes, privateKey), bytes]).toString('base64');
}

/** `issued-at` now and `expires-at` 15 minutes later, with an offset (DRP §3.07). */
function window(): { 'issued-at': string; 'expires-at': string } {
  const now = Date.now();
  return { 'issued-at': new Date(now).toISOString(), 'expires-at': new Date(now + 15 * 60_000).toISOString() };
}

/** A call to a DRP route (no API token: DRP's own bearer token, or none for key setup). */
async function drp(baseUrl: string, method: string, path: string, token: string | null, body?: string): Promise<Answer> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'text/plain' }),
    },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new DemoFailure(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return { status: res.status, body: JSON.parse(text) };
}

/**
 * Runs the step against the demo's service at `baseUrl` in `workspace`, filing a deletion for
 * `email` (a person the workspace's data systems know, so it ends `fulfilled`).
 * @throws DemoFailure when a route answers otherwise than PRODUCT §2.19 says, or the request is
 * not fulfilled within `timeoutMs`.
 */
export async function drpAgentStep(
  api: Api,
  baseUrl: string,
  workspace: string,
  email: string,
  timeoutMs = 15_000,
): Promise<void> {
  const settings = await api('PUT', `/api/v1/workspaces/${workspace}/drp`, {
    enabled: true,
    business_id: BUSINESS_ID,
    name: 'Demo Software Ltd',
    supported_actions: ['access', 'deletion', 'sale:opt-out'],
  });
  const entry = settings.body.directory_entry as { id: string; supported_actions: string[]; supported_verifications: string[] };
  line(
    `DRP on: directory entry "${entry.id}", actions ${entry.supported_actions.join(', ')}, verifications ${entry.supported_verifications.join(', ')}`,
  );

  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const verifyKey = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url').toString('base64');
  const agent = await api('POST', '/api/v1/drp/agents', {
    workspace_id: workspace,
    agent_id: AGENT_ID,
    name: 'Demo agent',
    verify_key: verifyKey,
  });
  line(`agent "${AGENT_ID}" registered (${agent.body.id}), key fingerprint ${String(agent.body.key_fingerprint).slice(0, 16)}…`);

  const paired = await drp(
    baseUrl,
    'POST',
    `/drp/v1/agent/${AGENT_ID}`,
    null,
    signed(privateKey, { 'agent-id': AGENT_ID, 'business-id': BUSINESS_ID, ...window(), 'drp.version': '1.0' }),
  );
  const token = paired.body.token as string;
  line(`pair-wise key setup signed with the agent's key: token ${token.slice(0, 8)}… (stored only as its SHA-256)`);

  const filed = await drp(
    baseUrl,
    'POST',
    '/drp/v1/data-rights-request',
    token,
    signed(privateKey, {
      'agent-id': AGENT_ID,
      'business-id': BUSINESS_ID,
      ...window(),
      'drp.version': '1.0',
      'agent-request-id': 'demo-0001',
      exercise: 'deletion',
      regime: 'ccpa',
      email,
      email_verified: true,
    }),
  );
  line(`signed exercise (deletion, ccpa) for ${email}: ${JSON.stringify(filed.body)}`);
  const requestId = filed.body.request_id as string;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await drp(baseUrl, 'GET', `/drp/v1/data-rights-request/${requestId}`, token);
    if (!OPEN.has(body.status as string)) {
      if (body.status !== 'fulfilled') throw new DemoFailure(`the DRP request ended ${JSON.stringify(body)}, expected fulfilled`);
      line(`status: ${JSON.stringify(body)}`);
      break;
    }
    if (Date.now() > deadline)
      throw new DemoFailure(`the DRP request is still ${JSON.stringify(body)} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { body: queue } = await api('GET', `/api/v1/privacy/requests?workspace_id=${workspace}&agent_id=${AGENT_ID}`);
  const request = (queue.items as { id: string; status: string; regulation: string; agent: { name: string } }[])[0];
  if (!request) throw new DemoFailure('the queue lists no request of the agent');
  line(
    `in the queue: ${request.id} (${request.status}, regulation ${request.regulation}), filed by ${request.agent.name} (authorized agent)`,
  );
}
