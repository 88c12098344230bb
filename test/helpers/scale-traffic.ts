/**
 * Traffic for scale-out tests over real HTTP: privacy-request creates and signed webhook
 * deliveries (GitHub, GitLab, Standard Webhooks identity events) as plain `{path, headers, body}`
 * values, so the very same delivery can be sent to several `serve` processes at once.
 */
import { randomUUID } from 'node:crypto';
import { type HttpAnswer, call } from './cluster.js';
import { canonicalEvent, standardHeaders } from './identity-webhooks.js';
import { createBody } from './requests.js';
import { githubPullRequest, githubSignature, gitlabMergeRequest } from './webhook-payloads.js';

/** One HTTP request, ready to be sent as often as wanted. */
export interface Delivery {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The secrets of the three integrations the scale test registers in workspace `acme`. */
export const SCALE_SECRETS = {
  github: 'gh-scale-secret-4f1c9a7e2b',
  gitlab: 'gl-scale-token-8d3e6b0a51',
  identity: 'whsec_c2NhbGUtdGVzdC1pZGVudGl0eS1zZWNyZXQ=',
} as const;

/** The integrations to `POST /api/v1/integrations`: GitHub owner `Codertocat`, GitLab group `gitlabhq`, identity `okta`. */
export const SCALE_INTEGRATIONS = [
  { kind: 'github', workspace_id: 'acme', namespace: 'Codertocat', secret: SCALE_SECRETS.github },
  { kind: 'gitlab', workspace_id: 'acme', namespace: 'gitlabhq', secret: SCALE_SECRETS.gitlab },
  { kind: 'identity', workspace_id: 'acme', format: 'standard', subject_provider: 'okta', secret: SCALE_SECRETS.identity },
];

/** A GitHub `pull_request` `opened` delivery for PR `number`, under a fresh `X-GitHub-Delivery`. */
export function githubDelivery(number: number): Delivery {
  const payload = githubPullRequest('opened');
  payload.number = number;
  payload.pull_request.number = number;
  const body = JSON.stringify(payload);
  return {
    path: '/webhook/prhost',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': githubSignature(SCALE_SECRETS.github, body),
    },
    body,
  };
}

/** GitLab's documented `Merge Request Hook` (`open`) for MR `iid`, under a fresh `X-Gitlab-Event-UUID`. */
export function gitlabDelivery(iid: number): Delivery {
  const payload = gitlabMergeRequest();
  payload.object_attributes.iid = iid;
  return {
    path: '/webhook/mrhost',
    headers: {
      'content-type': 'application/json',
      'x-gitlab-event': 'Merge Request Hook',
      'x-gitlab-token': SCALE_SECRETS.gitlab,
      'x-gitlab-event-uuid': randomUUID(),
    },
    body: JSON.stringify(payload),
  };
}

/** A signed canonical `user.created` event for `userId` (message id = event id = `evt_<uuid>`). */
export function identityDelivery(userId: string): Delivery {
  const id = `evt_${randomUUID()}`;
  const body = canonicalEvent(id, 'user.created', new Date().toISOString(), {
    user_id: userId,
    linked_accounts: [{ provider: 'github', account_id: `${userId}-gh` }],
  });
  return { path: '/webhook/identity', headers: standardHeaders(SCALE_SECRETS.identity, id, body), body };
}

/** Sends `delivery` to one server (`POST`). */
export function send(baseUrl: string, delivery: Delivery): Promise<HttpAnswer> {
  return call(baseUrl, 'POST', delivery.path, delivery.headers, delivery.body);
}

/** The four request types, in the order distinct requests cycle through them. */
export const REQUEST_TYPES = ['access', 'export', 'correction', 'deletion'] as const;

/**
 * A create (`POST /api/v1/privacy/requests`) with its own key, client_request_id and subject;
 * its type cycles through {@link REQUEST_TYPES} unless `requestType` is given.
 */
export function createDelivery(
  auth: string,
  tag: string,
  i: number,
  requestType: (typeof REQUEST_TYPES)[number] = REQUEST_TYPES[i % REQUEST_TYPES.length]!,
): Delivery {
  return {
    path: '/api/v1/privacy/requests',
    headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': `scale-${tag}-key-${i}` },
    body: JSON.stringify(
      createBody({
        request_type: requestType,
        client_request_id: `scale-${tag}-${i}`,
        subject_id: `scale-subject-${tag}-${i}`,
      }),
    ),
  };
}

/** Runs `task(i)` for i in 0…n-1, at most `width` at a time. @returns the results in order. */
export async function inParallel<T>(n: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(n);
  let next = 0;
  const lane = async () => {
    while (next < n) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, n) }, lane));
  return results;
}
