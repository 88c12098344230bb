/**
 * Migration 2026-11-24T0401-leaner-filing-indexes: fewer indexes written per filing, the same
 * reads. The lease index holds only leased requests and still serves the claim of an expired
 * lease; the audit target index leaves out entries about privacy requests, which are still
 * listed by target type; one subject index serves both subject searches (plans in
 * audit-queue-indexes.test.ts and growth-indexes.test.ts). Statements checked are the ones the
 * repositories run, on tables with statistics.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../../src/db/database.js';
import { claimNext } from '../../../src/modules/privacy-requests/lifecycle/request-state.repository.js';
import { listAuditEvents } from '../../../src/modules/audit/audit-read.repository.js';
import { dialects } from '../../helpers/databases.js';
import { openSeededDatabase, requestRow, type SeededDatabase } from '../../helpers/seeded-database.js';
import { planOf } from '../../helpers/query-plan.js';

const COUNT = 20_000;
const NOW = '2026-06-01T00:00:00.000Z';
const LATER = '2026-06-02T00:00:00.000Z';
const EARLIER = '2026-05-31T00:00:00.000Z';
const id = (prefix: string, i: number) => `${prefix}_${String(i).padStart(8, '0')}`;

/**
 * Mostly completed requests; every 50th waits for its data tasks (`processing`, no lease); the
 * newest 200 are queued with a retry pending; two hold leases, the older of them expired.
 */
function request(i: number) {
  const leased = i === COUNT - 300 ? EARLIER : i === COUNT - 301 ? LATER : null;
  const status = leased !== null || i % 50 === 0 ? 'processing' : i >= COUNT - 200 ? 'queued' : 'completed';
  return requestRow(i, {
    workspace_id: `w${i % 20}`,
    status,
    attempts: 1,
    lease_owner: leased === null ? null : 'w-1',
    lease_expires_at: leased,
    next_attempt_at: status === 'queued' ? LATER : null,
  });
}

/** One entry per request, and every 100th request an entry about a webhook endpoint. */
function auditRows(i: number) {
  const base = { occurred_at: NOW, actor: 'token:t', workspace_id: 'w1', details: '{}', prev_hash: 'x', hash: 'x' };
  const rows = [
    {
      ...base,
      id: id('aud', 2 * i),
      seq: 2 * i + 1,
      action: 'privacy_request.created',
      target_type: 'privacy_request',
      target_id: id('pr', i),
      request_id: id('pr', i),
    },
  ];
  if (i % 100 === 0)
    rows.push({
      ...base,
      id: id('aud', 2 * i + 1),
      seq: 2 * i + 2,
      action: 'webhook_endpoint.updated',
      target_type: 'webhook_endpoint',
      target_id: 'ep_1',
      request_id: null as unknown as string,
    });
  return rows;
}

for (const dialect of dialects()) {
  describe(`indexes a filing writes fewer of (${dialect.name})`, () => {
    let seeded: SeededDatabase;
    let database: Database;

    before(async () => {
      seeded = await openSeededDatabase(dialect, async (db) => {
        for (let i = 0; i < COUNT; i += 500) {
          const batch = Array.from({ length: 500 }, (_, k) => i + k);
          await db.insertInto('privacy_requests').values(batch.map(request)).execute();
          await db.insertInto('audit_events').values(batch.flatMap(auditRows)).execute();
        }
      });
      database = seeded.database;
    });
    after(() => seeded.close());

    it('keeps the lease and audit target indexes partial', async () => {
      const definitions =
        dialect.name === 'sqlite'
          ? await sql<{
              name: string;
              definition: string;
            }>`select name, sql as definition from sqlite_master where type = 'index'`.execute(database.db)
          : await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition
              from pg_indexes where schemaname = current_schema()`.execute(database.db);
      const byName = new Map(definitions.rows.map((r) => [r.name, r.definition]));
      assert.match(byName.get('privacy_requests_lease_idx') ?? '', /where .*lease_expires_at.* is not null/i);
      assert.match(byName.get('audit_events_target_idx') ?? '', /where .*target_type.* <> 'privacy_request'/i);
      assert.ok(byName.has('privacy_requests_subject_key_idx'));
      assert.ok(!byName.has('privacy_requests_subject_idx') && !byName.has('privacy_requests_subject_id_idx'));
    });

    it('claims the expired lease through the lease index, past the requests waiting without one', async () => {
      const { result, plan } = await planOf(database, (db) => claimNext(db, 'w-2', NOW, LATER));
      assert.equal(result?.id, id('pr', COUNT - 300));
      assert.equal(result?.lease_owner, 'w-2');
      assert.match(plan, /privacy_requests_lease_idx/, plan);
      const again = await claimNext(database.db, 'w-3', NOW, LATER);
      assert.equal(again, undefined, 'the other lease is not expired and every queued request waits for its retry');
    });

    it('lists entries by target type, privacy requests (outside the target index) and others (through it)', async () => {
      const requests = await listAuditEvents(database.db, {
        workspaceIn: null,
        targetTypeIn: null,
        targetType: 'privacy_request',
        limit: 3,
      });
      assert.deepEqual(
        requests.map((e) => e.target_id),
        [id('pr', 0), id('pr', 1), id('pr', 2)],
      );
      const { result, plan } = await planOf(database, (db) =>
        listAuditEvents(db, {
          workspaceIn: null,
          targetTypeIn: null,
          targetType: 'webhook_endpoint',
          targetId: 'ep_1',
          limit: 500,
        }),
      );
      assert.equal(result.length, COUNT / 100);
      assert.ok(result.every((e) => e.action === 'webhook_endpoint.updated'));
      assert.match(plan, /audit_events_target_idx/, plan);
    });
  });
}
