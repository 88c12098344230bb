/**
 * Migration 2026-11-24T0101-audit-queue: the queue (across workspaces, `sort=due_at`,
 * `due_before`), subject search without a workspace (and by e-mail address in any case,
 * 2026-12-07T0701), and the audit trail list (a request's
 * timeline, a workspace's entries) are index ranges that stop at the page, not scans of the
 * table (issue 13; times measured by `npm run bench:growth`). The statements checked are the
 * ones the repositories run, captured as they run them, on tables with statistics.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/db/database.js';
import type { DB } from '../../../src/db/schema.js';
import { listAuditEvents } from '../../../src/modules/audit/audit-read.repository.js';
import { listRequests, type RequestListFilter } from '../../../src/modules/privacy-requests/privacy-request-list.repository.js';
import { dialects } from '../../helpers/databases.js';
import { openSeededDatabase, requestRow, type SeededDatabase } from '../../helpers/seeded-database.js';
import { planOf } from '../../helpers/query-plan.js';

/** 20,000 requests in 20 workspaces, one every 20 minutes from 2026-01-01, each due 30 days later; mostly completed. */
const COUNT = 20_000;
const START_MS = Date.parse('2026-01-01T00:00:00.000Z');
const STEP_MS = 20 * 60 * 1000;
const DUE_MS = 30 * 24 * 60 * 60 * 1000;
const NOW = new Date(START_MS + COUNT * STEP_MS).toISOString();
const iso = (ms: number) => new Date(ms).toISOString();
const id = (prefix: string, i: number) => `${prefix}_${String(i).padStart(8, '0')}`;

function request(i: number) {
  const created = START_MS + i * STEP_MS;
  return requestRow(i, {
    workspace_id: `w${i % 20}`,
    // Every tenth by e-mail address, in the case the person typed it (PRODUCT §2.13).
    subject_provider: i % 10 === 3 ? 'email' : i % 2 ? 'okta' : 'github',
    subject_id: i % 10 === 3 ? `Person${i % 5000}@Example.org` : `u${i % 5000}`,
    status: i > COUNT - 500 ? 'queued' : 'completed',
    created_at: iso(created),
    due_at: iso(created + DUE_MS),
    extended_due_at: i % 97 === 0 ? iso(created + 3 * DUE_MS) : null,
  });
}

/** Three entries per request: created, processing done, and a data task's; every 500th request's in workspace `rare`. */
function auditRows(i: number) {
  const at = iso(START_MS + i * STEP_MS);
  const base = {
    occurred_at: at,
    workspace_id: i % 500 === 0 ? 'rare' : `w${i % 20}`,
    details: '{}',
    prev_hash: 'x',
    hash: 'x',
    request_id: id('pr', i),
  };
  return [
    {
      ...base,
      id: id('aud', 3 * i),
      seq: 3 * i + 1,
      actor: 'token:t',
      action: 'privacy_request.created',
      target_type: 'privacy_request',
      target_id: id('pr', i),
    },
    {
      ...base,
      id: id('aud', 3 * i + 1),
      seq: 3 * i + 2,
      actor: 'worker',
      action: 'privacy_request.completed',
      target_type: 'privacy_request',
      target_id: id('pr', i),
    },
    {
      ...base,
      id: id('aud', 3 * i + 2),
      seq: 3 * i + 3,
      actor: 'worker',
      action: 'data_task.created',
      target_type: 'data_task',
      target_id: id('task', i),
    },
  ];
}

for (const dialect of dialects()) {
  describe(`queue and audit list indexes (${dialect.name})`, () => {
    let seeded: SeededDatabase;
    let database: Database;

    before(async () => {
      seeded = await openSeededDatabase(dialect, async (db) => {
        for (let i = 0; i < COUNT; i += 500) {
          const batch = Array.from({ length: Math.min(500, COUNT - i) }, (_, k) => i + k);
          await db.insertInto('privacy_requests').values(batch.map(request)).execute();
          await db.insertInto('audit_events').values(batch.flatMap(auditRows)).execute();
        }
      });
      database = seeded.database;
    });
    after(() => seeded.close());

    const planOfRun = <T>(run: (db: Kysely<DB>) => Promise<T>) => planOf(database, run);
    const queue = (f: Partial<RequestListFilter>) =>
      planOfRun((db) => listRequests(db, { workspaceIds: null, now: NOW, limit: 51, ...f }));
    /** No read of a whole table: SQLite never SCANs a table except in an index's order, PostgreSQL never Seq Scans. */
    const assertNoTableScan = (plan: string, table: string) => {
      assert.doesNotMatch(plan, new RegExp(`SCAN ${table}(?! USING)|Seq Scan on ${table}`), plan);
    };

    it('sorts the cross-workspace queue by binding due date with one index walk per workspace', async () => {
      const { result, plan } = await queue({ workspaceIds: ['w1', 'w2', 'w3'], sort: 'due_at' });
      assert.equal(result.length, 51);
      const due = result.map((r) => r.extended_due_at ?? r.due_at);
      assert.deepEqual(due, due.toSorted());
      assert.ok(result.every((r) => ['w1', 'w2', 'w3'].includes(r.workspace_id)));
      assert.equal(plan.match(/privacy_requests_workspace_due_idx/g)?.length, 3, plan);
      assertNoTableScan(plan, 'privacy_requests');
    });

    it('walks the due-date index for every workspace at once (*), and for due_before', async () => {
      const all = await queue({ sort: 'due_at' });
      assert.match(all.plan, /privacy_requests_due_idx/, all.plan);
      assertNoTableScan(all.plan, 'privacy_requests');
      assert.doesNotMatch(all.plan, /TEMP B-TREE|Sort/, all.plan);
      const before = await queue({ workspaceIds: ['w4'], sort: 'due_at', dueBefore: iso(START_MS + 40 * 24 * 3600 * 1000) });
      assert.ok(before.result.length > 0);
      assert.match(before.plan, /privacy_requests_workspace_due_idx/, before.plan);
      assertNoTableScan(before.plan, 'privacy_requests');
    });

    it('finds a subject’s requests through a subject index, with or without workspace and provider', async () => {
      for (const f of [
        { subjectId: 'u42' },
        { subjectId: 'u42', subjectProvider: 'github' },
        { subjectId: 'u42', workspaceIds: ['w2', 'w3'] },
      ]) {
        const { result, plan } = await queue(f);
        assert.ok(result.length > 0 && result.every((r) => r.subject_id === 'u42'), JSON.stringify(f));
        assert.match(plan, /privacy_requests_subject_key_idx/, plan);
        assertNoTableScan(plan, 'privacy_requests');
      }
    });

    it('finds requests by e-mail address in any case through the e-mail index (PRODUCT §2.21)', async () => {
      for (const f of [
        { subjectId: ' PERSON13@example.ORG ', subjectProvider: 'email' },
        { subjectId: 'person13@example.org', subjectProvider: 'email', workspaceIds: ['w13', 'w3'] },
        { subjectId: 'Person13@Example.org', subjectProvider: 'email', workspaceIds: ['w13'] },
      ]) {
        const { result, plan } = await queue(f);
        // i ≡ 13 (mod 5000) and i ≡ 3 (mod 10): 13, 5013, 10013, 15013, all in w13.
        assert.deepEqual(
          result.map((r) => r.subject_id),
          Array(4).fill('Person13@Example.org'),
          JSON.stringify(f),
        );
        assert.match(plan, /privacy_requests_email_subject_idx/, plan);
        assertNoTableScan(plan, 'privacy_requests');
      }
      // Another provider stays exact: the same text as a github id finds nothing.
      const exact = await queue({ subjectId: 'person13@example.org', subjectProvider: 'github' });
      assert.deepEqual(exact.result, []);
    });

    it('reads a request’s timeline and a workspace’s entries through audit indexes', async () => {
      const timeline = await planOfRun((db) =>
        listAuditEvents(db, { workspaceIn: null, targetTypeIn: null, requestId: id('pr', 4242), limit: 51 }),
      );
      assert.deepEqual(
        timeline.result.map((e) => e.action),
        ['privacy_request.created', 'privacy_request.completed', 'data_task.created'],
      );
      assert.match(timeline.plan, /audit_events_request_idx/, timeline.plan);
      assertNoTableScan(timeline.plan, 'audit_events');
      const workspace = await planOfRun((db) =>
        listAuditEvents(db, { workspaceIn: null, targetTypeIn: null, workspaceId: 'rare', limit: 51 }),
      );
      assert.equal(workspace.result.length, 51); // of (3 × COUNT) / 500 = 120
      assert.ok(workspace.result.every((e) => e.workspace_id === 'rare'));
      assert.match(workspace.plan, /audit_events_workspace_idx/, workspace.plan);
      assertNoTableScan(workspace.plan, 'audit_events');
      const task = await planOfRun((db) =>
        listAuditEvents(db, {
          workspaceIn: ['w1'],
          targetTypeIn: ['data_task'],
          targetType: 'data_task',
          targetId: id('task', 21),
          limit: 51,
        }),
      );
      assert.equal(task.result.length, 1);
      assert.match(task.plan, /audit_events_target_idx/, task.plan);
    });
  });
}
