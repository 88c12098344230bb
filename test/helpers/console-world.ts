/** A world for console tests: an officer, requests in every state the console acts on, an endpoint. */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { REQUEST_HANDLERS } from '../../src/workflows/request-types/request-handlers.js';
import { createWorker } from '../../src/jobs/worker.js';
import { startTestApp, type TestApp } from './app.js';
import { addSystem } from './data-systems.js';
import { builtConsole } from './console-build.js';
import type { TestDatabase } from './databases.js';
import { answeredRequest, seedLetterWorld } from './letters.js';
import { manualClock } from './requests.js';
import { fileRequest } from './subject-data.js';
import { silentLog } from './worker.js';

const DAY_MS = 86_400_000;

export interface ConsoleWorld {
  t: TestApp;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The officer's raw API token (admin on acme, beta and gamma), as a person pastes it. */
  officerToken: string;
  officerTokenId: string;
  /** The token that filed the requests (privacy:write), as an `Authorization` value. */
  intake: string;
  /** acme, filed 60 days ago: overdue (GDPR). */
  overdueId: string;
  /** beta (require_approval), filed by `intake`: pending approval. */
  pendingId: string;
  /** acme, access, completed with its package. */
  answeredId: string;
  /** gamma, access, processing: waits for the manual data system `crm-manual` (one pending task). */
  taskedId: string;
  endpointId: string;
  endpointSecret: string;
}

/**
 * Starts the app on `database` with the built console, seeds the world (the overdue request is
 * filed on a clock set 60 days back) and listens on loopback.
 */
export async function openConsoleWorld(database: TestDatabase): Promise<ConsoleWorld> {
  const time = manualClock(new Date(Date.now() - 60 * DAY_MS).toISOString());
  const t = await startTestApp(database, {
    clock: time.clock,
    consoleDir: await builtConsole(),
    env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' },
  });
  const officer = await t.services.tokens.create({
    name: 'officer',
    scopes: ['admin'],
    workspaces: ['acme', 'beta', 'gamma'],
    actor: 'test',
  });
  const intake = await t.bearer(['privacy:write', 'privacy:read'], ['acme', 'beta', 'gamma']);
  const subject = { request_type: 'access', scope: ['user'], subject_provider: 'github' };
  // First the request with a data task: the worker processes what is queued, and only this is, yet.
  time.set(new Date().toISOString());
  await addSystem(t, `Bearer ${officer.token}`, { workspace_id: 'gamma', key: 'crm-manual', name: 'CRM (by hand)' });
  // A named controller: without one an access request waits before any work (PRODUCT §2.13).
  await t.services.controllers.put('gamma', { name: 'Gamma Ltd', contact_email: 'privacy@gamma.example' }, 'test');
  // Its subject is known to the CRM only: the officer's counts and data for it (the console's
  // "Mark done") are what match the identity, so the request completes without a review (PRODUCT §2.13).
  const taskedId = await fileRequest(t, intake, { ...subject, subject_id: 'tasked-subject-1', workspace_id: 'gamma' });
  const worker = createWorker({
    database: t.services.database,
    clock: time.clock,
    log: silentLog,
    pseudonymKey: t.services.keys.pseudonymKey,
    handlers: REQUEST_HANDLERS,
    options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 },
  });
  while (await worker.runOnce());
  time.set(new Date(Date.now() - 60 * DAY_MS).toISOString());
  const overdueId = await fileRequest(t, intake, { ...subject, subject_id: 'overdue-subject-4711', workspace_id: 'acme' });
  time.set(new Date().toISOString());
  await t.services.policies.putLayer('beta', null, { require_approval: true }, 'test');
  const pendingId = await fileRequest(t, intake, { ...subject, subject_id: 'pending-subject-0815', workspace_id: 'beta' });
  const letterWorld = await seedLetterWorld(t, 'acme');
  const answeredId = await answeredRequest(t, intake, letterWorld);
  const endpoint = await t.app.inject({
    method: 'POST',
    url: '/api/v1/webhook-endpoints',
    headers: { authorization: `Bearer ${officer.token}` },
    payload: { workspace_id: 'acme', url: 'http://127.0.0.1:9/hook', description: 'CRM receiver' },
  });
  assert.equal(endpoint.statusCode, 201, endpoint.body);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  return {
    t,
    origin: `http://127.0.0.1:${port}`,
    officerToken: officer.token,
    officerTokenId: officer.id,
    intake,
    overdueId,
    pendingId,
    answeredId,
    taskedId,
    endpointId: endpoint.json().id,
    endpointSecret: endpoint.json().secret,
  };
}
