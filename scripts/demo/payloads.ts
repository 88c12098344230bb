/** The providers' own example payloads the demo and the example letter send (signed as the providers sign them). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DemoFailure } from './http.js';

/** GitHub's documented `pull_request` `opened` example on Codertocat/Hello-World (owned by a user, no organization). */
export function githubPullRequest(): string {
  const require = createRequire(import.meta.url);
  const groups = JSON.parse(readFileSync(require.resolve('@octokit/webhooks-examples/api.github.com/index.json'), 'utf8'));
  const example = groups
    .find((g: { name: string }) => g.name === 'pull_request')
    ?.examples.find((e: Record<string, unknown>) => e.action === 'opened' && e.organization === undefined);
  if (!example) throw new DemoFailure('no pull_request opened example in @octokit/webhooks-examples');
  return JSON.stringify(example);
}

/** Clerk's `user.created` example, with GitHub account `githubAccount` linked (as Clerk reports an OAuth sign-in). */
export function clerkUserCreated(githubAccount: string): string {
  const event = JSON.parse(readFileSync(new URL('../../test/fixtures/clerk-user.created.json', import.meta.url), 'utf8'));
  event.data.external_accounts = [
    {
      object: 'external_account',
      id: 'eac_29w83tUBxx2R8ZbDDnU4jNyiuBz',
      provider: 'oauth_github',
      provider_user_id: githubAccount,
      username: 'Codertocat',
    },
  ];
  return JSON.stringify(event);
}
