/**
 * Real webhook payloads for tests: GitHub's from the devDependency `@octokit/webhooks-examples`
 * (`api.github.com/index.json`), GitLab's from test/fixtures (see its README for the source).
 * Every accessor returns a fresh deep copy, free to edit.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A JSON object payload, edited freely by tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- provider payloads are edited at any depth by tests
export type Payload = Record<string, any>;

interface ExampleGroup {
  name: string;
  examples: Payload[];
}

let githubGroups: ExampleGroup[] | undefined;

function githubExamples(): ExampleGroup[] {
  githubGroups ??= JSON.parse(
    readFileSync(require.resolve('@octokit/webhooks-examples/api.github.com/index.json'), 'utf8'),
  ) as ExampleGroup[];
  return githubGroups;
}

/**
 * The first GitHub example of event `name` that `match` accepts (all, by default).
 * @throws when there is none, so a changed examples package fails loudly.
 */
export function githubExample(name: string, match: (example: Payload) => boolean = () => true): Payload {
  const found = githubExamples()
    .find((group) => group.name === name)
    ?.examples.find(match);
  if (!found) throw new Error(`no @octokit/webhooks-examples example for ${name}`);
  return structuredClone(found);
}

/** A GitHub `pull_request` example with `action`, without an `organization` (owner routing). */
export function githubPullRequest(action: string): Payload {
  return githubExample('pull_request', (e) => e.action === action && e.organization === undefined);
}

/** GitLab's documented `Merge Request Hook` payload (project gitlabhq/gitlab-test, action open). */
export function gitlabMergeRequest(): Payload {
  return JSON.parse(readFileSync(new URL('../fixtures/gitlab-merge_request-open.json', import.meta.url), 'utf8')) as Payload;
}

/** `sha256=<hex HMAC-SHA-256>` over the exact bytes, as GitHub's `X-Hub-Signature-256`. */
export function githubSignature(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
