/**
 * `npm run demo`: the service end to end on a fresh SQLite database, in-process, over real HTTP.
 *
 * It registers a GitHub and a Clerk integration, sends a real GitHub `pull_request` payload
 * (@octokit/webhooks-examples) and Clerk's `user.created` example linked to the PR author's
 * GitHub account, both signed as the providers sign them; then files an access request and a
 * deletion request for the Clerk user, waits for the worker, and prints what happened, with the
 * signed outbound events a receiver on loopback verified with `standardwebhooks`; then the person
 * files a request of their own through the privacy center, verified with the code from the mail a
 * real SMTP server on loopback received (scripts/demo/privacy-center.ts): a customer of the shop
 * database the service never heard of, whose rows the answer holds; then a visitor whose browser
 * sends Global Privacy Control (`Sec-GPC: 1`) opts out at the center and sees it honoured
 * (scripts/demo/gpc-opt-out.ts); then an authorized agent with a fresh Ed25519 key pairs over the
 * Data Rights Protocol 1.0 and files a signed deletion, followed to `fulfilled`
 * (scripts/demo/drp-agent.ts). Exit 0
 * when every step succeeded, 1 with the reason otherwise. The temporary folder is removed.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { verifyChain } from '../src/modules/audit/audit-chain.fns.js';
import { readChain } from '../src/modules/audit/audit.repository.js';
import { type Answer, apiClient, DemoFailure, sendClerk, sendGithub } from './demo/http.js';
import { author, line, packageSummary, reportLines, step } from './demo/print.js';
import { type DemoStack, startStack } from './demo/stack.js';
import { clerkUserCreated, githubPullRequest } from './demo/payloads.js';
import { type DemoReceiver, startReceiver } from './demo/receiver.js';
import { SHOP_DATASET, SHOP_ONLY_EMAIL, type ShopDatabase, startShopDatabase } from './demo/shop-database.js';
import { privacyCenterStep } from './demo/privacy-center.js';
import { gpcOptOutStep } from './demo/gpc-opt-out.js';
import { drpAgentStep } from './demo/drp-agent.js';
// The tests' SMTP receiver (smtp-server, a devDependency): the demo runs from the dev checkout.
import { type SmtpReceiver, startSmtpReceiver } from '../test/helpers/smtp-receiver.js';

const WORKSPACE = 'acme';
const CLERK_USER = 'user_29w83sxmDNGwOuEthce5gg56FcC';
/** The address of Clerk's example user (test/fixtures/clerk-user.created.json). */
const CLERK_EMAIL = 'example@example.org';
/** The PR author of GitHub's example (Codertocat). */
const GITHUB_ACCOUNT = '21031067';
/** A person an authorized agent files a deletion for (DRP); the analytics system erases their records. */
const DRP_PERSON = 'drp-person@example.com';
/** A visitor of the privacy center whose browser sends `Sec-GPC: 1`. */
const GPC_VISITOR = 'gpc-visitor@example.net';
const FINAL = ['completed', 'failed', 'rejected', 'canceled', 'action_required'];

type Api = ReturnType<typeof apiClient>;

function expectStatus(answer: Answer, status: string, what: string): void {
  if (answer.body?.status !== status)
    throw new DemoFailure(`${what} answered ${JSON.stringify(answer.body)}, expected status ${status}`);
}

/** Files a request for the Clerk user over HTTP (202). @returns its id. */
async function fileRequest(api: Api, requestType: string, subjectProvider: string): Promise<string> {
  const body = {
    request_type: requestType,
    scope: ['user'],
    subject_id: CLERK_USER,
    subject_provider: subjectProvider,
    workspace_id: WORKSPACE,
    client_request_id: `demo-${requestType}-0001`,
    intake_ref: `https://support.example.com/tickets/demo-${requestType}`,
  };
  const answer = await api('POST', '/api/v1/privacy/requests', body, { 'idempotency-key': `demo-${randomUUID()}` }, [202]);
  line(
    `${requestType} request ${answer.body.id} filed: ${answer.body.status}, due ${answer.body.due_at} (${answer.body.regulation})`,
  );
  return answer.body.id;
}

/** Polls the request until it is final; @throws DemoFailure unless it completed within `timeoutMs`. */
async function waitForCompletion(api: Api, id: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api('GET', `/api/v1/privacy/requests/${id}`);
    if (body.status === 'completed') return line(`completed at ${body.completed_at} by the worker`);
    if (FINAL.includes(body.status))
      throw new DemoFailure(`request ${id} ended ${body.status}: ${body.status_reason ?? 'no reason given'}`);
    if (Date.now() > deadline) throw new DemoFailure(`request ${id} still ${body.status} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function onlyChangeEvent(api: Api) {
  const { body } = await api('GET', `/api/v1/change-events?workspace_id=${WORKSPACE}`);
  if (body.items.length !== 1) throw new DemoFailure(`expected one change event, found ${body.items.length}`);
  return body.items[0];
}

/**
 * A database data system (PRODUCT §2.14): the shop, described by a Fides dataset; the service
 * finds, packages and erases the subject's rows in it itself (no handler to write).
 */
async function addShopDatabase(api: Api, shop: ShopDatabase | null): Promise<void> {
  if (!shop) return line('no PostgreSQL on 127.0.0.1:5432 for the shop database: the demo goes on without a database system');
  const system = await api('POST', '/api/v1/data-systems', {
    workspace_id: WORKSPACE,
    key: 'shop-db',
    name: 'Shop database',
    kind: 'postgres',
    connection: { url: shop.url },
    dataset: SHOP_DATASET,
  });
  const summary = system.body.dataset as { collections: { name: string }[]; identities: string[] };
  line(
    `data system shop-db (postgres): collections ${summary.collections.map((c) => c.name).join(', ')}, ` +
      `identities ${summary.identities.join(', ')}; the connection is stored encrypted and never shown`,
  );
}

async function run(
  { baseUrl, services }: DemoStack,
  receiver: DemoReceiver,
  shop: ShopDatabase | null,
  mailbox: SmtpReceiver,
): Promise<void> {
  step('Service');
  line(`listening on ${baseUrl} (fresh SQLite database in a temporary folder), worker polling every 50 ms`);
  line(`mail goes out over SMTP_URL=${mailbox.url}, an SMTP server on loopback that keeps what it receives`);
  const { token } = await services.tokens.create({ name: 'demo', scopes: ['admin'], workspaces: [WORKSPACE], actor: 'demo' });
  const api = apiClient(baseUrl, token);
  line(`admin token created for workspace "${WORKSPACE}" (shown once; only its SHA-256 is stored)`);
  await api('PUT', `/api/v1/policies/workspaces/${WORKSPACE}`, { author_identity: 'full' });
  line('workspace policy: author_identity "full", so change events keep the author');
  // Every access answer names its controller; without a profile it would wait (PRODUCT §2.13).
  await api('PUT', `/api/v1/workspaces/${WORKSPACE}/controller`, {
    name: 'Demo Software Ltd',
    contact_email: 'privacy@demo.example',
  });
  line('controller profile: "Demo Software Ltd" answers for the workspace');
  const githubSecret = randomBytes(32).toString('hex');
  const github = await api('POST', '/api/v1/integrations', {
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
  line(
    `integrations: GitHub ${github.body.id} (owner codertocat), Clerk ${clerk.body.id} (subject_provider "${clerk.body.subject_provider}")`,
  );
  const crm = await api('POST', '/api/v1/webhook-endpoints', {
    workspace_id: WORKSPACE,
    url: `${receiver.url}/crm`,
    description: 'the CRM, told of every request',
  });
  receiver.trust('/crm', crm.body.secret);
  line(`webhook endpoint ${crm.body.id} → ${receiver.url}/crm (secret ${crm.body.secret.slice(0, 10)}…, shown once)`);
  await addAnalyticsSystem(api, services, receiver);
  await addShopDatabase(api, shop);

  step('Webhooks received');
  const pr = githubPullRequest();
  const delivery = randomUUID();
  const first = await sendGithub(baseUrl, githubSecret, pr, delivery);
  expectStatus(first, 'accepted', 'GitHub delivery');
  const { repository, number } = JSON.parse(pr) as { repository: { full_name: string }; number: number };
  line(`GitHub pull_request opened, ${repository.full_name}#${number}: ${first.body.status} (${first.body.event_id})`);
  const again = await sendGithub(baseUrl, githubSecret, pr, delivery);
  expectStatus(again, 'duplicate', 'GitHub redelivery');
  line(`the same delivery again (GitHub "Redeliver"): ${again.body.status}, nothing stored twice`);
  const user = await sendClerk(baseUrl, clerk.body.id, clerkSecret, clerkUserCreated(GITHUB_ACCOUNT));
  expectStatus(user, 'accepted', 'Clerk delivery');
  line(`Clerk user.created (linked to GitHub account ${GITHUB_ACCOUNT}): ${user.body.status}`);

  step('Change event recorded');
  const event = await onlyChangeEvent(api);
  line(`${event.id}  ${event.repository}#${event.number} ${event.action}: "${event.title}"`);
  line(`author: ${author(event)}; processing allowed: ${event.decision.processing_allowed}`);

  step('Access request (GDPR Art. 15)');
  const accessId = await fileRequest(api, 'access', clerk.body.subject_provider);
  await waitForCompletion(api, accessId);
  const packagePath = `/api/v1/privacy/requests/${accessId}/package`;
  const pkg = await api('GET', packagePath);
  line(`package: ${baseUrl}${packagePath} (${pkg.body.format})`);
  for (const text of packageSummary(pkg.body)) line(`  ${text}`);

  step('Deletion request (GDPR Art. 17)');
  const deletionId = await fileRequest(api, 'deletion', clerk.body.subject_provider);
  await waitForCompletion(api, deletionId);
  const report = await api('GET', `/api/v1/privacy/requests/${deletionId}/report`);
  line(`report: ${baseUrl}/api/v1/privacy/requests/${deletionId}/report (${report.body.format})`);
  for (const text of reportLines(report.body)) line(`  ${text}`);
  for (const part of (report.body.systems ?? []) as {
    key: string;
    outcome: string;
    erased?: Record<string, number>;
    collections?: Record<string, unknown>;
  }[])
    line(
      `  system ${part.key}: ${part.outcome}, erased ${JSON.stringify(part.erased ?? {})}` +
        (part.collections ? `, rows per table ${JSON.stringify(part.collections)}` : ''),
    );

  step('Afterwards');
  const after = await onlyChangeEvent(api);
  const title = after.title === null ? 'erased' : `"${after.title}"`;
  line(
    `${after.id}: author ${author(after)}; title ${title}; policy decision kept (processing allowed: ${after.decision.processing_allowed})`,
  );
  if (after.author !== null) throw new DemoFailure('the change event still names its author after the deletion');
  const gone = await api('GET', packagePath, undefined, {}, [410]);
  line(`the access package now answers ${gone.status}: ${gone.body.detail}`);

  step('Outbound events (Standard Webhooks, verified by the receiver)');
  await waitForDeliveries(receiver, '/crm', 6);
  for (const d of receiver.deliveries.filter((x) => x.path === '/crm'))
    line(`${d.id}  ${d.event.type.padEnd(31)} ${String(d.event.data.id)} ${String(d.event.data.status)}`);
  for (const d of receiver.deliveries.filter((x) => x.path === '/analytics')) {
    const task = d.event.data.task as { id: string; request_type: string };
    line(`${d.id}  ${d.event.type.padEnd(31)} ${task.id} (${task.request_type}) → analytics`);
  }
  if (receiver.rejected > 0) throw new DemoFailure(`${receiver.rejected} deliveries failed verification`);

  step('Privacy center (the person files their own request, GDPR Art. 12)');
  // A customer of the shop the service never heard of (PRODUCT §2.17): the shop database is searched by her e-mail.
  await privacyCenterStep(api, baseUrl, WORKSPACE, mailbox, shop ? SHOP_ONLY_EMAIL : CLERK_EMAIL, shop ? 'shop-db' : null);

  step('Global Privacy Control (CCPA opt-out of sale/sharing, 11 CCR §7025)');
  await gpcOptOutStep(api, baseUrl, WORKSPACE, GPC_VISITOR);

  step('Authorized agent (Data Rights Protocol 1.0, CCPA §1798.135(e))');
  await drpAgentStep(api, baseUrl, WORKSPACE, DRP_PERSON);

  step('Audit trail');
  const { entries, head } = await readChain(services.database.db);
  const problem = verifyChain(entries, head);
  if (problem) throw new DemoFailure(`audit verify: chain broken at entry ${problem.seq} (${problem.problem})`);
  line(`audit verify: chain intact, ${entries.length} entries (same check as \`privacyctl audit verify\`)`);
}

/**
 * A data system (PRODUCT §2.9): "analytics", reached through its own webhook endpoint, with a
 * token limited to it. When its `data_task.created` arrives, it answers the task over HTTP as a
 * real system would: its data for an access request, what it erased for a deletion.
 */
async function addAnalyticsSystem(api: Api, services: DemoStack['services'], receiver: DemoReceiver): Promise<void> {
  const endpoint = await api('POST', '/api/v1/webhook-endpoints', {
    workspace_id: WORKSPACE,
    url: `${receiver.url}/analytics`,
    event_types: ['data_task.created'],
  });
  receiver.trust('/analytics', endpoint.body.secret);
  const system = await api('POST', '/api/v1/data-systems', {
    workspace_id: WORKSPACE,
    key: 'analytics',
    name: 'Product analytics',
    categories: ['user.account', 'user.contact.email'],
    request_types: ['access', 'deletion'],
    endpoint_id: endpoint.body.id,
  });
  const { token } = await services.tokens.create({
    name: 'analytics',
    scopes: ['tasks:write'],
    workspaces: [WORKSPACE],
    systems: ['analytics'],
    actor: 'demo',
  });
  receiver.on('/analytics', (delivery) => {
    const task = delivery.event.data.task as { id: string; request_type: string; categories: string[] };
    const links = delivery.event.data.links as { result: string };
    const result =
      task.request_type === 'access'
        ? {
            outcome: 'completed',
            records: { 'user.account': 2 },
            data: { 'user.account': { sessions: 14, last_seen: '2026-11-20' } },
          }
        : { outcome: 'completed', erased: { 'user.account': 2, 'user.contact.email': 1 } };
    void fetch(links.result, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(result),
    });
  });
  line(
    `data system "${system.body.key}" (${system.body.name}): tasks arrive at ${receiver.url}/analytics, answered with a token limited to it`,
  );
}

/** Waits until `path` received at least `count` verified deliveries. */
async function waitForDeliveries(receiver: DemoReceiver, path: string, count: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.deliveries.filter((d) => d.path === path).length < count) {
    if (Date.now() > deadline) throw new DemoFailure(`${path} received fewer than ${count} events in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main(): Promise<number> {
  let stack: DemoStack | undefined;
  let receiver: DemoReceiver | undefined;
  let shop: ShopDatabase | null = null;
  let mailbox: SmtpReceiver | undefined;
  try {
    receiver = await startReceiver();
    mailbox = await startSmtpReceiver();
    // Clerk's example user (test/fixtures/clerk-user.created.json) and the GitHub account linked to it.
    shop = await startShopDatabase(CLERK_EMAIL, GITHUB_ACCOUNT);
    stack = await startStack({ SMTP_URL: mailbox.url, SMTP_FROM: 'privacy@demo.example' });
    await run(stack, receiver, shop, mailbox);
    console.log('\nDemo finished: every step succeeded.');
    return 0;
  } catch (error) {
    const reason =
      error instanceof DemoFailure ? error.message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    console.error(`\nDemo failed: ${reason}`);
    return 1;
  } finally {
    await stack
      ?.stop()
      .catch((error: unknown) => console.error(`cleanup failed: ${error instanceof Error ? error.message : error}`));
    await receiver?.stop();
    await mailbox?.close();
    await shop
      ?.drop()
      .catch((error: unknown) => console.error(`shop cleanup failed: ${error instanceof Error ? error.message : error}`));
  }
}

process.exit(await main());
