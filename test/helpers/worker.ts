/** Helpers for request-processing tests: a test app on a manual clock, workers, filing requests, reading rows. */
import assert from 'node:assert/strict';
import pino from 'pino';
import { createDatabase, type Database } from '../../src/db/database.js';
import type { RequestHandler } from '../../src/workflows/request-types/handler.types.js';
import { createWorker, type WorkerOptions } from '../../src/jobs/worker.js';
import { startTestApp, type TestApp } from './app.js';
import type { TestDatabase } from './databases.js';
import { createBody, manualClock } from './requests.js';

export type ManualClock = ReturnType<typeof manualClock>;

/** A silent logger for workers. */
export const silentLog = pino({ level: 'silent' });

/** One test's world: a fresh database, the app on it with a manual clock, and a privacy:write+read token. */
export interface Fixture {
  database: TestDatabase;
  t: TestApp;
  time: ManualClock;
  auth: string;
  /** Extra connections opened with {@link Fixture.connect}; closed by {@link Fixture.close}. */
  connect(): Database;
  /** Closes everything and drops the database; a second call does nothing. */
  close(): Promise<void>;
}

/**
 * Opens a fixture whose token covers `options.workspaces` (default `acme`). Each of them names a
 * controller (PRODUCT §2.10; without one, access and export requests wait, §2.13) unless
 * `options.controller` is false.
 */
export async function openFixture(
  create: () => Promise<TestDatabase>,
  options: { start?: string; workspaces?: string[]; env?: Record<string, string>; controller?: boolean } = {},
): Promise<Fixture> {
  const database = await create();
  const time = manualClock(options.start ?? '2026-05-04T09:00:00.000Z');
  const t = await startTestApp(database, { clock: time.clock, ...(options.env ? { env: options.env } : {}) });
  const workspaces = options.workspaces ?? ['acme'];
  const auth = await t.bearer(['privacy:write', 'privacy:read'], workspaces);
  if (options.controller !== false)
    for (const workspace of workspaces.filter((w) => w !== '*'))
      await t.services.controllers.put(
        workspace,
        { name: `${workspace} controller`, contact_email: 'privacy@controller.example' },
        'test',
      );
  const extra: Database[] = [];
  let closed = false;
  return {
    database,
    t,
    time,
    auth,
    connect() {
      const db = createDatabase(database.url);
      extra.push(db);
      return db;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const db of extra) await db.close();
      await t.close();
      await database.drop();
    },
  };
}

let serial = 0;

/** Files a request through the API (202 expected). @returns the response body. */
export async function fileRequest(
  f: Fixture,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: string; status: string }> {
  serial += 1;
  const res = await f.t.app.inject({
    method: 'POST',
    url: '/api/v1/privacy/requests',
    headers: { authorization: f.auth, 'idempotency-key': `worker-test-key-${serial}-${Date.now()}` },
    payload: createBody({ client_request_id: `worker-test-${serial}-${Date.now()}`, ...overrides }),
  });
  assert.equal(res.statusCode, 202, res.body);
  return res.json();
}

/** A worker on `database` (default: the app's) with the fixture's clock. */
export function testWorker(
  f: Fixture,
  handlers?: Record<string, RequestHandler>,
  options: Partial<WorkerOptions> & { database?: Database } = {},
) {
  return createWorker({
    database: options.database ?? f.t.services.database,
    clock: f.time.clock,
    log: silentLog,
    pseudonymKey: f.t.services.keys.pseudonymKey,
    ...(handlers ? { handlers } : {}),
    options: { pollMs: options.pollMs ?? 10, leaseMs: options.leaseMs ?? 60_000, maxAttempts: options.maxAttempts ?? 3 },
  });
}

/** Runs a {@link testWorker} with the service's own handlers until nothing is left to claim. */
export async function processAll(f: Fixture): Promise<void> {
  const worker = testWorker(f);
  while (await worker.runOnce());
}

/** The same handler for every request type. */
export function forAllTypes(handler: RequestHandler): Record<string, RequestHandler> {
  return { access: handler, export: handler, correction: handler, deletion: handler };
}

/** The stored row of a request. */
export async function requestRow(f: Fixture, id: string) {
  return f.t.services.database.db.selectFrom('privacy_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The audit entries about one target, in chain order, details parsed. */
export async function auditOf(f: Fixture, targetId: string) {
  const rows = await f.t.services.database.db
    .selectFrom('audit_events')
    .select(['seq', 'actor', 'action', 'details', 'occurred_at'])
    .where('target_id', '=', targetId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> }));
}

/** A promise to hold a handler at, opened by the test. */
export function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Resolves once `check` holds (polling every 5 ms), or fails after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
