/**
 * The officer's day (PRODUCT §2.16), API part: `status` repeated and `open`, `assignee=me|name|none`,
 * the queue's counts (`/stats`, exact, 403 outside the token), assignment, notes (hash in the
 * audit entry, erased with the subject, the chain still verifies) and bulk actions (each id on
 * its own, audited, separation of duties per id). Bad input is a Pydantic 422 with nothing
 * written. On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { noteHash } from '../../../src/modules/request-notes/request-notes.fns.js';
import { dialects } from '../../helpers/databases.js';
import { type Fixture, fileRequest, openFixture, silentLog } from '../../helpers/worker.js';

const DAY = 86_400_000;

for (const dialect of dialects()) {
  describe(`the officer's day: queue, assignment, notes, bulk (${dialect.name})`, () => {
    let f: Fixture;
    /** Tokens by name: alice files, bob and carol act; reader only reads; beta is another workspace. */
    const tokens: Record<string, string> = {};
    const db = () => f.t.services.database.db;
    const call = (method: 'GET' | 'POST', url: string, auth: string, payload?: Record<string, unknown>) =>
      f.t.app.inject({ method, url, headers: { authorization: auth }, ...(payload === undefined ? {} : { payload }) });
    const token = async (name: string, scopes: string[], workspaces: string[]) => {
      const { token: secret } = await f.t.services.tokens.create({ name, scopes, workspaces, actor: 'test' });
      tokens[name] = `Bearer ${secret}`;
    };
    const list = async (query: string, auth = tokens.bob!) => {
      const res = await call('GET', `/api/v1/privacy/requests?workspace_id=acme&${query}`, auth);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().items as { id: string; status: string; assignee: string | null }[]).map((r) => r.id).sort();
    };
    const setStatus = (id: string, status: string) =>
      db().updateTable('privacy_requests').set({ status }).where('id', '=', id).execute();
    const auditCount = async () =>
      Number(
        (
          await db()
            .selectFrom('audit_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    before(async () => {
      f = await openFixture(dialect.create, { start: '2026-03-02T09:00:00.000Z', workspaces: ['acme'] });
      await token('alice', ['privacy:write', 'privacy:read'], ['acme', 'beta']);
      await token('bob', ['privacy:write', 'privacy:read'], ['acme', 'beta']);
      await token('carol', ['privacy:write', 'privacy:read'], ['acme']);
      await token('reader', ['privacy:read'], ['acme']);
      await token('beta-only', ['privacy:write', 'privacy:read'], ['beta']);
      f.auth = tokens.alice!;
    });
    after(() => f.close());

    it('says who the caller is (whoami), for the console to show only what it may do', async () => {
      const res = await call('GET', '/api/v1/whoami', tokens.reader!);
      assert.equal(res.statusCode, 200, res.body);
      const me = res.json();
      assert.equal(me.name, 'reader');
      assert.match(me.id, /^token:tok_/);
      assert.deepEqual(me.scopes, ['privacy:read']);
      assert.deepEqual(me.workspaces, ['acme']);
      assert.equal((await f.t.app.inject({ method: 'GET', url: '/api/v1/whoami' })).statusCode, 401);
    });

    it('lists by repeated status and `open`, and by assignee me, a name or none', async () => {
      const a = await fileRequest(f, { subject_id: 'q1' });
      const b = await fileRequest(f, { subject_id: 'q2' });
      const c = await fileRequest(f, { subject_id: 'q3' });
      await setStatus(b.id, 'action_required');
      await setStatus(c.id, 'completed');
      assert.deepEqual(await list('status=open&subject_id=q1'), [a.id]);
      const open = await list('status=open');
      assert.ok(open.includes(a.id) && open.includes(b.id) && !open.includes(c.id));
      const two = await list('status=completed&status=action_required');
      assert.ok(two.includes(b.id) && two.includes(c.id) && !two.includes(a.id));

      const assigned = await call('POST', `/api/v1/privacy/requests/${a.id}/assign`, tokens.bob!, {
        assignee: 'bob',
        reason: 'mine',
      });
      assert.equal(assigned.statusCode, 200, assigned.body);
      assert.equal(assigned.json().assignee, 'bob');
      assert.deepEqual(await list('assignee=me', tokens.bob!), [a.id]);
      assert.deepEqual(await list('assignee=me', tokens.carol!), []);
      assert.deepEqual(await list('assignee=bob', tokens.carol!), [a.id]);
      const none = await list('assignee=none&status=open');
      assert.ok(none.includes(b.id) && !none.includes(a.id));

      // The entry names from, to and why; not a status change.
      const entry = await db()
        .selectFrom('audit_events')
        .select(['action', 'actor_name', 'details'])
        .where('request_id', '=', a.id)
        .where('action', '=', 'privacy_request.assigned')
        .executeTakeFirstOrThrow();
      assert.equal(entry.actor_name, 'bob');
      assert.deepEqual(JSON.parse(entry.details), { from: null, to: 'bob', reason: 'mine' });
      const row = await db()
        .selectFrom('privacy_requests')
        .select(['status', 'assignee'])
        .where('id', '=', a.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'queued', assignee: 'bob' });

      // Unassign; a final request takes no assignment (409); another workspace's is a 404.
      const unassigned = await call('POST', `/api/v1/privacy/requests/${a.id}/assign`, tokens.bob!, { assignee: null });
      assert.equal(unassigned.json().assignee, null);
      assert.equal(
        (await call('POST', `/api/v1/privacy/requests/${c.id}/assign`, tokens.bob!, { assignee: 'bob' })).statusCode,
        409,
      );
      assert.equal(
        (await call('POST', `/api/v1/privacy/requests/${a.id}/assign`, tokens['beta-only']!, { assignee: 'x' })).statusCode,
        404,
      );
      assert.equal(
        (await call('POST', `/api/v1/privacy/requests/${a.id}/assign`, tokens.reader!, { assignee: 'x' })).statusCode,
        403,
      );
    });

    it('refuses an unknown status or an empty assignee with a Pydantic 422', async () => {
      const res = await call('GET', '/api/v1/privacy/requests?status=open&status=archived', tokens.bob!);
      assert.equal(res.statusCode, 422);
      assert.deepEqual(
        res.json().detail.map((d: { type: string; loc: unknown[] }) => [d.type, d.loc]),
        [['literal_error', ['query', 'status', 1]]],
      );
      const empty = await call('GET', '/api/v1/privacy/requests?assignee=', tokens.bob!);
      assert.equal(empty.statusCode, 422);
      assert.deepEqual(empty.json().detail[0].loc, ['query', 'assignee']);
    });

    it("counts the queue exactly over the caller's workspaces; a workspace outside the token is a 403", async () => {
      await db().deleteFrom('privacy_requests').execute();
      const now = f.time.clock().getTime();
      const iso = (ms: number) => new Date(ms).toISOString();
      // acme: overdue queued, due in 3 days pending_approval, due in 20 days action_required (assigned),
      // due in 7 days minus a minute processing, one completed (not counted); beta: one overdue.
      const rows: [string, string, string, number, string | null][] = [
        ['acme', 'o1', 'queued', -2 * DAY, null],
        ['acme', 'o2', 'pending_approval', 3 * DAY, null],
        ['acme', 'o3', 'action_required', 20 * DAY, 'bob'],
        ['acme', 'o4', 'processing', 7 * DAY - 60_000, null],
        ['acme', 'o5', 'completed', -5 * DAY, null],
        ['beta', 'o6', 'queued', -1 * DAY, null],
      ];
      for (const [workspace, subject, status, dueIn, assignee] of rows) {
        const filed = await fileRequest(f, { workspace_id: workspace, subject_id: subject });
        await db()
          .updateTable('privacy_requests')
          .set({ status, due_at: iso(now + dueIn), assignee })
          .where('id', '=', filed.id)
          .execute();
      }
      const stats = async (query: string, auth: string) => {
        const res = await call('GET', `/api/v1/privacy/requests/stats${query}`, auth);
        assert.equal(res.statusCode, 200, res.body);
        return res.json();
      };
      assert.deepEqual(await stats('?workspace_id=acme', tokens.bob!), {
        open: 4,
        overdue: 1,
        due_within_7_days: 2,
        pending_approval: 1,
        action_required: 1,
        unassigned_open: 3,
        open_opt_outs: 0,
        overdue_opt_outs: 0,
      });
      // Without workspace_id: every workspace of the token (acme and beta).
      assert.deepEqual(await stats('', tokens.bob!), {
        open: 5,
        overdue: 2,
        due_within_7_days: 2,
        pending_approval: 1,
        action_required: 1,
        unassigned_open: 4,
        open_opt_outs: 0,
        overdue_opt_outs: 0,
      });
      assert.equal((await stats('', tokens.carol!)).open, 4);
      assert.equal((await stats('', tokens.reader!)).open, 4);
      const outside = await call('GET', '/api/v1/privacy/requests/stats?workspace_id=beta', tokens.carol!);
      assert.equal(outside.statusCode, 403, outside.body);
    });

    it('keeps notes oldest first, audits their hash and never their text, and refuses a note over 4 000 characters', async () => {
      const r = await fileRequest(f, { subject_id: 'notes-1' });
      for (const text of ['called the subject', 'second note']) {
        f.time.set(new Date(f.time.clock().getTime() + 1000).toISOString());
        const res = await call('POST', `/api/v1/privacy/requests/${r.id}/notes`, tokens.bob!, { text });
        assert.equal(res.statusCode, 201, res.body);
      }
      const listed = await call('GET', `/api/v1/privacy/requests/${r.id}/notes`, tokens.reader!);
      assert.equal(listed.statusCode, 200);
      const items = listed.json().items as { id: string; text: string; author: string; created_at: string }[];
      assert.deepEqual(
        items.map((n) => [n.text, n.author]),
        [
          ['called the subject', 'bob'],
          ['second note', 'bob'],
        ],
      );
      const entries = await db()
        .selectFrom('audit_events')
        .select(['details'])
        .where('request_id', '=', r.id)
        .where('action', '=', 'privacy_request.note_added')
        .orderBy('seq')
        .execute();
      assert.deepEqual(
        entries.map((e) => JSON.parse(e.details)),
        items.map((n) => ({ note_id: n.id, sha256: noteHash(n.text) })),
      );
      assert.ok(!entries.some((e) => e.details.includes('called the subject')));

      const before = await auditCount();
      const long = await call('POST', `/api/v1/privacy/requests/${r.id}/notes`, tokens.bob!, { text: 'x'.repeat(4001) });
      assert.equal(long.statusCode, 422);
      assert.equal(long.json().detail[0].type, 'string_too_long');
      assert.equal((await call('POST', `/api/v1/privacy/requests/${r.id}/notes`, tokens.bob!, { text: '' })).statusCode, 422);
      assert.equal((await call('POST', `/api/v1/privacy/requests/${r.id}/notes`, tokens.reader!, { text: 'x' })).statusCode, 403);
      assert.equal((await call('GET', `/api/v1/privacy/requests/${r.id}/notes`, tokens['beta-only']!)).statusCode, 404);
      assert.equal(await auditCount(), before);
      const count = await db()
        .selectFrom('request_notes')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('request_id', '=', r.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 2);
    });

    it("erases the notes' text when the subject is deleted; the chain still verifies", async () => {
      // The subject is known only by these requests: no review of unmatched identities (PRODUCT
      // §2.13), so the deletion completes and its erasure reaches the notes.
      await f.t.services.policies.putLayer('acme', null, { confirm_no_data: false }, 'test');
      const access = await fileRequest(f, { subject_id: 'erase-me', request_type: 'access' });
      await call('POST', `/api/v1/privacy/requests/${access.id}/notes`, tokens.bob!, {
        text: 'subject phoned about the access request',
      });
      const other = await fileRequest(f, { subject_id: 'keep-me' });
      await call('POST', `/api/v1/privacy/requests/${other.id}/notes`, tokens.bob!, { text: 'unrelated' });
      const deletion = await fileRequest(f, { subject_id: 'erase-me', request_type: 'deletion', scope: ['user'] });
      await call('POST', `/api/v1/privacy/requests/${deletion.id}/notes`, tokens.bob!, { text: 'deletion note' });
      const w = createWorker({
        database: f.t.services.database,
        clock: f.time.clock,
        log: silentLog,
        pseudonymKey: f.t.services.keys.pseudonymKey,
        handlers: REQUEST_HANDLERS,
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 },
      });
      while (await w.runOnce());
      const done = await db()
        .selectFrom('privacy_requests')
        .select('status')
        .where('id', '=', deletion.id)
        .executeTakeFirstOrThrow();
      assert.equal(done.status, 'completed');
      const notesOf = async (id: string) =>
        (await call('GET', `/api/v1/privacy/requests/${id}/notes`, tokens.bob!)).json().items as { text: string | null }[];
      assert.deepEqual(
        (await notesOf(access.id)).map((n) => n.text),
        [null],
      );
      assert.deepEqual(
        (await notesOf(deletion.id)).map((n) => n.text),
        [null],
      );
      assert.deepEqual(
        (await notesOf(other.id)).map((n) => n.text),
        ['unrelated'],
      );
      const verified = await f.t.services.audit.verify();
      assert.equal(verified.intact, true, JSON.stringify(verified));
    });

    it('acts on each id on its own: successes, 404, 409 and the filer refused approval in one call', async () => {
      await f.t.services.policies.putLayer('beta', null, { require_approval: true }, 'test');
      f.auth = tokens.alice!;
      const byAlice = await fileRequest(f, { workspace_id: 'beta', subject_id: 'bulk-1' });
      const byAlice2 = await fileRequest(f, { workspace_id: 'beta', subject_id: 'bulk-2' });
      f.auth = tokens.bob!;
      const byBob = await fileRequest(f, { workspace_id: 'beta', subject_id: 'bulk-3' });
      const done = await fileRequest(f, { workspace_id: 'beta', subject_id: 'bulk-4' });
      await setStatus(done.id, 'completed');
      const entriesBefore = await auditCount();
      const res = await call('POST', '/api/v1/privacy/requests/bulk', tokens.alice!, {
        action: 'approve',
        ids: [byBob.id, byAlice.id, done.id, 'pr_01J00000000000000000000000'],
      });
      assert.equal(res.statusCode, 200, res.body);
      const results = res.json().results as { id: string; status: string | number; error?: string }[];
      assert.deepEqual(
        results.map((r) => [r.id, r.status]),
        [
          [byBob.id, 'queued'],
          [byAlice.id, 403],
          [done.id, 409],
          ['pr_01J00000000000000000000000', 404],
        ],
      );
      assert.match(results[1]!.error!, /filed this request cannot approve/);
      assert.equal(await auditCount(), entriesBefore + 1);

      // Bob approves Alice's, then cancels two with one reason, each audited on its own.
      const approve = await call('POST', '/api/v1/privacy/requests/bulk', tokens.bob!, { action: 'approve', ids: [byAlice.id] });
      assert.deepEqual(approve.json().results, [{ id: byAlice.id, status: 'queued' }]);
      const cancel = await call('POST', '/api/v1/privacy/requests/bulk', tokens.bob!, {
        action: 'cancel',
        ids: [byAlice.id, byAlice2.id],
        reason: 'duplicate of a ticket',
      });
      assert.deepEqual(
        cancel.json().results.map((r: { status: string }) => r.status),
        ['canceled', 'canceled'],
      );
      for (const id of [byAlice.id, byAlice2.id]) {
        const entry = await db()
          .selectFrom('audit_events')
          .select(['actor_name', 'details'])
          .where('request_id', '=', id)
          .where('action', '=', 'privacy_request.cancel')
          .executeTakeFirstOrThrow();
        assert.equal(entry.actor_name, 'bob');
        assert.equal(JSON.parse(entry.details).reason, 'duplicate of a ticket');
      }
      const assign = await call('POST', '/api/v1/privacy/requests/bulk', tokens.bob!, {
        action: 'assign',
        ids: [byBob.id],
        assignee: 'carol',
      });
      assert.deepEqual(assign.json().results, [{ id: byBob.id, status: 'queued' }]);
      const extended = await call('POST', '/api/v1/privacy/requests/bulk', tokens.bob!, {
        action: 'extend',
        ids: [byBob.id, byBob.id],
        reason: 'complex',
      });
      assert.deepEqual(
        extended.json().results.map((r: { status: string | number }) => r.status),
        ['queued', 409],
      );
    });

    it('refuses more than 100 ids, a missing reason or an unknown action with a 422, nothing written', async () => {
      const r = await fileRequest(f, { subject_id: 'bulk-bad' });
      const before = await auditCount();
      const tooMany = await call('POST', '/api/v1/privacy/requests/bulk', tokens.bob!, {
        action: 'cancel',
        ids: Array.from({ length: 101 }, () => r.id),
        reason: 'x',
      });
      assert.equal(tooMany.statusCode, 422);
      assert.equal(tooMany.json().detail[0].type, 'too_long');
      const noReason = await call('POST', '/api/v1/privacy/requests/bulk', tokens.bob!, { action: 'cancel', ids: [r.id] });
      assert.equal(noReason.statusCode, 422);
      assert.deepEqual(noReason.json().detail[0].loc, ['body']);
      const unknown = await call('POST', '/api/v1/privacy/requests/bulk', tokens.bob!, { action: 'delete', ids: [r.id] });
      assert.equal(unknown.statusCode, 422);
      // An assignee with a control character (issue 33): refused in bulk and alone, naming the field.
      for (const name of ['bob\tx', '\rbob', 'bo\nb', 'bob\u0000', 'bob\u007f', 'bob\u009b']) {
        const bulk = await call('POST', '/api/v1/privacy/requests/bulk', tokens.bob!, {
          action: 'assign',
          ids: [r.id],
          assignee: name,
        });
        assert.equal(bulk.statusCode, 422, JSON.stringify(name));
        assert.deepEqual(bulk.json().detail[0].loc, ['body', 'assignee']);
        const one = await call('POST', `/api/v1/privacy/requests/${r.id}/assign`, tokens.bob!, { assignee: name });
        assert.equal(one.statusCode, 422, JSON.stringify(name));
        assert.deepEqual(
          one.json().detail.map((d: { type: string; loc: unknown[] }) => [d.type, d.loc]),
          [['string_pattern_mismatch', ['body', 'assignee']]],
        );
      }
      const row0 = await db().selectFrom('privacy_requests').select('assignee').where('id', '=', r.id).executeTakeFirstOrThrow();
      assert.equal(row0.assignee, null);
      assert.equal(
        (await call('POST', '/api/v1/privacy/requests/bulk', tokens.reader!, { action: 'approve', ids: [r.id] })).statusCode,
        403,
      );
      assert.equal(await auditCount(), before);
      const row = await db().selectFrom('privacy_requests').select('status').where('id', '=', r.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'queued');
    });
  });
}
