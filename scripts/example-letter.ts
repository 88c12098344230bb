/**
 * `npm run example:letter`: writes docs/examples/access-letter.html and access-letter.png from a
 * real flow, not by hand. On a fresh SQLite database (the demo's stack: the app listening on
 * loopback and the worker), it sets a controller profile, receives GitHub's documented
 * `pull_request` example and Clerk's `user.created` example (linked to the PR author), both
 * signed as the providers sign them, files an access request for the Clerk user over HTTP, waits
 * for the worker, then saves the letter the API answers (`?format=html`) and a full-page
 * screenshot of it in headless Chromium (asked for by the browser's own Accept header).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { openChromium } from '../test/helpers/chromium.js';
import { apiClient, DemoFailure, sendClerk, sendGithub } from './demo/http.js';
import { startStack } from './demo/stack.js';
import { clerkUserCreated, githubPullRequest } from './demo/payloads.js';

const WORKSPACE = 'acme';
const OUT = new URL('../docs/examples/', import.meta.url);
const PROFILE = {
  name: 'Acme Software GmbH',
  contact_email: 'privacy@acme.example',
  dpo_contact: 'Dr. Jane Roe, dpo@acme.example',
  supervisory_authority: {
    name: 'Berlin Commissioner for Data Protection and Freedom of Information',
    url: 'https://www.datenschutz-berlin.de/',
  },
  privacy_notice_url: 'https://acme.example/privacy',
};

async function main(): Promise<void> {
  const stack = await startStack();
  try {
    const { token } = await stack.services.tokens.create({
      name: 'example',
      scopes: ['admin'],
      workspaces: [WORKSPACE],
      actor: 'example',
    });
    const api = apiClient(stack.baseUrl, token);
    await api('PUT', `/api/v1/workspaces/${WORKSPACE}/controller`, PROFILE);
    await api('PUT', `/api/v1/policies/workspaces/${WORKSPACE}`, { author_identity: 'full' });
    const githubSecret = randomBytes(32).toString('hex');
    await api('POST', '/api/v1/integrations', {
      kind: 'github',
      workspace_id: WORKSPACE,
      namespace: 'codertocat',
      secret: githubSecret,
    });
    const clerkSecret = `whsec_${randomBytes(24).toString('base64')}`;
    const clerk = await api('POST', '/api/v1/integrations', {
      kind: 'identity',
      workspace_id: WORKSPACE,
      format: 'clerk',
      subject_provider: 'clerk',
      secret: clerkSecret,
    });
    const pr = githubPullRequest();
    await sendGithub(stack.baseUrl, githubSecret, pr, randomUUID());
    const author = String((JSON.parse(pr) as { pull_request: { user: { id: number } } }).pull_request.user.id);
    await sendClerk(stack.baseUrl, clerk.body.id, clerkSecret, clerkUserCreated(author));
    const filed = await api(
      'POST',
      '/api/v1/privacy/requests',
      {
        request_type: 'access',
        scope: ['user'],
        subject_id: 'user_29w83sxmDNGwOuEthce5gg56FcC',
        subject_provider: 'clerk',
        workspace_id: WORKSPACE,
        client_request_id: 'example-access-0001',
        intake_ref: 'https://support.acme.example/tickets/4821',
      },
      { 'idempotency-key': `example-${randomUUID()}` },
    );
    const path = `/api/v1/privacy/requests/${filed.body.id}`;
    for (let waited = 0; (await api('GET', path)).body.status !== 'completed'; waited += 100) {
      if (waited > 15_000) throw new DemoFailure(`request ${filed.body.id} did not complete`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const res = await fetch(`${stack.baseUrl}${path}/package?format=html`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new DemoFailure(`the letter answered ${res.status}`);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(new URL('access-letter.html', OUT), await res.text());

    const browser = await openChromium();
    try {
      const context = await browser.newContext({
        extraHTTPHeaders: { authorization: `Bearer ${token}` },
        viewport: { width: 1000, height: 1200 },
      });
      const page = await context.newPage();
      await page.goto(`${stack.baseUrl}${path}/package`);
      await page.screenshot({ path: new URL('access-letter.png', OUT).pathname, fullPage: true });
    } finally {
      await browser.close();
    }
    console.log(`wrote docs/examples/access-letter.html and access-letter.png (request ${filed.body.id})`);
  } finally {
    await stack.stop();
  }
}

await main();
