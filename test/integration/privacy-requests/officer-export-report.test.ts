/**
 * The officer's day (PRODUCT §2.16): the list as streamed CSV (same filters, no subject identity,
 * RFC 4180 quoting, formula guard, every page) and the requests report (JSON and CSV, exact on a
 * seeded set, `from` after `to` a 422). On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../../src/lib/ids.js';
import { dialects } from '../../helpers/databases.js';
import { type Fixture, fileRequest, openFixture } from '../../helpers/worker.js';

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  assert.equal(cell + row.join(''), '', 'the CSV ends with CRLF');
  return rows;
}

for (const dialect of dialects()) {
  describe(`the officer's day: CSV export and report (${dialect.name})`, () => {
    let f: Fixture;
    let reader: string;
    const db = () => f.t.services.database.db;
    const get = (url: string, headers: Record<string, string> = {}) =>
      f.t.app.inject({ method: 'GET', url, headers: { authorization: reader, ...headers } });

    before(async () => {
      f = await openFixture(dialect.create, { start: '2026-03-02T09:00:00.000Z', workspaces: ['acme', 'beta'] });
      reader = await f.t.bearer(['privacy:read'], ['acme']);
    });
    after(() => f.close());

    it('exports the filtered list as CSV, every page, quoted and guarded, without the subject', async () => {
      const first = await fileRequest(f, { subject_id: 'csv-subject-1' });
      await fileRequest(f, { subject_id: 'csv-beta', workspace_id: 'beta' });
      await db()
        .updateTable('privacy_requests')
        .set({ assignee: '=HYPERLINK("http://x"),a' })
        .where('id', '=', first.id)
        .execute();
      // 1 200 more acme requests (three pages of the export), one of them completed.
      const row = await db().selectFrom('privacy_requests').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
      const { due_soon_notified_at: _s, overdue_notified_at: _o, assignee: _a, ...base } = row;
      const copies = Array.from({ length: 1200 }, (_, i) => ({
        ...base,
        id: newId('pr'),
        client_request_id: `csv-copy-${i}`,
        subject_id: `csv-copy-subject-${i}`,
        status: i === 7 ? 'completed' : 'queued',
      }));
      for (let i = 0; i < copies.length; i += 200)
        await db()
          .insertInto('privacy_requests')
          .values(copies.slice(i, i + 200))
          .execute();

      const res = await get('/api/v1/privacy/requests?status=open', { accept: 'text/csv' });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^text\/csv/);
      assert.ok(res.body.startsWith('\uFEFFid,'), 'a UTF-8 BOM first (PRODUCT §2.21)');
      const rows = parseCsv(res.body.slice(1));
      assert.deepEqual(rows[0], [
        'id',
        'request_type',
        'workspace_id',
        'status',
        'regulation',
        'received_at',
        'due_at',
        'extended_due_at',
        'completed_at',
        'assignee',
        'status_reason',
        'days_left',
        'agent',
      ]);
      assert.equal(rows.length, 1 + 1200, 'every open acme request, none of beta');
      assert.equal(new Set(rows.slice(1).map((r) => r[0])).size, 1200, 'each once');
      assert.ok(rows.slice(1).every((r) => r.length === 13 && r[2] === 'acme' && r[3] === 'queued'));
      const mine = rows.find((r) => r[0] === first.id);
      assert.equal(mine?.[9], `'=HYPERLINK("http://x"),a`);
      assert.ok(res.body.includes(`"'=HYPERLINK(""http://x""),a"`), 'quoted as RFC 4180 says');
      assert.ok(!res.body.includes('csv-subject') && !res.body.includes('csv-copy-subject'), 'no subject identity');

      const byFormat = await get('/api/v1/privacy/requests?format=csv&status=completed');
      assert.equal(byFormat.statusCode, 200);
      assert.equal(parseCsv(byFormat.body.slice(1)).length, 2);
      // JSON stays the default.
      assert.equal((await get('/api/v1/privacy/requests?limit=1')).json().items.length, 1);
      await db().deleteFrom('privacy_requests').execute();
    });

    it('reports per type and per CCPA year, exactly, over the range; JSON and CSV', async () => {
      const seed: [string, string, string, string, string | null, string, string | null, string, string][] = [
        // type, status, received, updated, completed, due, extended, regulation, workspace
        ['access', 'completed', '2025-03-01', '2025-03-11', '2025-03-11', '2025-04-01', null, 'ccpa', 'acme'],
        ['access', 'completed', '2025-05-01', '2025-06-20', '2025-06-20', '2025-06-01', null, 'gdpr', 'acme'],
        ['access', 'completed', '2026-01-01', '2026-01-05', '2026-01-05', '2026-02-01', null, 'ccpa+gdpr', 'acme'],
        ['access', 'rejected', '2025-07-01', '2025-07-03', null, '2025-08-01', null, 'ccpa', 'acme'],
        ['deletion', 'canceled', '2025-08-01', '2025-08-02', null, '2025-09-01', null, 'gdpr', 'acme'],
        ['deletion', 'queued', '2025-09-01', '2025-09-01', null, '2025-10-01', null, 'ccpa', 'acme'],
        ['deletion', 'completed', '2025-10-01', '2025-10-21', '2025-10-21', '2025-10-15', '2025-11-30', 'ccpa', 'acme'],
        ['export', 'completed', '2024-12-31', '2025-01-02', '2025-01-02', '2025-01-30', null, 'ccpa', 'acme'],
        ['access', 'completed', '2025-03-01', '2025-03-02', '2025-03-02', '2025-04-01', null, 'ccpa', 'beta'],
      ];
      const t = (day: string | null) => (day === null ? null : `${day}T00:00:00.000Z`);
      for (const [i, [type, status, received, updated, completed, due, extended, regulation, workspace]] of seed.entries()) {
        const filed = await fileRequest(f, { request_type: type, workspace_id: workspace, subject_id: `report-${i}` });
        await db()
          .updateTable('privacy_requests')
          .set({
            status,
            received_at: t(received)!,
            updated_at: t(updated)!,
            completed_at: t(completed),
            due_at: t(due)!,
            extended_due_at: t(extended),
            regulation,
          })
          .where('id', '=', filed.id)
          .execute();
      }
      const res = await get('/api/v1/reports/requests?workspace_id=acme&from=2025-01-01&to=2026-12-31');
      assert.equal(res.statusCode, 200, res.body);
      const report = res.json();
      assert.equal(report.from, '2025-01-01T00:00:00.000Z');
      assert.equal(report.to, '2027-01-01T00:00:00.000Z');
      const none = { median_days_to_complete: null, p90_days_to_complete: null };
      assert.deepEqual(report.by_type, [
        {
          request_type: 'access',
          received: 4,
          completed: 3,
          rejected: 1,
          canceled: 0,
          open: 0,
          completed_late: 1,
          median_days_to_complete: 10,
          p90_days_to_complete: 50,
        },
        { request_type: 'export', received: 0, completed: 0, rejected: 0, canceled: 0, open: 0, completed_late: 0, ...none },
        { request_type: 'correction', received: 0, completed: 0, rejected: 0, canceled: 0, open: 0, completed_late: 0, ...none },
        {
          request_type: 'deletion',
          received: 3,
          completed: 1,
          rejected: 0,
          canceled: 1,
          open: 1,
          completed_late: 0,
          median_days_to_complete: 20,
          p90_days_to_complete: 20,
        },
      ]);
      assert.deepEqual(report.ccpa_7102, [
        {
          year: 2025,
          request_type: 'access',
          received: 2,
          complied_in_whole_or_in_part: 1,
          denied: 1,
          median_days_to_substantive_response: 6,
          mean_days_to_substantive_response: 6,
        },
        {
          year: 2025,
          request_type: 'deletion',
          received: 2,
          complied_in_whole_or_in_part: 1,
          denied: 0,
          median_days_to_substantive_response: 20,
          mean_days_to_substantive_response: 20,
        },
        {
          year: 2026,
          request_type: 'access',
          received: 1,
          complied_in_whole_or_in_part: 1,
          denied: 0,
          median_days_to_substantive_response: 4,
          mean_days_to_substantive_response: 4,
        },
      ]);

      // A time as `to` includes that instant; 2025 only leaves 2026's request out.
      const y2025 = (await get('/api/v1/reports/requests?from=2025-01-01T00:00:00Z&to=2025-12-31')).json();
      assert.equal(y2025.by_type[0].received, 3);
      assert.equal(y2025.ccpa_7102.length, 2);

      const csv = await get('/api/v1/reports/requests?from=2025-01-01&to=2026-12-31&format=csv');
      assert.equal(csv.statusCode, 200);
      const rows = parseCsv(csv.body);
      assert.equal(rows[0]?.[0], 'section');
      assert.equal(rows.length, 1 + 4 + 3);
      assert.deepEqual(rows[1]?.slice(0, 11), ['by_type', '', 'access', '4', '3', '1', '0', '0', '1', '10', '50']);
      assert.deepEqual(rows[5]?.slice(0, 3), ['ccpa_7102', '2025', 'access']);
      assert.equal(
        (await get('/api/v1/reports/requests?from=2025-01-01', { accept: 'text/csv' })).headers['content-type'],
        'text/csv; charset=utf-8',
      );
    });

    it('refuses from after to, a day not on the calendar, and a workspace outside the token', async () => {
      const after = await get('/api/v1/reports/requests?from=2025-02-01&to=2025-01-31');
      assert.equal(after.statusCode, 422);
      assert.deepEqual(after.json().detail, [
        {
          type: 'value_error',
          loc: ['query', 'from'],
          msg: 'Value error, from is after to',
          input: '2025-02-01',
          ctx: { error: {} },
        },
      ]);
      assert.equal((await get('/api/v1/reports/requests?from=2025-01-01&to=2025-01-01')).statusCode, 200, 'one day');
      assert.equal((await get('/api/v1/reports/requests?to=2025-02-30')).statusCode, 422);
      assert.equal((await get('/api/v1/reports/requests?from=2025-13-01')).statusCode, 422);
      assert.equal((await get('/api/v1/reports/requests?workspace_id=beta')).statusCode, 403);
    });
  });
}
