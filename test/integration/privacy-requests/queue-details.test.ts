/**
 * The queue's details for the console (PRODUCT §2.21), over HTTP on SQLite and PostgreSQL:
 * `due_within_days` lists exactly what the `due_within_7_days` count counts (open, not overdue,
 * binding due date within the days); `subject_provider=email` finds an address in any case and
 * with spaces around it, other providers stay exact; the CSV starts with a UTF-8 BOM and appends
 * `status_reason` and `days_left` (whole days to the binding due date, negative once overdue,
 * empty when final) to §2.16's columns.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects } from '../../helpers/databases.js';
import { type Fixture, fileRequest, openFixture } from '../../helpers/worker.js';

/** The CSV's rows (no quoted commas or line breaks in these cells), after its BOM. */
function csvRows(body: string): string[][] {
  assert.ok(body.startsWith('\uFEFF'), 'a UTF-8 BOM first');
  return body
    .slice(1)
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(','));
}

for (const dialect of dialects()) {
  describe(`queue details: due within, e-mail search, CSV columns (${dialect.name})`, () => {
    let f: Fixture;
    let reader: string;
    /** Filed 2026-03-02 09:00 (GDPR): due 2026-04-02 09:00, 4 days from "now" (2026-03-29 09:00). */
    let soonId: string;
    /** Received 2026-02-01: due 2026-03-01, 28 days 9 hours overdue. */
    let overdueId: string;
    /** Filed now: due in a month. */
    let laterId: string;
    /** By e-mail, as the person typed it. */
    let emailId: string;
    let rejectedId: string;
    const get = (url: string, headers: Record<string, string> = {}) =>
      f.t.app.inject({ url, headers: { authorization: reader, ...headers } });
    const ids = async (query: string) => {
      const res = await get(`/api/v1/privacy/requests?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().items as { id: string }[]).map((r) => r.id).sort();
    };

    before(async () => {
      f = await openFixture(dialect.create, { start: '2026-03-02T09:00:00.000Z' });
      reader = await f.t.bearer(['privacy:read'], ['acme']);
      soonId = (await fileRequest(f, { subject_id: 'soon-1' })).id;
      f.time.set('2026-03-29T09:00:00.000Z');
      overdueId = (await fileRequest(f, { subject_id: 'late-1', received_at: '2026-02-01T00:00:00.000Z' })).id;
      laterId = (await fileRequest(f, { subject_id: 'later-1' })).id;
      emailId = (await fileRequest(f, { subject_provider: 'email', subject_id: 'Maria.Lopez@Example.org' })).id;
      rejectedId = (await fileRequest(f, { subject_id: 'rejected-1' })).id;
      const rejected = await f.t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${rejectedId}/reject`,
        headers: { authorization: f.auth },
        payload: { reason: 'manifestly unfounded' },
      });
      assert.equal(rejected.statusCode, 200, rejected.body);
    });
    after(() => f.close());

    it('lists with due_within_days exactly what the due-within-7-days count counts, never an overdue one', async () => {
      const stats = (await get('/api/v1/privacy/requests/stats')).json();
      assert.equal(stats.due_within_7_days, 1);
      assert.equal(stats.overdue, 1);
      assert.deepEqual(await ids('status=open&due_within_days=7'), [soonId]);
      assert.deepEqual(await ids('status=open&due_within_days=3'), [], 'due in 4 days is not within 3');
      assert.deepEqual(await ids('status=open&due_within_days=31'), [emailId, laterId, soonId].sort());
      assert.deepEqual(await ids('overdue=true'), [overdueId]);
      assert.equal((await ids('status=open&assignee=none')).length, stats.unassigned_open);
      const bad = await get('/api/v1/privacy/requests?due_within_days=-1');
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(bad.json().detail[0].loc, ['query', 'due_within_days']);
    });

    it('finds a request by e-mail address in any case and trimmed; other providers stay exact', async () => {
      assert.deepEqual(await ids('subject_provider=email&subject_id=%20maria.lopez%40EXAMPLE.ORG%20'), [emailId]);
      assert.deepEqual(await ids('subject_provider=email&subject_id=Maria.Lopez%40Example.org'), [emailId]);
      assert.deepEqual(await ids('subject_provider=email&subject_id=maria.lopez%40example.net'), []);
      assert.deepEqual(await ids('subject_provider=github&subject_id=SOON-1'), [], 'a github id is matched exactly');
      assert.deepEqual(await ids('subject_provider=github&subject_id=soon-1'), [soonId]);
    });

    it('exports status_reason and days_left after the columns of §2.16, with a UTF-8 BOM', async () => {
      const res = await get('/api/v1/privacy/requests?format=csv');
      assert.equal(res.statusCode, 200, res.body);
      const [header, ...rows] = csvRows(res.body);
      assert.deepEqual(header?.slice(-4), ['assignee', 'status_reason', 'days_left', 'agent']);
      const byId = new Map(rows.map((r) => [r[0], r]));
      const cell = (id: string, column: string) => byId.get(id)?.[header!.indexOf(column)];
      assert.equal(cell(soonId, 'days_left'), '4');
      assert.equal(cell(overdueId, 'days_left'), '-29', '28 days and 9 hours overdue');
      assert.equal(cell(laterId, 'days_left'), '31');
      assert.equal(cell(rejectedId, 'days_left'), '', 'final: no days left');
      const stored = (await get(`/api/v1/privacy/requests/${rejectedId}`)).json();
      assert.equal(cell(rejectedId, 'status'), 'rejected');
      assert.equal(cell(rejectedId, 'status_reason'), stored.status_reason ?? '');
      assert.equal(cell(soonId, 'status_reason'), '');
      assert.ok(!res.body.includes('Maria.Lopez'), 'no subject identity');
    });
  });
}
