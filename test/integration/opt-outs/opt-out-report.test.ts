/**
 * The yearly report's §7102(a) rows for opt-outs (PRODUCT §2.18; 11 CCR §7102(a)(1)), on both
 * databases: "requests to opt out of sale/sharing" (`opt_out_sale_sharing`) and "requests to
 * limit" (`limit_sensitive_use`) per calendar year of receipt, exact on a known set: opt-outs
 * filed through the API and rows seeded with chosen times and statuses (failed and processing
 * count as received only; an opt-in, a direct-marketing objection and another workspace's
 * opt-out count nowhere; one received in 2025 makes its own row and leaves a 2026 range).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../../src/lib/ids.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { manualClock } from '../../helpers/requests.js';

/** Friday 4 December 2026, 15:30 UTC. */
const NOW = '2026-12-04T15:30:00.000Z';

interface Seed {
  workspace_id?: string;
  kind: string;
  choice?: string;
  status: string;
  received_at: string;
  completed_at: string | null;
}

/** Seeded rows: days to completion in the comments. */
const SEEDS: Seed[] = [
  // sale_sharing, 2026: 2, 5 and 10.5 days; one failed, one still processing.
  {
    kind: 'sale_sharing',
    status: 'completed',
    received_at: '2026-03-01T00:00:00.000Z',
    completed_at: '2026-03-03T00:00:00.000Z',
  },
  {
    kind: 'sale_sharing',
    status: 'completed',
    received_at: '2026-05-10T12:00:00.000Z',
    completed_at: '2026-05-15T12:00:00.000Z',
  },
  {
    kind: 'sale_sharing',
    status: 'completed',
    received_at: '2026-06-01T00:00:00.000Z',
    completed_at: '2026-06-11T12:00:00.000Z',
  },
  { kind: 'sale_sharing', status: 'failed', received_at: '2026-07-01T00:00:00.000Z', completed_at: '2026-07-20T00:00:00.000Z' },
  { kind: 'sale_sharing', status: 'processing', received_at: '2026-11-30T09:00:00.000Z', completed_at: null },
  // sale_sharing received on the last millisecond of 2025: its own row, outside a 2026 range.
  {
    kind: 'sale_sharing',
    status: 'completed',
    received_at: '2025-12-31T23:59:59.999Z',
    completed_at: '2026-01-02T23:59:59.999Z',
  },
  // sensitive_use, 2026: 1.25 and 4 days.
  {
    kind: 'sensitive_use',
    status: 'completed',
    received_at: '2026-02-01T00:00:00.000Z',
    completed_at: '2026-02-02T06:00:00.000Z',
  },
  {
    kind: 'sensitive_use',
    status: 'completed',
    received_at: '2026-08-01T00:00:00.000Z',
    completed_at: '2026-08-05T00:00:00.000Z',
  },
  // Counted nowhere: an opt-in, a GDPR objection, another workspace's.
  {
    kind: 'sensitive_use',
    choice: 'opt_in',
    status: 'completed',
    received_at: '2026-04-01T00:00:00.000Z',
    completed_at: '2026-04-02T00:00:00.000Z',
  },
  {
    kind: 'direct_marketing',
    status: 'completed',
    received_at: '2026-04-01T00:00:00.000Z',
    completed_at: '2026-04-09T00:00:00.000Z',
  },
  {
    workspace_id: 'beta',
    kind: 'sale_sharing',
    status: 'completed',
    received_at: '2026-04-01T00:00:00.000Z',
    completed_at: '2026-04-30T00:00:00.000Z',
  },
];

for (const dialect of dialects()) {
  describe(`the yearly report's opt-out rows (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let reader: string;
    const time = manualClock(NOW);

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: time.clock });
      const writer = await t.bearer(['privacy:write'], ['acme']);
      reader = await t.bearer(['privacy:read'], ['acme', 'beta']);
      const file = async (payload: Record<string, unknown>, key: string) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/opt-outs',
          headers: { authorization: writer, 'idempotency-key': key },
          payload: { workspace_id: 'acme', subject_provider: 'email', ...payload },
        });
        assert.equal(res.statusCode, 202, res.body);
        assert.equal(res.json().status, 'completed', 'no system takes the kind: completed when filed');
      };
      // Through the API: a form opt-out received 3 days before it was filed (completed at NOW),
      // and an operator's opt-in of the same kind (not a request to opt out).
      await file(
        {
          subject_id: 'report-api@example.test',
          kind: 'sale_sharing',
          choice: 'opt_out',
          source: 'form',
          client_request_id: 'report-api-1',
          received_at: '2026-12-01T15:30:00.000Z',
        },
        'rep-key-1',
      );
      await file(
        {
          subject_id: 'report-api-in@example.test',
          kind: 'sale_sharing',
          choice: 'opt_in',
          source: 'api',
          client_request_id: 'report-api-2',
          received_at: '2026-12-02T15:30:00.000Z',
        },
        'rep-key-2',
      );
      await t.services.database.db
        .insertInto('opt_outs')
        .values(
          SEEDS.map((s, i) => ({
            id: newId('oo'),
            workspace_id: s.workspace_id ?? 'acme',
            subject_provider: 'email',
            subject_id: `seed-${i}@example.test`,
            kind: s.kind,
            choice: s.choice ?? 'opt_out',
            source: 'form',
            client_request_id: `seed-${i}`,
            status: s.status,
            received_at: s.received_at,
            created_at: s.received_at,
            due_at: s.received_at,
            completed_at: s.completed_at,
            filed_by: 'token:tok_seed',
          })),
        )
        .execute();
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    const report = async (query: string) => {
      const res = await t.app.inject({ url: `/api/v1/reports/requests?${query}`, headers: { authorization: reader } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };

    const row2025 = {
      year: 2025,
      request_type: 'opt_out_sale_sharing',
      received: 1,
      complied_in_whole_or_in_part: 1,
      denied: 0,
      median_days_to_substantive_response: 2,
      mean_days_to_substantive_response: 2,
    };
    const rows2026 = [
      {
        // 2, 3 (the API's), 5, 10.5 days; the failed and the processing one received only.
        year: 2026,
        request_type: 'opt_out_sale_sharing',
        received: 6,
        complied_in_whole_or_in_part: 4,
        denied: 0,
        median_days_to_substantive_response: 4,
        mean_days_to_substantive_response: 5.1,
      },
      {
        // 1.25 and 4 days: median and mean 2.625, one decimal.
        year: 2026,
        request_type: 'limit_sensitive_use',
        received: 2,
        complied_in_whole_or_in_part: 2,
        denied: 0,
        median_days_to_substantive_response: 2.6,
        mean_days_to_substantive_response: 2.6,
      },
    ];

    it('gives the two rows per year, exact, after the request types (none here), and only for the named workspace', async () => {
      const all = await report('workspace_id=acme');
      assert.deepEqual(all.ccpa_7102, [row2025, ...rows2026]);
      assert.ok(
        all.by_type.every((r: { received: number }) => r.received === 0),
        'opt-outs are not privacy requests: the per-type figures hold none',
      );
      const year = await report('workspace_id=acme&from=2026-01-01&to=2026-12-31');
      assert.deepEqual(year.ccpa_7102, rows2026);
      const beta = await report('workspace_id=beta');
      assert.deepEqual(beta.ccpa_7102, [
        {
          year: 2026,
          request_type: 'opt_out_sale_sharing',
          received: 1,
          complied_in_whole_or_in_part: 1,
          denied: 0,
          median_days_to_substantive_response: 29,
          mean_days_to_substantive_response: 29,
        },
      ]);
      assert.deepEqual((await report('workspace_id=acme&from=2020-01-01&to=2020-12-31')).ccpa_7102, []);
    });

    it('the CSV has the same rows in its ccpa_7102 section', async () => {
      const res = await t.app.inject({
        url: '/api/v1/reports/requests?workspace_id=acme&from=2026-01-01&to=2026-12-31&format=csv',
        headers: { authorization: reader },
      });
      assert.equal(res.statusCode, 200, res.body);
      const lines = res.body.split('\r\n').filter((l) => l.startsWith('ccpa_7102,'));
      assert.deepEqual(lines, [
        'ccpa_7102,2026,opt_out_sale_sharing,6,,,,,,,,4,0,4,5.1',
        'ccpa_7102,2026,limit_sensitive_use,2,,,,,,,,2,0,2.6,2.6',
      ]);
    });
  });
}
