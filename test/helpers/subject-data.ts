/**
 * Request-processing tests: seeding subjects and change events through the real, signed
 * webhooks, filing requests through the API, and running a request's handler as the worker
 * does (inside one transaction, with the service's pseudonym key).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { REQUEST_HANDLERS } from '../../src/workflows/request-types/request-handlers.js';
import type { HandlerOutcome } from '../../src/workflows/request-types/handler.types.js';
import { saveResult } from '../../src/modules/privacy-requests/lifecycle/request-state.repository.js';
import type { PrivacyRequestRow } from '../../src/modules/request-model/request-model.js';
import type { TestApp } from './app.js';
import { canonicalEvent, newStandardSecret, postIdentity, standardHeaders } from './identity-webhooks.js';
import { githubPullRequest } from './webhook-payloads.js';
import { pseudonymKey, sendGithub } from './webhook-requests.js';

/** The webhook sources of one workspace: a Standard Webhooks identity integration and a GitHub owner. */
export interface Sources {
  workspace: string;
  /** The identity integration's `subject_provider`. */
  idp: string;
  identitySecret: string;
  /** The identity integration's id (deliveries name it: a test database may hold several). */
  identityIntegration: string;
  /** The GitHub owner login the GitHub integration covers. */
  owner: string;
  githubSecret: string;
}

/** A short random suffix for values that must be unique (and findable) in a test database. */
export function unique(): string {
  return randomBytes(6).toString('hex');
}

/** The controller profile {@link addSources} gives a workspace (PRODUCT §2.10). */
export const TEST_CONTROLLER = { name: 'Zq Test Controller Ltd', contact_email: 'privacy@controller.example' };

/**
 * Registers an identity integration (`standard`, provider `idp`) and a GitHub integration for
 * `owner`, and names the workspace's controller ({@link TEST_CONTROLLER}): without one, access
 * and export requests wait (PRODUCT §2.13, controller-unnamed.test.ts covers that case). With
 * `options.controller: false` the workspace names none.
 */
export async function addSources(
  t: TestApp,
  workspace: string,
  idp = 'okta',
  owner = `zq-owner-${unique()}`,
  options: { controller?: boolean } = {},
): Promise<Sources> {
  if (options.controller !== false && !(await t.services.controllers.get(workspace)))
    await t.services.controllers.put(workspace, TEST_CONTROLLER, 'test');
  const identitySecret = newStandardSecret();
  const githubSecret = `gh-${unique()}`;
  const identity = await t.services.integrations.create(
    { kind: 'identity', workspace_id: workspace, format: 'standard', subject_provider: idp, secret: identitySecret },
    'test',
  );
  await t.services.integrations.create(
    { kind: 'github', workspace_id: workspace, namespace: owner, secret: githubSecret },
    'test',
  );
  return { workspace, idp, identitySecret, identityIntegration: identity.id, owner, githubSecret };
}

let messages = 0;

/** Delivers a signed canonical identity event; asserts it was accepted. */
export async function sendIdentityEvent(
  t: TestApp,
  s: Sources,
  type: string,
  occurredAt: string,
  data: Record<string, unknown>,
): Promise<void> {
  const body = canonicalEvent(`evt_${unique()}`, type, occurredAt, data);
  const res = await postIdentity(
    t,
    body,
    standardHeaders(s.identitySecret, `msg_${++messages}_${unique()}`, body),
    s.identityIntegration,
  );
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().status, 'accepted', res.body);
}

/** Delivers a signed GitHub `pull_request` `opened` event in `owner/repo` by the author; returns the response body. */
export async function sendPullRequest(
  t: TestApp,
  s: Sources,
  pr: { repo: string; number: number; title: string; author: { id: number; login: string } },
): Promise<{ status: string; event_id: string; decision: { reasons: string[] } }> {
  const payload = githubPullRequest('opened');
  payload.repository.full_name = `${s.owner}/${pr.repo}`;
  payload.repository.name = pr.repo;
  payload.repository.owner.login = s.owner;
  payload.number = pr.number;
  payload.pull_request.number = pr.number;
  payload.pull_request.title = pr.title;
  payload.pull_request.user.id = pr.author.id;
  payload.pull_request.user.login = pr.author.login;
  const res = await sendGithub(t.app, { body: JSON.stringify(payload), secret: s.githubSecret });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** Files a request through `POST /api/v1/privacy/requests`; returns its id. */
export async function fileRequest(
  t: TestApp,
  authorization: string,
  body: { request_type: string; scope: string[]; subject_provider: string; subject_id: string; workspace_id: string },
): Promise<string> {
  const ref = unique();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/privacy/requests',
    headers: { authorization, 'idempotency-key': `key-${ref}` },
    payload: { ...body, client_request_id: `crm-${ref}`, intake_ref: `ticket ${ref}` },
  });
  assert.equal(res.statusCode, 202, res.body);
  return res.json().id as string;
}

/** The stored request row. */
export async function requestRow(t: TestApp, id: string): Promise<PrivacyRequestRow> {
  return t.services.database.db.selectFrom('privacy_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * Runs the handler of the request's type as the worker does: in one transaction, with the
 * service's pseudonym key. With `record`, also stores a completed outcome's package/report
 * (`saveResult`) and the new status, in the same transaction.
 */
export async function runHandler(
  t: TestApp,
  id: string,
  options: { record?: boolean; now?: Date } = {},
): Promise<HandlerOutcome> {
  const request = await requestRow(t, id);
  const handler = (REQUEST_HANDLERS as Record<string, (typeof REQUEST_HANDLERS)['access'] | undefined>)[request.request_type];
  assert.ok(handler, `no handler for ${request.request_type}`);
  const key = await pseudonymKey(t.services);
  const now = options.now ?? new Date();
  return t.services.database.db.transaction().execute(async (tx) => {
    const outcome = await handler({ tx, request, now, pseudonymKey: key });
    if (options.record) {
      const at = now.toISOString();
      if (outcome.status === 'completed') await saveResult(tx, id, outcome.package, outcome.report, at);
      const fields =
        outcome.status === 'completed'
          ? { status: 'completed', completed_at: at }
          : { status: 'action_required', status_reason: outcome.reason };
      await tx
        .updateTable('privacy_requests')
        .set({ ...fields, updated_at: at })
        .where('id', '=', id)
        .execute();
    }
    return outcome;
  });
}
