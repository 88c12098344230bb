/**
 * Running requests that reach a database system end to end in one test process: the request
 * worker and the task runner on the fixture's clock, until both are idle; and registering the
 * shop dataset (test/fixtures/connectors/shop-dataset.yml) under another key, name or set of
 * identities.
 */
import assert from 'node:assert/strict';
import { createTaskRunner } from '../../src/jobs/task-runner.js';
import { createWorker } from '../../src/jobs/worker.js';
import { SHOP_DATASET_YAML } from './connector-targets.js';
import { type Fixture, silentLog } from './worker.js';

/** Runs the request worker (with the secret box, as the service does) and the task runner until neither finds work. */
export async function runUntilIdle(f: Fixture, publicBaseUrl?: string): Promise<void> {
  const options = { pollMs: 10, leaseMs: 60_000, maxAttempts: 2 };
  const services = f.t.services;
  const worker = createWorker({
    database: services.database,
    clock: f.time.clock,
    log: silentLog,
    pseudonymKey: services.keys.pseudonymKey,
    secretBox: services.secretBox,
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
    options,
  });
  const runner = createTaskRunner({
    database: services.database,
    clock: f.time.clock,
    log: silentLog,
    taskResults: services.taskResults,
    keys: { secretBox: services.secretBox, connectors: services.connectors, pseudonymKey: services.keys.pseudonymKey },
    options,
  });
  for (;;) {
    const worked = (await worker.runOnce()) || (await runner.runOnce());
    if (!worked) return;
  }
}

/**
 * The shop dataset under `fidesKey` (its references follow). `withoutEmailIdentity`: the
 * customer's e-mail column is no identity, so the dataset is searched by `github_id` and
 * `username` only (a request by e-mail cannot search it: PRODUCT §2.17).
 */
export function shopDataset(fidesKey: string, options: { withoutEmailIdentity?: boolean } = {}): string {
  let yaml = SHOP_DATASET_YAML.replaceAll('dataset: shop', `dataset: ${fidesKey}`)
    .replaceAll('shop.', `${fidesKey}.`)
    .replace('fides_key: shop', `fides_key: ${fidesKey}`);
  if (options.withoutEmailIdentity) {
    const line = '              identity: email\n';
    assert.ok(yaml.includes(line), 'the shop dataset marks customer.email as the email identity');
    yaml = yaml.replace(line, '');
  }
  return yaml;
}

/** Registers a database system through the API (201 expected). @returns its id. */
export async function addDatabaseSystem(
  f: Fixture,
  admin: string,
  body: { workspace_id?: string; key: string; name: string; kind: string; url: string; dataset: string },
): Promise<string> {
  const res = await f.t.app.inject({
    method: 'POST',
    url: '/api/v1/data-systems',
    headers: { authorization: admin },
    payload: {
      workspace_id: body.workspace_id ?? 'acme',
      key: body.key,
      name: body.name,
      kind: body.kind,
      connection: { url: body.url },
      dataset: body.dataset,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return (res.json() as { id: string }).id;
}
