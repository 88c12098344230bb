/**
 * The whole user-facing flow for the log-privacy test (PRODUCT.md §2), over any {@link HttpClient}:
 * authentication (good, wrong, OIDC), policies, integrations and webhooks, all four request
 * types about one distinctive person, 422s full of secrets, idempotent replays, lists, the
 * worker's processing, operator actions, results and change events. Every secret and personal
 * value it sends is recorded in a {@link SensitiveValues} list.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { expectStatus, type HttpClient, SensitiveValues } from './log-privacy.js';
import { type Person, sendAllWebhooks } from './log-privacy-webhooks.js';

/** What the flow needs: a client, an admin API token (raw), and optionally an OIDC JWT. */
export interface FlowInput {
  http: HttpClient;
  adminToken: string;
  /** A second admin token: approves what the first filed (the filer cannot approve its own request). */
  approverToken: string;
  /** A JWT with `privacy:read policy:read` on every workspace the flow uses. */
  jwt?: string;
  /** Its `sub` claim (a person at the IdP). */
  jwtSubject?: string;
}

/** A fresh person: every value distinctive and at least 6 characters. */
export function newPerson(): Person {
  const u = randomBytes(5).toString('hex');
  return {
    userId: `idp-user-${u}`,
    email: `ada.lovelace.${u}@example.org`,
    name: `Ada Lovelace-${u}`,
    username: `ada-${u}`,
    githubId: randomInt(100_000_000, 2_000_000_000),
    githubLogin: `ada-gh-${u}`,
  };
}

interface Ctx extends FlowInput {
  auth: Record<string, string>;
  workspace: string;
  person: Person;
  sensitive: SensitiveValues;
  keys: number;
}

function recordPerson(s: SensitiveValues, p: Person): void {
  s.add('subject id', p.userId)
    .add('email', p.email)
    .add('name', p.name)
    .add('username', p.username)
    .add('GitHub account id', p.githubId)
    .add('GitHub login', p.githubLogin);
}

/** Polls the request until its status is `status` (generous: the worker polls on its own clock). */
async function waitForStatus(c: Ctx, id: string, status: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let last = '';
  while (Date.now() < deadline) {
    last = expectStatus(await c.http('GET', `/api/v1/privacy/requests/${id}`, { headers: c.auth }), 200).json().status;
    if (last === status) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`request ${id} stayed ${last}, expected ${status}`);
}

/** Files a request about the person; the idempotency key and intake reference are sensitive. @returns its id. */
async function file(c: Ctx, body: Record<string, unknown>, workspace = c.workspace): Promise<string> {
  const key = `idem-${randomBytes(8).toString('hex')}`;
  c.sensitive.add(`Idempotency-Key ${++c.keys}`, key);
  const full = {
    scope: ['user'],
    subject_id: c.person.userId,
    subject_provider: 'okta',
    workspace_id: workspace,
    client_request_id: `crm-${randomBytes(6).toString('hex')}`,
    intake_ref: `mailto:${c.person.email}?subject=${encodeURIComponent(c.person.name)}`,
    ...body,
  };
  const headers = { ...c.auth, 'idempotency-key': key };
  const created = expectStatus(await c.http('POST', '/api/v1/privacy/requests', { headers, body: full }), 202).json();
  if (body.request_type === 'access') {
    const replay = expectStatus(await c.http('POST', '/api/v1/privacy/requests', { headers, body: full }), 202);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    const reused = { ...full, scope: ['user.contact.email'] };
    expectStatus(await c.http('POST', '/api/v1/privacy/requests', { headers, body: reused }), 422);
  }
  return created.id as string;
}

async function authentication(c: Ctx): Promise<void> {
  const wrong = `pcs_${randomBytes(32).toString('base64url')}`;
  c.sensitive.addToken('wrong API token', wrong);
  const url = `/api/v1/privacy/requests?workspace_id=${c.workspace}`;
  expectStatus(await c.http('GET', url, { headers: { authorization: `Bearer ${wrong}` } }), 401);
  expectStatus(await c.http('GET', url), 401);
  if (c.jwt) {
    c.sensitive.add('OIDC JWT', c.jwt).add('OIDC JWT signature', c.jwt.split('.')[2] ?? '');
    if (c.jwtSubject) c.sensitive.add('OIDC subject', c.jwtSubject);
    const policy = `/api/v1/policies/effective?workspace_id=${c.workspace}&repository=${c.person.githubLogin}/notes`;
    expectStatus(await c.http('GET', policy, { headers: { authorization: `Bearer ${c.jwt}` } }), 200);
    expectStatus(await c.http('GET', url, { headers: { authorization: `Bearer ${c.jwt}x` } }), 401);
  }
}

async function policies(c: Ctx, repository: string, approvals: string): Promise<void> {
  const put = (path: string, body: object) => c.http('PUT', `/api/v1/policies/workspaces/${path}`, { headers: c.auth, body });
  expectStatus(await put(c.workspace, { author_identity: 'full', regulations: ['gdpr', 'ccpa'] }), 200);
  // The person is known in the main workspace only: here their access answer needs no review (PRODUCT §2.13).
  expectStatus(await put(approvals, { require_approval: true, confirm_no_data: false }), 200);
  const repoPath = `${c.workspace}/repositories/${encodeURIComponent(repository)}`;
  expectStatus(await put(repoPath, { retention_days: 30, excluded_paths: ['secrets/**'] }), 200);
  expectStatus(await c.http('GET', `/api/v1/policies/workspaces/${repoPath}`, { headers: c.auth }), 200);
  const effective = `/api/v1/policies/effective?workspace_id=${c.workspace}&repository=${encodeURIComponent(repository)}`;
  expectStatus(await c.http('GET', effective, { headers: c.auth }), 200);
}

/** 422s whose bodies hold secrets and personal data (the response echoes them; the log must not). */
async function invalidBodies(c: Ctx): Promise<void> {
  const secret = `secret-in-422-${randomBytes(6).toString('hex')}`;
  c.sensitive.add('secret in a 422 body', secret);
  const integration = { kind: 'bitbucket', workspace_id: c.workspace, namespace: c.person.email, secret };
  expectStatus(await c.http('POST', '/api/v1/integrations', { headers: c.auth, body: integration }), 422);
  const request = { request_type: 'erase-me', scope: [], subject_id: 5, subject_provider: c.person.name, intake_ref: secret };
  const headers = { ...c.auth, 'idempotency-key': `idem-422-${secret}` };
  expectStatus(await c.http('POST', '/api/v1/privacy/requests', { headers, body: request }), 422);
  expectStatus(await c.http('POST', '/api/v1/privacy/requests', { headers, body: `{"subject_id":"${c.person.userId}",` }), 422);
}

/**
 * A webhook endpoint (its secret, shown at creation and rotation, is sensitive), so every request
 * of the flow enqueues outbound events; the worker's attempts fail (the `.invalid` name never
 * resolves) and are logged without URL, body or secret. @returns the endpoint's id.
 */
async function endpoints(c: Ctx): Promise<string> {
  const base = '/api/v1/webhook-endpoints';
  const url = `https://hooks-${randomBytes(4).toString('hex')}.example.invalid/${encodeURIComponent(c.person.email)}`;
  c.sensitive.add('webhook endpoint URL', url);
  const created = expectStatus(
    await c.http('POST', base, { headers: c.auth, body: { workspace_id: c.workspace, url } }),
    201,
  ).json();
  c.sensitive.add('webhook endpoint secret', created.secret);
  const rotated = expectStatus(await c.http('POST', `${base}/${created.id}/rotate-secret`, { headers: c.auth }), 201).json();
  c.sensitive.add('rotated webhook endpoint secret', rotated.secret);
  const bad = { workspace_id: c.workspace, url: `http://127.0.0.1/${c.person.email}` };
  expectStatus(await c.http('POST', base, { headers: c.auth, body: bad }), 422);
  expectStatus(await c.http('GET', `${base}/${created.id}/messages`, { headers: c.auth }), 200);
  return created.id as string;
}

async function download(c: Ctx, id: string, kind: 'package' | 'report'): Promise<string> {
  return expectStatus(await c.http('GET', `/api/v1/privacy/requests/${id}/${kind}`, { headers: c.auth }), 200).text;
}

/** Access, export and correction, then deletion (which erases the packages), each through the worker. */
async function requests(c: Ctx): Promise<void> {
  // The controller named first: an access answer naming nobody would wait (PRODUCT §2.13).
  const profile = { name: 'Ops Controller Ltd', contact_email: 'privacy@ops.example' };
  expectStatus(await c.http('PUT', `/api/v1/workspaces/${c.workspace}/controller`, { headers: c.auth, body: profile }), 200);
  const access = await file(c, { request_type: 'access' });
  const exported = await file(c, { request_type: 'export' });
  const correction = await file(c, { request_type: 'correction', scope: ['user.contact.email', 'user.name'] });
  await waitForStatus(c, access, 'completed');
  await waitForStatus(c, exported, 'completed');
  // The personal data really went through the service (so the log check below means something).
  assert.ok((await download(c, access, 'package')).includes(c.person.email), 'the access package lacks the email');
  assert.ok((await download(c, exported, 'package')).includes(c.person.email), 'the export package lacks the email');
  await waitForStatus(c, correction, 'action_required');
  const changes = {
    email: `ada.corrected.${randomBytes(4).toString('hex')}@example.net`,
    name: `Ada King-${randomBytes(4).toString('hex')}`,
  };
  c.sensitive.add('corrected email', changes.email).add('corrected name', changes.name);
  expectStatus(
    await c.http('POST', `/api/v1/privacy/requests/${correction}/corrections`, { headers: c.auth, body: { changes } }),
    200,
  );
  await waitForStatus(c, correction, 'completed');
  await download(c, correction, 'report');
  const list = `/api/v1/privacy/requests?workspace_id=${c.workspace}&status=completed&request_type=access&overdue=false&limit=1`;
  const page = expectStatus(await c.http('GET', list, { headers: c.auth }), 200).json();
  if (page.next_cursor)
    expectStatus(await c.http('GET', `${list}&cursor=${encodeURIComponent(page.next_cursor)}`, { headers: c.auth }), 200);
  const deletion = await file(c, { request_type: 'deletion' });
  await waitForStatus(c, deletion, 'completed');
  await download(c, deletion, 'report');
}

/** Approve, reject, cancel and extend in a workspace that requires approval; reasons name the person. */
async function operatorActions(c: Ctx, workspace: string): Promise<void> {
  const act = async (id: string, action: string, body?: object, headers = c.auth) =>
    expectStatus(await c.http('POST', `/api/v1/privacy/requests/${id}/${action}`, { headers, body: body ?? {} }), 200);
  const reason = { reason: `asked by ${c.person.name} <${c.person.email}>` };
  const [a, b, d] = [
    await file(c, { request_type: 'access' }, workspace),
    await file(c, { request_type: 'export' }, workspace),
    await file(c, { request_type: 'access' }, workspace),
  ];
  // Named, so the approved access request answers rather than waiting for a controller (PRODUCT §2.13).
  const profile = { name: 'Approvals Controller Ltd', contact_email: 'privacy@approvals.example' };
  expectStatus(await c.http('PUT', `/api/v1/workspaces/${workspace}/controller`, { headers: c.auth, body: profile }), 200);
  await act(a, 'extend', reason);
  // The filer's own approval is refused (403); another principal approves.
  expectStatus(await c.http('POST', `/api/v1/privacy/requests/${a}/approve`, { headers: c.auth, body: {} }), 403);
  await act(a, 'approve', undefined, { authorization: `Bearer ${c.approverToken}` });
  await act(b, 'reject', reason);
  await act(d, 'cancel', reason);
  await waitForStatus(c, a, 'completed');
}

/**
 * Runs the flow. The API calls use `Bearer <adminToken>` (scope admin, every workspace).
 * @returns every value that must not appear in a log.
 */
export async function runPrivacyFlow(input: FlowInput): Promise<SensitiveValues> {
  const sensitive = new SensitiveValues()
    .addToken('admin API token', input.adminToken)
    .addToken('approver API token', input.approverToken);
  const person = newPerson();
  recordPerson(sensitive, person);
  const u = randomBytes(4).toString('hex');
  const c: Ctx = {
    ...input,
    auth: { authorization: `Bearer ${input.adminToken}` },
    workspace: `acme-${u}`,
    person,
    sensitive,
    keys: 0,
  };
  const repository = `${person.githubLogin}/private-notes`;
  await authentication(c);
  await policies(c, repository, `approvals-${u}`);
  const gitlab = await sendAllWebhooks({
    http: c.http,
    admin: c.auth.authorization ?? '',
    workspace: c.workspace,
    person,
    repository,
    sensitive,
  });
  await invalidBodies(c);
  const endpoint = await endpoints(c);
  await requests(c);
  await operatorActions(c, `approvals-${u}`);
  const events = `/api/v1/change-events?workspace_id=${c.workspace}&repository=${encodeURIComponent(repository)}`;
  const recorded = expectStatus(await c.http('GET', events, { headers: c.auth }), 200).json().items as unknown[];
  assert.equal(recorded.length, 1, 'the pull request was not recorded');
  expectStatus(await c.http('GET', `/api/v1/integrations?workspace_id=${c.workspace}`, { headers: c.auth }), 200);
  expectStatus(await c.http('DELETE', `/api/v1/integrations/${gitlab}`, { headers: c.auth }), 204);
  expectStatus(await c.http('DELETE', `/api/v1/webhook-endpoints/${endpoint}`, { headers: c.auth }), 204);
  // A client that puts an email where an id belongs: the id is not logged (src/logger.ts).
  expectStatus(await c.http('GET', `/api/v1/privacy/requests/${person.email}`, { headers: c.auth }), 404);
  expectStatus(await c.http('GET', `/nowhere/${person.email}?token=${input.adminToken}`), 404);
  return sensitive;
}
