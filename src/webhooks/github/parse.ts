import type { IncomingChangeEvent } from '../../modules/change-events/change-event.types.js';
import { asObject } from '../shared/webhook-body.js';

/** The JSON text of a delivery: the body itself (`application/json`) or its `payload` field (form-encoded). */
export function githubPayloadText(contentType: string, body: string): string | undefined {
  if (/^application\/json\b/i.test(contentType)) return body;
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType)) return new URLSearchParams(body).get('payload') ?? undefined;
  return undefined;
}

/** The owner login a delivery belongs to (repository owner, else organization), lower-cased; for routing only. */
export function githubNamespace(payload: unknown): string | undefined {
  const root = asObject(payload);
  const owner = asObject(asObject(asObject(root?.repository)?.owner));
  const login = owner?.login ?? asObject(root?.organization)?.login;
  return typeof login === 'string' && login !== '' ? login.toLowerCase() : undefined;
}

/**
 * A `pull_request` event as a change event, or null when the payload lacks what GitHub always
 * sends (repository.full_name, number, pull_request.head.sha). Source: GitHub Docs, "Webhook
 * events and payloads: pull_request".
 */
export function parseGithubPullRequest(payload: unknown): IncomingChangeEvent | null {
  const root = asObject(payload);
  const pr = asObject(root?.pull_request);
  const repository = asObject(root?.repository)?.full_name;
  const number = root?.number ?? pr?.number;
  const head = asObject(pr?.head);
  if (typeof repository !== 'string' || typeof number !== 'number' || typeof root?.action !== 'string') return null;
  const user = asObject(pr?.user);
  // GitHub account ids are integers: 1.5 or 1e300 is not one of its payloads.
  if (typeof user?.id === 'number' && !Number.isSafeInteger(user.id)) return null;
  const author =
    Number.isSafeInteger(user?.id) || typeof user?.id === 'string'
      ? { account_id: String(user?.id), login: typeof user?.login === 'string' ? user.login : null }
      : null;
  return {
    provider: 'github',
    repository,
    number,
    action: root.action,
    head_sha: typeof head?.sha === 'string' ? head.sha : null,
    title: typeof pr?.title === 'string' ? pr.title : null,
    author,
  };
}
