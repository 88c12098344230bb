/**
 * The requests report (PRODUCT §2.16) is computed by the database (grouped counts, durations
 * ranked by a window): here it is compared, figure by figure, with the definitions computed in
 * JavaScript over the same requests: 400 with random times to the millisecond (ties included),
 * statuses, regulations and extensions over three calendar years, on both databases. Also: a
 * range holding no request, and a workspace with none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../../src/lib/ids.js';
import { OPEN_STATUSES, REQUEST_TYPES } from '../../../src/modules/request-model/request-model.js';
import { mean, median, p90 } from '../../../src/modules/privacy-requests/request-report.fns.js';
import { dialects } from '../../helpers/databases.js';
import { type Fixture, fileRequest, openFixture } from '../../helpers/worker.js';

interface Seeded {
  request_type: string;
  status: string;
  regulation: string;
  received_at: string;
  updated_at: string;
  completed_at: string | null;
  due_at: string;
  extended_due_at: string | null;
}

const DAY = 86_400_000;
const STATUSES = ['completed', 'completed', 'completed', 'rejected', 'canceled', 'failed', ...OPEN_STATUSES];
const REGULATIONS = ['gdpr', 'ccpa', 'ccpa+gdpr'];

/** A seeded PRNG (mulberry32), so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function randomRequests(count: number, random: () => number): Seeded[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  const start = Date.parse('2024-06-01T00:00:00.000Z');
  return Array.from({ length: count }, () => {
    const received = start + Math.floor(random() * 900 * DAY);
    // Whole days for some (ties, and medians on .5 boundaries), to the millisecond for the rest.
    const took = random() < 0.3 ? Math.floor(random() * 40) * DAY : Math.floor(random() * 60 * DAY);
    const status = pick(STATUSES);
    const answered = new Date(received + took).toISOString();
    const due = received + 30 * DAY;
    return {
      request_type: pick(REQUEST_TYPES),
      status,
      regulation: pick(REGULATIONS),
      received_at: new Date(received).toISOString(),
      updated_at: answered,
      // A completed request keeps its completion time; a few older rows have none (updated_at counts).
      completed_at: status === 'completed' && random() < 0.9 ? answered : null,
      due_at: new Date(due).toISOString(),
      extended_due_at: random() < 0.2 ? new Date(due + 45 * DAY).toISOString() : null,
    };
  });
}

/** The report's figures by their definitions (PRODUCT §2.16), over rows already in the range. */
function expected(rows: readonly Seeded[]) {
  const days = (r: Seeded) => (Date.parse(r.completed_at ?? r.updated_at) - Date.parse(r.received_at)) / DAY;
  const by_type = REQUEST_TYPES.map((type) => {
    const mine = rows.filter((r) => r.request_type === type);
    const completed = mine.filter((r) => r.status === 'completed');
    return {
      request_type: type,
      received: mine.length,
      completed: completed.length,
      rejected: mine.filter((r) => r.status === 'rejected').length,
      canceled: mine.filter((r) => r.status === 'canceled').length,
      open: mine.filter((r) => (OPEN_STATUSES as readonly string[]).includes(r.status)).length,
      completed_late: completed.filter((r) => (r.completed_at ?? r.updated_at) > (r.extended_due_at ?? r.due_at)).length,
      median_days_to_complete: median(completed.map(days)),
      p90_days_to_complete: p90(completed.map(days)),
    };
  });
  const ccpa = rows.filter((r) => r.regulation.split('+').includes('ccpa'));
  const years = [...new Set(ccpa.map((r) => Number(r.received_at.slice(0, 4))))].sort();
  const ccpa_7102 = years.flatMap((year) =>
    REQUEST_TYPES.flatMap((type) => {
      const mine = ccpa.filter((r) => r.request_type === type && Number(r.received_at.slice(0, 4)) === year);
      if (mine.length === 0) return [];
      const answered = mine.filter((r) => r.status === 'completed' || r.status === 'rejected').map(days);
      return [
        {
          year,
          request_type: type,
          received: mine.length,
          complied_in_whole_or_in_part: mine.filter((r) => r.status === 'completed').length,
          denied: mine.filter((r) => r.status === 'rejected').length,
          median_days_to_substantive_response: median(answered),
          mean_days_to_substantive_response: mean(answered),
        },
      ];
    }),
  );
  return { by_type, ccpa_7102 };
}

for (const dialect of dialects()) {
  describe(`the requests report against its definitions (${dialect.name})`, () => {
    let f: Fixture;
    let reader: string;
    const seeded = randomRequests(400, prng(26));
    const report = async (query: string) => {
      const res = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/reports/requests?${query}`,
        headers: { authorization: reader },
      });
      assert.equal(res.statusCode, 200, res.body);
      const { by_type, ccpa_7102 } = res.json();
      return { by_type, ccpa_7102 };
    };

    before(async () => {
      f = await openFixture(dialect.create, { start: '2026-03-02T09:00:00.000Z', workspaces: ['acme', 'beta'] });
      reader = await f.t.bearer(['privacy:read'], ['acme', 'beta']);
      const db = f.t.services.database.db;
      const first = await fileRequest(f, { subject_id: 'report-template' });
      const row = await db.selectFrom('privacy_requests').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
      await db.deleteFrom('privacy_requests').execute();
      const { due_soon_notified_at: _s, overdue_notified_at: _o, ...base } = row;
      const rows = seeded.map((s, i) => ({ ...base, ...s, id: newId('pr'), client_request_id: `r-${i}`, subject_id: `r-${i}` }));
      for (let i = 0; i < rows.length; i += 100)
        await db
          .insertInto('privacy_requests')
          .values(rows.slice(i, i + 100))
          .execute();
    });
    after(() => f.close());

    it('gives every figure its definition gives, all time and over a range cut to the millisecond', async () => {
      assert.deepEqual(await report('workspace_id=acme'), expected(seeded));
      // `from` inclusive, `to` exclusive (a time as `to` includes that instant: the service adds 1 ms).
      const [from, to] = [seeded[17]!.received_at, seeded[42]!.received_at].sort() as [string, string];
      const inRange = seeded.filter((r) => r.received_at >= from && r.received_at <= to);
      assert.ok(inRange.length > 10 && inRange.length < seeded.length, 'the range cuts the set');
      assert.deepEqual(await report(`workspace_id=acme&from=${from}&to=${to}`), expected(inRange));
    });

    it('a range or a workspace holding no request: zeros and no medians', async () => {
      const none = expected([]);
      assert.equal(none.ccpa_7102.length, 0);
      assert.ok(none.by_type.every((t) => t.received === 0 && t.median_days_to_complete === null));
      assert.deepEqual(await report('workspace_id=acme&from=2020-01-01&to=2020-12-31'), none);
      assert.deepEqual(await report('workspace_id=beta'), none);
    });
  });
}
