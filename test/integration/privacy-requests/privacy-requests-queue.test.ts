/**
 * The queue (PRODUCT.md §2.3): `GET /api/v1/privacy/requests` across workspaces (`workspace_id`
 * repeated or left out), by subject, by binding due date (`due_before`, `sort=due_at`, with an
 * extension), with cursors bound to the query; 403 for a workspace the caller cannot read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { createBody, manualClock } from '../../helpers/requests.js';

interface Listed {
  id: string;
  workspace_id: string;
  subject_id: string;
  due_at: string;
  extended_due_at: string | null;
}

for (const dialect of dialects()) {
  describe(`privacy request queue (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let officer: string; // acme and beta
    let everyone: string; // *
    const time = manualClock('2026-01-05T09:00:00.000Z');
    /** Filed requests by name. */
    const ids: Record<string, string> = {};

    const list = (query: string, auth = officer) =>
      t.app.inject({ method: 'GET', url: `/api/v1/privacy/requests?${query}`, headers: { authorization: auth } });
    const listed = async (query: string, auth = officer): Promise<Listed[]> => {
      const res = await list(query, auth);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().items;
    };
    const names = (items: Listed[]) => items.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: time.clock });
      officer = await t.bearer(['privacy:write', 'privacy:read'], ['acme', 'beta']);
      everyone = await t.bearer(['privacy:write', 'privacy:read'], ['*']);
      // One filing a day: a1 (acme, subject 100), b1 (beta, 100), g1 (gamma, 100), a2 (acme, 200),
      // b2 (beta, okta 100); all due a month after filing (GDPR).
      const filings: [string, string, string, string][] = [
        ['a1', 'acme', '100', 'github'],
        ['b1', 'beta', '100', 'github'],
        ['g1', 'gamma', '100', 'github'],
        ['a2', 'acme', '200', 'github'],
        ['b2', 'beta', '100', 'okta'],
      ];
      for (const [i, [name, workspace, subject, provider]] of filings.entries()) {
        time.set(`2026-01-0${5 + i}T09:00:00.000Z`);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { authorization: everyone, 'idempotency-key': `queue-key-${name}` },
          payload: createBody({
            workspace_id: workspace,
            subject_id: subject,
            subject_provider: provider,
            client_request_id: `queue-${name}`,
          }),
        });
        assert.equal(res.statusCode, 202, res.body);
        ids[name] = res.json().id;
      }
      // a1 extended: its binding due date moves two months on, after every other one.
      const extended = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${ids.a1}/extend`,
        headers: { authorization: everyone },
        payload: { reason: 'complex request' },
      });
      assert.equal(extended.statusCode, 200, extended.body);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('lists every workspace the caller may read without workspace_id; * sees all', async () => {
      assert.deepEqual(names(await listed('')), ['b2', 'a2', 'b1', 'a1']);
      assert.deepEqual(names(await listed('', everyone)), ['b2', 'a2', 'g1', 'b1', 'a1']);
      const reader = await t.bearer(['privacy:read'], ['gamma']);
      assert.deepEqual(names(await listed('', reader)), ['g1']);
    });

    it('takes workspace_id repeated, and answers 403 when one of them is not the caller’s', async () => {
      assert.deepEqual(names(await listed('workspace_id=beta&workspace_id=acme')), ['b2', 'a2', 'b1', 'a1']);
      assert.deepEqual(names(await listed('workspace_id=beta')), ['b2', 'b1']);
      const forbidden = await list('workspace_id=acme&workspace_id=gamma');
      assert.equal(forbidden.statusCode, 403, forbidden.body);
    });

    it('finds a subject’s requests by exact id, with or without the provider', async () => {
      assert.deepEqual(names(await listed('subject_id=100', everyone)), ['b2', 'g1', 'b1', 'a1']);
      assert.deepEqual(names(await listed('subject_id=100&subject_provider=github', everyone)), ['g1', 'b1', 'a1']);
      assert.deepEqual(names(await listed('subject_id=100&subject_provider=okta')), ['b2']);
      assert.deepEqual(names(await listed('subject_id=10', everyone)), []);
      assert.deepEqual(names(await listed('subject_provider=okta', everyone)), ['b2']);
    });

    it('sorts by binding due date (extended_due_at ?? due_at) and filters due_before', async () => {
      const byDue = await listed('sort=due_at', everyone);
      assert.deepEqual(names(byDue), ['b1', 'g1', 'a2', 'b2', 'a1']);
      const due = byDue.map((r) => r.extended_due_at ?? r.due_at);
      assert.deepEqual(due, due.toSorted());
      // b1 is due 2026-02-06T09:00Z, g1 the 7th, a2 the 8th: "before the 8th" holds b1 and g1.
      assert.deepEqual(names(await listed('sort=due_at&due_before=2026-02-08T09:00:00Z', everyone)), ['b1', 'g1']);
      assert.deepEqual(names(await listed('due_before=2026-02-08T09:00:00Z', everyone)), ['g1', 'b1']);
      // Another offset names the same instant.
      assert.deepEqual(names(await listed('due_before=2026-02-08T10:00:00.000001%2B01:00', everyone)), ['g1', 'b1']);
      // a1's own due_at is the 5th, but it was extended: not due before the 8th.
      assert.ok(!names(await listed('due_before=2026-03-01T00:00:00Z', everyone)).includes('a1'));
      assert.deepEqual(names(await listed('sort=due_at&workspace_id=acme&workspace_id=beta')), ['b1', 'a2', 'b2', 'a1']);
    });

    it('pages every order with cursors bound to the query', async () => {
      for (const query of ['', 'sort=due_at', 'workspace_id=acme&workspace_id=beta&sort=due_at', 'subject_id=100']) {
        const all = names(await listed(query, everyone));
        const seen: (string | undefined)[] = [];
        let cursor = '';
        for (let page = 0; page < 10; page++) {
          const res = await list(`${query}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, everyone);
          assert.equal(res.statusCode, 200, res.body);
          seen.push(...names(res.json().items));
          cursor = res.json().next_cursor ?? '';
          if (!cursor) break;
        }
        assert.deepEqual(seen, all, query);
      }
      const first = await list('sort=due_at&limit=1', everyone);
      const cursor = first.json().next_cursor as string;
      for (const other of ['limit=1', 'sort=due_at&limit=1&workspace_id=acme', 'sort=due_at&limit=1&status=queued']) {
        const res = await list(`${other}&cursor=${cursor}`, everyone);
        assert.equal(res.statusCode, 422, `${other}: ${res.body}`);
        assert.deepEqual(res.json().detail[0].loc, ['query', 'cursor']);
      }
    });

    it('refuses a due_before that is not an RFC 3339 date-time or not a real day with 422', async () => {
      const pattern = await list('due_before=2026-02-08');
      assert.equal(pattern.statusCode, 422);
      assert.deepEqual(pattern.json().detail[0].type, 'string_pattern_mismatch');
      const day = await list('due_before=2026-02-30T00:00:00Z');
      assert.equal(day.statusCode, 422);
      assert.deepEqual(day.json().detail, [
        {
          type: 'value_error',
          loc: ['query', 'due_before'],
          msg: 'Value error, not a real calendar day',
          input: '2026-02-30T00:00:00Z',
          ctx: { error: {} },
        },
      ]);
      const sort = await list('sort=due');
      assert.equal(sort.statusCode, 422);
      assert.deepEqual(sort.json().detail[0].loc, ['query', 'sort']);
    });
  });
}
