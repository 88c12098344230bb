/**
 * Readable-letter tests: a subject whose name is markup, seeded through the signed identity
 * webhook with a linked GitHub account and one pull request, an access request filed through the
 * API and run by its real handler (the worker's code), and the controller profile set over HTTP.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { HtmlValidate } from 'html-validate';
import type { TestApp } from './app.js';
import { addSources, fileRequest, runHandler, type Sources, sendIdentityEvent, sendPullRequest, unique } from './subject-data.js';

/** The name the identity provider reports: markup a letter must show as text. */
export const MARKUP_NAME = '<script>alert(1)</script>';

/** A controller profile with every field set. */
export const FULL_PROFILE = {
  name: 'Acme Software GmbH',
  contact_email: 'privacy@acme.example',
  dpo_contact: 'Dr. Jane Roe, dpo@acme.example',
  representative: 'Acme EU Representative B.V., Keizersgracht 1, Amsterdam',
  supervisory_authority: { name: 'Berlin Commissioner for Data Protection', url: 'https://www.datenschutz-berlin.de/' },
  privacy_notice_url: 'https://acme.example/privacy',
};

export interface LetterWorld {
  sources: Sources;
  userId: string;
  email: string;
  login: string;
  title: string;
}

/**
 * Seeds the subject (name {@link MARKUP_NAME}) and its pull request in `workspace`, which names
 * a controller unless `options.controller` is false (addSources).
 */
export async function seedLetterWorld(
  t: TestApp,
  workspace: string,
  options: { controller?: boolean } = {},
): Promise<LetterWorld> {
  const r = unique();
  const sources = await addSources(t, workspace, 'okta', undefined, options);
  await t.services.policies.putLayer(workspace, null, { author_identity: 'full' }, 'test');
  const ghId = randomInt(1e6, 1e9);
  const world = {
    sources,
    userId: `u-${r}`,
    email: `ada-${r}@example.test`,
    login: `octo-${r}`,
    title: 'Fix <b>bold</b> & "quoted" titles',
  };
  await sendIdentityEvent(t, sources, 'user.created', '2026-10-01T08:00:00.000Z', {
    user_id: world.userId,
    email: `old-${r}@example.test`,
    name: MARKUP_NAME,
    username: `ada-${r}`,
    linked_accounts: [{ provider: 'github', account_id: String(ghId), login: world.login }],
  });
  await sendIdentityEvent(t, sources, 'user.updated', '2026-10-02T08:00:00.000Z', { user_id: world.userId, email: world.email });
  await sendPullRequest(t, sources, { repo: 'App', number: 7, title: world.title, author: { id: ghId, login: world.login } });
  return world;
}

/** Files a request of `type` for the world's subject and runs it to completion. @returns its id. */
export async function answeredRequest(t: TestApp, authorization: string, world: LetterWorld, type = 'access'): Promise<string> {
  const id = await fileRequest(t, authorization, {
    request_type: type,
    scope: ['user'],
    subject_provider: world.sources.idp,
    subject_id: world.userId,
    workspace_id: world.sources.workspace,
  });
  const outcome = await runHandler(t, id, { record: true });
  assert.equal(outcome.status, 'completed');
  return id;
}

/** Sets the workspace's controller profile over HTTP (200 expected). */
export async function putProfile(t: TestApp, authorization: string, workspace: string, profile: object): Promise<void> {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/workspaces/${workspace}/controller`,
    headers: { authorization },
    payload: profile,
  });
  assert.equal(res.statusCode, 200, res.body);
}

/** html-validate's recommended rules (validity, accessibility, security), unchanged. */
const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });

/** Asserts `html` is a valid document by html-validate; the message lists every problem. */
export async function assertValidHtml(html: string): Promise<void> {
  const report = await validator.validateString(html);
  const problems = report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
  assert.ok(report.valid, problems.join('\n'));
}
