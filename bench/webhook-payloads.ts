/**
 * The webhook bodies the benchmark sends: GitHub's documented `pull_request` "opened" example for
 * Codertocat/Hello-World (devDependency `@octokit/webhooks-examples`), GitLab's documented
 * `Merge Request Hook` (test/fixtures/gitlab-merge_request-open.json), and canonical Standard
 * Webhooks `user.updated` events. Loaded as the tests load them (test/helpers/webhook-payloads.ts).
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type Payload = Record<string, unknown>;

/** The GitHub `pull_request` example with action `opened` and no `organization` (routes by owner). */
export function githubPullRequestOpened(): string {
  const groups = JSON.parse(readFileSync(require.resolve('@octokit/webhooks-examples/api.github.com/index.json'), 'utf8')) as {
    name: string;
    examples: Payload[];
  }[];
  const example = groups
    .find((group) => group.name === 'pull_request')
    ?.examples.find((e) => e.action === 'opened' && e.organization === undefined);
  if (!example) throw new Error('no @octokit/webhooks-examples pull_request "opened" example');
  return JSON.stringify(example);
}

/** GitLab's documented `Merge Request Hook` payload (project gitlabhq/gitlab-test, action open). */
export function gitlabMergeRequestOpen(): string {
  const path = new URL('../test/fixtures/gitlab-merge_request-open.json', import.meta.url);
  return JSON.stringify(JSON.parse(readFileSync(path, 'utf8')) as Payload);
}

/** `sha256=<hex HMAC-SHA-256>` over the exact bytes, as GitHub's `X-Hub-Signature-256`. */
export function githubSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** A canonical (`format: standard`) `user.updated` event for `userId`, occurring now. */
export function identityUserUpdated(eventId: string, userId: string): string {
  return JSON.stringify({
    id: eventId,
    type: 'user.updated',
    occurred_at: new Date().toISOString(),
    data: { user_id: userId, email: `${userId}@example.com` },
  });
}
