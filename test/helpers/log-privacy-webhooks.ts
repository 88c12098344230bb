/**
 * The webhook half of the log-privacy flow: integrations of every kind created through the API
 * with their secrets, then signed deliveries of all three providers (valid, bad signature,
 * duplicate), each secret, signature and personal value recorded as sensitive.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { canonicalEvent, newStandardSecret, standardHeaders, workosHeaders } from './identity-webhooks.js';
import { expectStatus, type HttpClient, type SensitiveValues } from './log-privacy.js';
import { githubPullRequest, githubSignature, gitlabMergeRequest } from './webhook-payloads.js';

/** The person the flow is about: distinctive values, searched for in the logs. */
export interface Person {
  userId: string;
  email: string;
  name: string;
  username: string;
  githubId: number;
  githubLogin: string;
}

/** Where the deliveries go. */
export interface WebhookTarget {
  http: HttpClient;
  /** `Authorization` header value of an admin token. */
  admin: string;
  workspace: string;
  person: Person;
  /** The repository (`owner/name`) the pull request is in; the owner is the person's login. */
  repository: string;
  sensitive: SensitiveValues;
}

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

function recordFixtureValues(sensitive: SensitiveValues): void {
  sensitive
    .add('Clerk fixture email', 'example@example.org')
    .add('Clerk fixture user id', 'user_29w83sxmDNGwOuEthce5gg56FcC')
    .add('Clerk fixture name', 'Example Example')
    .add('WorkOS fixture email', 'lela.block@example.com')
    .add('WorkOS fixture user id', 'directory_user_01E1X1B89NH8Z3SDFJR4H7RGX7')
    .add('WorkOS fixture name', 'Lela Block')
    .add('GitLab fixture email', 'admin@example.com')
    .add('GitLab fixture name', 'Administrator')
    .add('GitLab fixture username', '"root"')
    .add('GitLab commit author email', 'gitlabdev@dv6700')
    .add('GitLab commit author name', 'GitLab dev user')
    .add('GitHub fixture login', 'Codertocat');
}

async function createIntegration(w: WebhookTarget, body: Record<string, string>): Promise<string> {
  const res = expectStatus(
    await w.http('POST', '/api/v1/integrations', {
      headers: { authorization: w.admin },
      body: { workspace_id: w.workspace, ...body },
    }),
    201,
  );
  return res.json().id as string;
}

async function github(w: WebhookTarget): Promise<void> {
  const secret = `gh-secret-${randomUUID()}`;
  w.sensitive.add('GitHub secret', secret);
  await createIntegration(w, { kind: 'github', namespace: w.repository.split('/')[0] ?? '', secret });
  const pr = githubPullRequest('opened');
  const [owner, name] = w.repository.split('/');
  Object.assign(pr.repository, { full_name: w.repository, name });
  pr.repository.owner.login = owner;
  Object.assign(pr.pull_request.user, {
    id: w.person.githubId,
    login: w.person.githubLogin,
    email: w.person.email,
    name: w.person.name,
  });
  pr.pull_request.title = `Notes about ${w.person.name}`;
  pr.sender = { ...pr.sender, id: w.person.githubId, login: w.person.githubLogin };
  const body = JSON.stringify(pr);
  const good = githubSignature(secret, body);
  const forged = githubSignature(`not-${secret}`, body);
  w.sensitive.add('GitHub signature', good.slice(7)).add('forged GitHub signature', forged.slice(7));
  const delivery = randomUUID();
  const send = (signature: string) =>
    w.http('POST', '/webhook/prhost', {
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'pull_request',
        'x-github-delivery': delivery,
        'x-hub-signature-256': signature,
      },
      body,
    });
  expectStatus(await send(forged), 401);
  const statuses = [expectStatus(await send(good), 200).json().status, expectStatus(await send(good), 200).json().status];
  if (statuses.join() !== 'accepted,duplicate') throw new Error(`GitHub deliveries: ${statuses.join()}`);
}

async function gitlab(w: WebhookTarget): Promise<string> {
  const token = `gl-token-${randomUUID()}`;
  w.sensitive.add('GitLab token', token);
  const id = await createIntegration(w, { kind: 'gitlab', namespace: 'gitlabhq', secret: token });
  const body = JSON.stringify(gitlabMergeRequest());
  const uuid = randomUUID();
  const send = (t: string) =>
    w.http('POST', '/webhook/mrhost', {
      headers: {
        'content-type': 'application/json',
        'x-gitlab-event': 'Merge Request Hook',
        'x-gitlab-event-uuid': uuid,
        'x-gitlab-token': t,
      },
      body,
    });
  expectStatus(await send(`wrong-${token}`), 401);
  const statuses = [expectStatus(await send(token), 200).json().status, expectStatus(await send(token), 200).json().status];
  if (statuses.join() !== 'accepted,duplicate') throw new Error(`GitLab deliveries: ${statuses.join()}`);
  return id;
}

function recordStandardSignature(sensitive: SensitiveValues, label: string, headers: Record<string, string>): void {
  const value = headers['webhook-signature'] ?? headers['svix-signature'] ?? '';
  sensitive.add(label, value.replace(/^v1,/, ''));
}

async function standardIdentity(w: WebhookTarget): Promise<void> {
  const secret = newStandardSecret();
  w.sensitive.addWhsec('identity (standard) secret', secret);
  const id = await createIntegration(w, { kind: 'identity', format: 'standard', subject_provider: 'okta', secret });
  const p = w.person;
  const body = canonicalEvent(`evt_${randomUUID()}`, 'user.created', new Date().toISOString(), {
    user_id: p.userId,
    email: p.email,
    name: p.name,
    username: p.username,
    linked_accounts: [{ provider: 'github', account_id: String(p.githubId), login: p.githubLogin }],
  });
  const messageId = `msg_${randomUUID()}`;
  const good = standardHeaders(secret, messageId, body);
  const forged = standardHeaders(newStandardSecret(), messageId, body);
  recordStandardSignature(w.sensitive, 'identity signature', good);
  recordStandardSignature(w.sensitive, 'forged identity signature', forged);
  const url = `/webhook/identity?integration=${id}`;
  expectStatus(await w.http('POST', url, { headers: forged, body }), 401);
  const first = expectStatus(await w.http('POST', url, { headers: good, body }), 200).json().status;
  const again = expectStatus(await w.http('POST', url, { headers: good, body }), 200).json().status;
  if (`${first},${again}` !== 'accepted,duplicate') throw new Error(`identity deliveries: ${first},${again}`);
}

async function clerkAndWorkos(w: WebhookTarget): Promise<void> {
  const clerkSecret = newStandardSecret();
  const workosSecret = `workos-secret-${randomUUID()}`;
  w.sensitive.addWhsec('Clerk secret', clerkSecret).add('WorkOS secret', workosSecret);
  const clerk = await createIntegration(w, { kind: 'identity', format: 'clerk', subject_provider: 'clerk', secret: clerkSecret });
  const workos = await createIntegration(w, {
    kind: 'identity',
    format: 'workos',
    subject_provider: 'workos',
    secret: workosSecret,
  });
  const clerkBody = fixture('clerk-user.created.json');
  const clerkHeaders = standardHeaders(clerkSecret, `msg_${randomUUID()}`, clerkBody, { prefix: 'svix' });
  recordStandardSignature(w.sensitive, 'Clerk signature', clerkHeaders);
  for (const expected of ['accepted', 'duplicate']) {
    const res = expectStatus(
      await w.http('POST', `/webhook/identity?integration=${clerk}`, { headers: clerkHeaders, body: clerkBody }),
      200,
    );
    if (res.json().status !== expected) throw new Error(`Clerk delivery: ${res.text}`);
  }
  const workosBody = fixture('workos-dsync.user.created.json');
  const good = workosHeaders(workosSecret, workosBody);
  const forged = workosHeaders(`not-${workosSecret}`, workosBody);
  w.sensitive.add('WorkOS signature', good['workos-signature']?.split('v1=')[1] ?? '');
  w.sensitive.add('forged WorkOS signature', forged['workos-signature']?.split('v1=')[1] ?? '');
  expectStatus(await w.http('POST', `/webhook/identity?integration=${workos}`, { headers: forged, body: workosBody }), 401);
  expectStatus(await w.http('POST', `/webhook/identity?integration=${workos}`, { headers: good, body: workosBody }), 200);
}

/**
 * Creates the GitHub, GitLab and three identity integrations (standard, Clerk, WorkOS) through the
 * API and sends each provider's deliveries: a bad signature (401), a valid one (accepted) and its
 * redelivery (duplicate). @returns the GitLab integration's id (the flow deletes it later).
 */
export async function sendAllWebhooks(w: WebhookTarget): Promise<string> {
  recordFixtureValues(w.sensitive);
  await standardIdentity(w);
  await clerkAndWorkos(w);
  await github(w);
  return gitlab(w);
}
