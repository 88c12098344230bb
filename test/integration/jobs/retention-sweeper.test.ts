/**
 * The retention sweeper (src/jobs/retention-sweeper.ts): change events past their repository's
 * effective `retention_days` (PRODUCT.md §2.4), expired idempotency records and remembered webhook
 * deliveries; live in-flight claims kept; run by the worker at start.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../../src/config.js';
import { startWorker } from '../../../src/jobs/start-worker.js';
import { createRetentionSweeper } from '../../../src/jobs/retention-sweeper.js';
import { nextChangeEventScope } from '../../../src/modules/change-events/change-event-retention.repository.js';
import { toTimestamp } from '../../../src/lib/clock.js';
import { newId } from '../../../src/lib/ids.js';
import { insertChangeEvent } from '../../../src/modules/change-events/change-event.repository.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { githubPullRequest } from '../../helpers/webhook-payloads.js';
import { sendGithub } from '../../helpers/webhook-requests.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;
const ago = (days: number, from: Date = NOW) => new Date(from.getTime() - days * DAY_MS);
const later = (ms: number, from: Date = NOW) => new Date(from.getTime() + ms);

/** A log that keeps its lines, to check what a sweep logs. */
function memoryLog() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

async function until(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

for (const dialect of dialects()) {
  describe(`retention sweeper (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const db = () => t.services.database.db;
    const sweeper = (batchSize?: number) =>
      createRetentionSweeper({
        database: t.services.database,
        policies: t.services.policies,
        clock: () => NOW,
        log: pino({ level: 'silent' }),
        ...(batchSize ? { batchSize } : {}),
      });

    /** Stores a change event received at `at`; @returns its id. */
    const changeEvent = async (workspaceId: string, repository: string, at: Date) => {
      const id = newId('chg', at.getTime());
      await insertChangeEvent(db(), {
        id,
        workspace_id: workspaceId,
        integration_id: 'int_retention',
        provider: 'github',
        repository: repository.toLowerCase(),
        number: 1,
        action: 'opened',
        head_sha: null,
        title: 'Update the README with new information.',
        author_account_id: '21031067',
        author_login: 'Codertocat',
        author_pseudonym: null,
        decision: '{}',
        policy_version: 'd5.w1.r0',
        received_at: toTimestamp(at),
      });
      return id;
    };
    const changeEventIds = async () => (await db().selectFrom('change_events').select('id').execute()).map((r) => r.id).sort();
    const idempotencyRecord = (key: string, state: string, createdAt: Date, expiresAt: Date) =>
      db()
        .insertInto('idempotency_records')
        .values({
          principal_id: 'tok_retention',
          idempotency_key: key,
          fingerprint: 'f'.repeat(64),
          state,
          response_status: state === 'completed' ? 202 : null,
          response_location: null,
          response_body: state === 'completed' ? '{}' : null,
          created_at: toTimestamp(createdAt),
          expires_at: toTimestamp(expiresAt),
        })
        .execute();
    const delivery = (id: string, expiresAt: Date) =>
      db()
        .insertInto('webhook_deliveries')
        .values({
          integration_id: 'int_retention',
          delivery_id: id,
          received_at: toTimestamp(ago(7, expiresAt)),
          expires_at: toTimestamp(expiresAt),
          outcome: '{}',
        })
        .execute();

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      await t.services.policies.putLayer('acme', null, { retention_days: 30 }, 'test');
      await t.services.policies.putLayer('acme', 'acme/Strict-Repo', { retention_days: 7 }, 'test');
      // A repository can only tighten: 365 merges to the workspace's 30.
      await t.services.policies.putLayer('acme', 'acme/loose-repo', { retention_days: 365 }, 'test');
    });
    beforeEach(async () => {
      await db().deleteFrom('change_events').execute();
      await db().deleteFrom('idempotency_records').execute();
      await db().deleteFrom('webhook_deliveries').execute();
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it("removes change events older than the workspace's 30-day retention and keeps newer ones", async () => {
      const old = await changeEvent('acme', 'acme/api', ago(31));
      const edge = await changeEvent('acme', 'acme/api', ago(30));
      const recent = await changeEvent('acme', 'acme/api', ago(29));
      // globex has no layer: the default 90 days.
      const globexKept = await changeEvent('globex', 'globex/api', ago(31));
      const globexOld = await changeEvent('globex', 'globex/api', ago(91));

      const counts = await sweeper().sweep(NOW);

      assert.deepEqual(counts, {
        changeEvents: 2,
        idempotencyRecords: 0,
        webhookDeliveries: 0,
        packages: 0,
        centerSubmissions: 0,
      });
      assert.deepEqual(await changeEventIds(), [edge, recent, globexKept].sort());
      assert.ok(!(await changeEventIds()).some((id) => id === old || id === globexOld));
    });

    it('applies a repository layer of 7 days to that repository only, and never loosens', async () => {
      const strictOld = await changeEvent('acme', 'acme/strict-repo', ago(8));
      const strictNew = await changeEvent('acme', 'acme/strict-repo', ago(6));
      const sameAgeElsewhere = await changeEvent('acme', 'acme/api', ago(8));
      const looseOld = await changeEvent('acme', 'acme/loose-repo', ago(31));
      const looseNew = await changeEvent('acme', 'acme/loose-repo', ago(29));

      const counts = await sweeper().sweep(NOW);

      assert.equal(counts.changeEvents, 2);
      assert.deepEqual(await changeEventIds(), [strictNew, sameAgeElsewhere, looseNew].sort());
      assert.ok(!(await changeEventIds()).some((id) => id === strictOld || id === looseOld));
    });

    it('visits every (workspace, repository) pair, across workspace boundaries and name prefixes', async () => {
      // acme: 30 days (acme/strict-repo 7); acme-2 (a prefix of acme's id) and zulu: the default 90.
      const kept = [
        await changeEvent('acme', 'acme/api', ago(29)),
        await changeEvent('acme', 'acme/strict-repo', ago(6)),
        await changeEvent('acme', 'acme/zeta', ago(0.5)),
        await changeEvent('acme-2', 'acme-2/b', ago(89)),
        await changeEvent('globex', 'globex/api', ago(1)),
      ];
      const due = [
        await changeEvent('acme', 'acme/api-v2', ago(31)),
        await changeEvent('acme', 'acme/strict-repo', ago(8)),
        await changeEvent('acme', 'acme/zeta', ago(45)),
        await changeEvent('acme-2', 'acme-2/a', ago(91)),
        await changeEvent('zulu', 'zulu/x', ago(100)),
      ];

      const counts = await sweeper().sweep(NOW);

      assert.equal(counts.changeEvents, due.length);
      assert.deepEqual(await changeEventIds(), kept.sort());
    });

    it('walks the distinct pairs through the index, each with its oldest event, as a GROUP BY finds them', async () => {
      for (const [workspace, repository, days] of [
        ['acme', 'acme/api', 3],
        ['acme', 'acme/api', 40],
        ['acme', 'acme/api-v2', 2],
        ['acme-2', 'acme-2/a', 5],
        ['acme-2', 'acme-2/a', 1],
        ['globex', 'globex/api', 9],
        ['zulu', 'zulu/x', 100],
      ] as const)
        await changeEvent(workspace, repository, ago(days));
      const expected = await db()
        .selectFrom('change_events')
        .select(['workspace_id', 'repository', (eb) => eb.fn.min('received_at').as('oldest')])
        .groupBy(['workspace_id', 'repository'])
        .orderBy('workspace_id')
        .orderBy('repository')
        .execute();

      const walked = [];
      for (let s = await nextChangeEventScope(db(), null); s; s = await nextChangeEventScope(db(), s)) walked.push({ ...s });

      assert.equal(walked.length, 5);
      assert.deepEqual(walked, expected);
    });

    it('deletes a backlog in batches until none is left, and a second sweep finds nothing', async () => {
      for (let i = 0; i < 23; i++) await changeEvent('acme', 'acme/api', ago(40 + i));
      const kept = await changeEvent('acme', 'acme/api', ago(1));
      const s = sweeper(5);

      assert.equal((await s.sweep(NOW)).changeEvents, 23);
      assert.deepEqual(await changeEventIds(), [kept]);
      assert.deepEqual(await s.sweep(NOW), {
        changeEvents: 0,
        idempotencyRecords: 0,
        webhookDeliveries: 0,
        packages: 0,
        centerSubmissions: 0,
      });
    });

    it('removes expired idempotency records and abandoned claims, and keeps in-flight claims', async () => {
      await idempotencyRecord('completed-expired', 'completed', ago(1), NOW);
      await idempotencyRecord('completed-live', 'completed', later(-60_000), later(DAY_MS - 60_000));
      await idempotencyRecord('in-flight-fresh', 'in_flight', later(-1_000), later(DAY_MS - 1_000));
      // Past expires_at but younger than its 60 s lease: someone is still working on it.
      await idempotencyRecord('in-flight-expired-young', 'in_flight', later(-10_000), later(-1));
      // Expired and long past its lease: its process died.
      await idempotencyRecord('in-flight-abandoned', 'in_flight', ago(2), ago(1));

      const counts = await sweeper(2).sweep(NOW);

      assert.equal(counts.idempotencyRecords, 2);
      const left = await db().selectFrom('idempotency_records').select('idempotency_key').orderBy('idempotency_key').execute();
      assert.deepEqual(
        left.map((r) => r.idempotency_key),
        ['completed-live', 'in-flight-expired-young', 'in-flight-fresh'],
      );
    });

    it("removes a real request's idempotency record once its 24 h have passed", async () => {
      const filedAt = new Date();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: await t.bearer(['privacy:write']), 'idempotency-key': 'retention-key-0001' },
        payload: {
          request_type: 'access',
          scope: ['user'],
          subject_id: '583231',
          subject_provider: 'github',
          workspace_id: 'acme',
          client_request_id: 'retention-0001',
          intake_ref: 'https://support.example.com/tickets/1',
        },
      });
      assert.equal(res.statusCode, 202, res.body);
      assert.equal((await sweeper().sweep(later(60 * 60 * 1000, filedAt))).idempotencyRecords, 0);
      assert.equal((await sweeper().sweep(later(DAY_MS + 1_000, filedAt))).idempotencyRecords, 1);
      assert.equal((await db().selectFrom('idempotency_records').select('idempotency_key').execute()).length, 0);
    });

    it('removes webhook deliveries whose de-duplication window has passed', async () => {
      await delivery('expired-1', ago(1));
      await delivery('expired-now', NOW);
      await delivery('live', later(1));

      assert.equal((await sweeper().sweep(NOW)).webhookDeliveries, 2);
      const left = await db().selectFrom('webhook_deliveries').select('delivery_id').execute();
      assert.deepEqual(
        left.map((r) => r.delivery_id),
        ['live'],
      );
    });

    it('forgets a GitHub delivery id after 7 days, so a redelivery is recorded again', async () => {
      const secret = 'retention-gh-secret-01';
      await t.services.integrations.create({ kind: 'github', workspace_id: 'acme', namespace: 'codertocat', secret }, 'test');
      const body = JSON.stringify(githubPullRequest('opened'));
      const first = await sendGithub(t.app, { body, secret, delivery: 'retention-delivery-1' });
      assert.equal(first.json().status, 'accepted', first.body);
      assert.equal((await sendGithub(t.app, { body, secret, delivery: 'retention-delivery-1' })).json().status, 'duplicate');

      assert.equal((await sweeper().sweep(later(7 * DAY_MS + 1_000, new Date()))).webhookDeliveries, 1);
      assert.equal((await sendGithub(t.app, { body, secret, delivery: 'retention-delivery-1' })).json().status, 'accepted');
    });

    it('logs one summary of counts per sweep, without ids or personal data', async () => {
      await changeEvent('acme', 'acme/api', ago(31));
      await delivery('expired-log', ago(1));
      const { log, lines } = memoryLog();
      const s = createRetentionSweeper({ database: t.services.database, policies: t.services.policies, clock: () => NOW, log });
      s.start(60_000);
      await until(async () => lines.length > 0);
      await s.stop();

      assert.equal(lines.length, 1);
      const { msg, changeEvents, idempotencyRecords, webhookDeliveries, level } = lines[0] as Record<string, unknown>;
      assert.deepEqual(
        { msg, changeEvents, idempotencyRecords, webhookDeliveries, level },
        {
          msg: 'retention sweep',
          changeEvents: 1,
          idempotencyRecords: 0,
          webhookDeliveries: 1,
          level: 30,
        },
      );
      assert.doesNotMatch(JSON.stringify(lines), /acme|codertocat|21031067|README|expired-log/i);
    });

    it('runs once when the worker starts, and stops with it', async () => {
      const old = await changeEvent('acme', 'acme/api', ago(31, new Date()));
      const kept = await changeEvent('acme', 'acme/api', ago(1, new Date()));
      const config = loadConfig({ DATABASE_URL: database.url, WORKER_POLL_MS: '20' });
      const worker = startWorker(t.services, config.worker, pino({ level: 'silent' }));
      try {
        await until(async () => !(await changeEventIds()).includes(old));
      } finally {
        await worker.stop();
      }
      assert.deepEqual(await changeEventIds(), [kept]);
    });
  });
}
