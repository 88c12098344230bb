/**
 * The growth benchmark's in-process timings, through the service's own code on the bench
 * database: one erasure (the deletion handler in the worker's transaction, the result saved, the
 * SQLite checkpoint the worker does after a deletion) for subjects holding 10, 100 and 1,000
 * change events, and one retention sweep.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { deletionHandler } from '../../src/workflows/request-types/deletion.handler.js';
import { saveResult } from '../../src/modules/privacy-requests/lifecycle/request-state.repository.js';
import { createRetentionSweeper, type SweepCounts } from '../../src/jobs/retention-sweeper.js';
import { newId } from '../../src/lib/ids.js';
import { accountPseudonym } from '../../src/lib/keyed-hash.js';
import type { ErasureReport } from '../../src/modules/subject-data/erasure-report.fns.js';
import type { NewRequestRow } from '../../src/modules/privacy-requests/privacy-request.repository.js';
import { openServices, type Services } from '../../src/services.js';
import { WORKSPACE } from '../seed.js';

/** One erasure: the subject's own change events, the time taken (ms) and what the report counted. */
export interface ErasureTiming {
  ownChangeEvents: number;
  ms: number;
  erasedChangeEvents: number;
}

async function withServices<T>(databaseUrl: string, body: (s: Services, d: Database) => Promise<T>): Promise<T> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const database = createDatabase(config.databaseUrl);
  try {
    return await body(await openServices({ config, database }), database);
  } finally {
    await database.close();
  }
}

/** A subject in acme with a linked GitHub account, `n` change events under its pseudonym and one earlier request. */
async function subjectWith(services: Services, n: number): Promise<{ subjectId: string }> {
  const db = services.database.db;
  const tag = randomBytes(4).toString('hex');
  const subjectId = `erase-${tag}`;
  const account = `77${parseInt(tag, 16)}`;
  const now = new Date().toISOString();
  const ref = newId('sub');
  await db
    .insertInto('subjects')
    .values({
      id: ref,
      workspace_id: WORKSPACE,
      subject_provider: 'okta',
      subject_id: subjectId,
      state: 'active',
      email: `${subjectId}@example.com`,
      name: 'Erase Me',
      username: subjectId,
      last_event_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('linked_identities')
    .values({ workspace_id: WORKSPACE, provider: 'github', account_id: account, subject_ref: ref, login: subjectId })
    .execute();
  const data = JSON.stringify({
    user_id: subjectId,
    email: `${subjectId}@example.com`,
    linked_accounts: [{ provider: 'github', account_id: account }],
  });
  await db
    .insertInto('identity_events')
    .values({ subject_ref: ref, event_id: `evt-${tag}`, event_type: 'user.created', occurred_at: now, data, received_at: now })
    .execute();
  const integration = (await services.integrations.list([WORKSPACE])).find((i) => i.kind === 'github');
  const pseudonym = accountPseudonym(services.keys.pseudonymKey, 'github', account);
  for (let start = 0; start < n; start += 200) {
    const rows = Array.from({ length: Math.min(200, n - start) }, (_, i) => ({
      id: newId('chg'),
      workspace_id: WORKSPACE,
      integration_id: integration?.id ?? 'int_none',
      provider: 'github',
      repository: `acme/repo-${i % 7}`,
      number: start + i + 1,
      action: 'opened',
      head_sha: randomBytes(20).toString('hex'),
      title: `Change ${start + i}`,
      author_account_id: null,
      author_login: null,
      author_pseudonym: pseudonym,
      decision: '{"processing_allowed":true,"reasons":["author_pseudonymized"],"excluded_paths":[],"policy_version":"seed"}',
      policy_version: 'seed',
      received_at: now,
    }));
    await db.insertInto('change_events').values(rows).execute();
  }
  return { subjectId };
}

function deletionRow(subjectId: string): NewRequestRow {
  const now = new Date().toISOString();
  return {
    id: newId('pr'),
    workspace_id: WORKSPACE,
    request_type: 'deletion',
    scope: '["user"]',
    subject_provider: 'okta',
    subject_id: subjectId,
    client_request_id: `erase-${subjectId}`,
    intake_ref: `bench://erase/${subjectId}`,
    regulation: 'gdpr',
    status: 'processing',
    status_reason: null,
    received_at: now,
    created_at: now,
    due_at: now,
    extended_due_at: null,
    completed_at: null,
    updated_at: now,
    attempts: 1,
    lease_owner: 'bench',
    lease_expires_at: now,
    next_attempt_at: null,
    filed_by: 'bench',
    related_request_id: null,
    agent: null,
    agent_id: null,
  };
}

/** Times one erasure per size in `sizes`, `repeat` times each (the median is kept). */
export async function timeErasures(databaseUrl: string, sizes: readonly number[], repeat: number): Promise<ErasureTiming[]> {
  return withServices(databaseUrl, async (services, database) => {
    const timings: ErasureTiming[] = [];
    for (const n of sizes) {
      const runs: ErasureTiming[] = [];
      for (let r = 0; r < repeat; r++) {
        const { subjectId } = await subjectWith(services, n);
        const request = deletionRow(subjectId);
        await database.db.insertInto('privacy_requests').values(request).execute();
        const started = performance.now();
        const report = await database.db.transaction().execute(async (tx) => {
          const outcome = await deletionHandler({
            tx,
            request: { ...request, due_soon_notified_at: null, overdue_notified_at: null, assignee: null, subject_found: null },
            now: new Date(),
            pseudonymKey: services.keys.pseudonymKey,
          });
          await saveResult(
            tx,
            request.id,
            undefined,
            outcome.status === 'completed' ? outcome.report : null,
            new Date().toISOString(),
          );
          return outcome.status === 'completed' ? outcome.report : null;
        });
        await database.checkpoint();
        const ms = performance.now() - started;
        runs.push({ ownChangeEvents: n, ms, erasedChangeEvents: erasedEvents(report) });
      }
      runs.sort((a, b) => a.ms - b.ms);
      timings.push(runs[Math.floor(runs.length / 2)] as ErasureTiming);
    }
    return timings;
  });
}

/** The change events the report says were made anonymous (a check that the erasure found them all). */
function erasedEvents(report: unknown): number {
  const content = (report as ErasureReport | null)?.categories['user.content'];
  return content?.erased.find((e) => e.what.startsWith('change event author'))?.count ?? -1;
}

/** One retention sweep as of now: its counts and duration (ms). */
export async function timeSweep(databaseUrl: string): Promise<{ counts: SweepCounts; ms: number }> {
  return withServices(databaseUrl, async (services, database) => {
    const sweeper = createRetentionSweeper({
      database,
      policies: services.policies,
      clock: services.clock,
      log: pino({ level: 'silent' }),
    });
    const started = performance.now();
    const counts = await sweeper.sweep(new Date());
    return { counts, ms: performance.now() - started };
  });
}
