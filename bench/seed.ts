/**
 * Seeding: an admin API token and the three webhook integrations written straight into the
 * database through the services (as `privacyctl token create` / `integration create` do), then
 * the policy layers and the replay request through the running service's API.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openServices } from '../src/services.js';

export const WORKSPACE = 'acme';
/** The workspace of the `create_hooked` scenario: two webhook endpoints subscribed to every event. */
export const HOOKED_WORKSPACE = 'hooked';
export const REPOSITORY = 'acme/api';
/** The GitHub owner and GitLab namespace the webhook payloads route to (see webhook-payloads.ts). */
export const GITHUB_OWNER = 'codertocat';
export const GITLAB_NAMESPACE = 'gitlabhq';

/** What the benchmark needs to sign or authenticate webhook deliveries; fresh for every run. */
export interface WebhookSecrets {
  /** GitHub HMAC secret (`X-Hub-Signature-256`). */
  github: string;
  /** GitLab token (`X-Gitlab-Token`). */
  gitlab: string;
  /** Standard Webhooks secret: `whsec_` + base64 of 24 random bytes. */
  identity: string;
}

/** What {@link seedDatabase} created. */
export interface Seeded {
  /** The admin token's secret, for `Authorization: Bearer <token>`. */
  token: string;
  webhooks: WebhookSecrets;
}

/** The workspace layer the issue names, and a repository layer that tightens it. */
const WORKSPACE_LAYER = { retention_days: 30 };
/** The privacy center of `acme`, on for the center-submit scenario. */
const CENTER = { enabled: true, request_types: ['access', 'deletion'] };
const REPOSITORY_LAYER = { retention_days: 14, excluded_paths: ['vendor/**', 'fixtures/**'], regulations: ['ccpa'] };

/**
 * Migrates the database at `databaseUrl`, creates an admin token for every workspace and, in
 * workspace `acme`, a GitHub integration (owner codertocat), a GitLab integration (namespace
 * gitlabhq) and a Standard Webhooks identity integration (subject provider okta); in workspace
 * `hooked`, two webhook endpoints at `receiverUrl` (bench/receiver.ts) when one is given.
 * Run before the service starts, so the two never write at once.
 */
export async function seedDatabase(databaseUrl: string, receiverUrl?: string): Promise<Seeded> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
  const database = createDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database.db);
    const services = await openServices({ config, database });
    const { token } = await services.tokens.create({ name: 'bench', scopes: ['admin'], workspaces: ['*'], actor: 'bench' });
    const webhooks: WebhookSecrets = {
      github: randomBytes(20).toString('hex'),
      gitlab: randomBytes(20).toString('hex'),
      identity: `whsec_${randomBytes(24).toString('base64')}`,
    };
    const { integrations } = services;
    await integrations.create(
      { kind: 'github', workspace_id: WORKSPACE, namespace: GITHUB_OWNER, secret: webhooks.github },
      'bench',
    );
    await integrations.create(
      { kind: 'gitlab', workspace_id: WORKSPACE, namespace: GITLAB_NAMESPACE, secret: webhooks.gitlab },
      'bench',
    );
    await integrations.create(
      { kind: 'identity', workspace_id: WORKSPACE, format: 'standard', subject_provider: 'okta', secret: webhooks.identity },
      'bench',
    );
    for (const name of receiverUrl ? ['a', 'b'] : [])
      await services.webhookEndpoints.create({ workspace_id: HOOKED_WORKSPACE, url: `${receiverUrl}/hooked/${name}` }, 'bench');
    return { token, webhooks };
  } finally {
    await database.close();
  }
}

/** One privacy-request body (PRODUCT.md §2.3); `n` makes client_request_id and intake_ref unique. */
export function createBody(runId: string, n: number | string, workspace = WORKSPACE): string {
  return JSON.stringify({
    request_type: 'access',
    scope: ['user'],
    subject_id: `gh-user-${n}`,
    subject_provider: 'github',
    workspace_id: workspace,
    client_request_id: `bench-${runId}-${n}`,
    intake_ref: `bench://${runId}/${n}`,
  });
}

async function call(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body } : {}),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function expect(what: string, ok: boolean, got: { status: number; text: string }): void {
  if (!ok) throw new Error(`seeding failed: ${what}: HTTP ${got.status} ${got.text.slice(0, 300)}`);
}

/**
 * Writes the workspace and repository policy layers, checks the effective policy merges both,
 * files the replay scenario's first request (then checks that a second send is a replay), and
 * turns on `acme`'s privacy center.
 * @returns the id of that request.
 */
export async function seedThroughApi(baseUrl: string, token: string, replayKey: string, replayBody: string): Promise<string> {
  const ws = await call(baseUrl, token, 'PUT', `/api/v1/policies/workspaces/${WORKSPACE}`, JSON.stringify(WORKSPACE_LAYER));
  expect('PUT workspace layer', ws.status === 200, ws);
  const repoPath = `/api/v1/policies/workspaces/${WORKSPACE}/repositories/${encodeURIComponent(REPOSITORY)}`;
  const repo = await call(baseUrl, token, 'PUT', repoPath, JSON.stringify(REPOSITORY_LAYER));
  expect('PUT repository layer', repo.status === 200, repo);
  const effective = await call(baseUrl, token, 'GET', effectivePath());
  const sources = effective.status === 200 ? (JSON.parse(effective.text) as { sources: Record<string, string> }).sources : {};
  expect('effective policy uses the repository layer', sources.retention_days === 'repository', effective);

  const first = await call(baseUrl, token, 'POST', '/api/v1/privacy/requests', replayBody, { 'idempotency-key': replayKey });
  expect('first POST of the replay request', first.status === 202 && !first.headers.has('idempotent-replayed'), first);
  const again = await call(baseUrl, token, 'POST', '/api/v1/privacy/requests', replayBody, { 'idempotency-key': replayKey });
  expect('second POST is a replay', again.status === 202 && again.headers.get('idempotent-replayed') === 'true', again);

  // The privacy center of `acme`, for the center-submit scenario (PRODUCT §2.15).
  const center = await call(baseUrl, token, 'PUT', `/api/v1/workspaces/${WORKSPACE}/privacy-center`, JSON.stringify(CENTER));
  expect('PUT privacy center settings', center.status === 200, center);
  return (JSON.parse(first.text) as { id: string }).id;
}

/** The effective-policy path the benchmark reads. */
export function effectivePath(): string {
  return `/api/v1/policies/effective?workspace_id=${WORKSPACE}&repository=${REPOSITORY}`;
}
