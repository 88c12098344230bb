/**
 * Opt-outs over HTTP (issue 36, PRODUCT §2.18), on both databases: filing with an
 * Idempotency-Key (202, replay, reuse, a taken client_request_id), bad input refused in the
 * Pydantic shape with nothing stored, business-day deadlines with the policy's holidays, the
 * preference replaced by a later choice, scopes and tenancy, the audit entries and the
 * `privacy_preference.changed` event, and the GPC well-known resource.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../../src/lib/ids.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { manualClock } from '../../helpers/requests.js';

/** Friday 4 December 2026, 15:30 UTC. */
const NOW = '2026-12-04T15:30:00.000Z';

let serial = 0;
const next = () => `${++serial}-${Date.now()}`;

/** A valid opt-out body for `acme`, with overrides. */
function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    workspace_id: 'acme',
    subject_provider: 'email',
    subject_id: 'zq-optout@example.test',
    kind: 'sale_sharing',
    choice: 'opt_out',
    source: 'form',
    client_request_id: `crm-oo-${next()}`,
    ...overrides,
  };
}

for (const dialect of dialects()) {
  describe(`opt-outs (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let writer: string;
    let reader: string;
    const time = manualClock(NOW);

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: time.clock });
      writer = await t.bearer(['privacy:write', 'privacy:read'], ['acme']);
      reader = await t.bearer(['privacy:read'], ['acme']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    const file = (payload: Record<string, unknown>, key = `oo-key-${next()}`, authorization = writer) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/opt-outs',
        headers: { authorization, 'idempotency-key': key },
        payload,
      });
    const get = (url: string, authorization = reader) => t.app.inject({ url, headers: { authorization } });
    const db = () => t.services.database.db;
    const stored = async () => {
      const optOuts = await db()
        .selectFrom('opt_outs')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      const preferences = await db()
        .selectFrom('privacy_preferences')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      const audit = await db()
        .selectFrom('audit_events')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('target_type', '=', 'opt_out')
        .executeTakeFirstOrThrow();
      return { optOuts: Number(optOuts.n), preferences: Number(preferences.n), audit: Number(audit.n) };
    };
    const preferences = (subjectId: string, workspace = 'acme', authorization = reader) =>
      get(
        `/api/v1/privacy/preferences?workspace_id=${workspace}&subject_provider=email&subject_id=${encodeURIComponent(subjectId)}`,
        authorization,
      );

    it('files an opt-out: 202, Location, {id, status, due_at}; the same key replays it; another body is a 422; one row', async () => {
      const before = await stored();
      const payload = body({ subject_id: `zq-replay-${next()}@example.test` });
      const key = `oo-key-${next()}`;
      const first = await file(payload, key);
      assert.equal(first.statusCode, 202, first.body);
      const answer = first.json();
      assert.deepEqual(Object.keys(answer).sort(), ['due_at', 'id', 'status']);
      assert.match(answer.id, /^oo_[0-9A-HJKMNP-TV-Z]{26}$/);
      assert.equal(answer.status, 'completed');
      assert.equal(first.headers.location, `/api/v1/privacy/opt-outs/${answer.id}`);
      assert.equal(first.headers['idempotent-replayed'], undefined);

      const again = await file(payload, key);
      assert.equal(again.statusCode, 202, again.body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.headers.location, first.headers.location);
      assert.deepEqual(again.json(), answer);

      const reused = await file({ ...payload, kind: 'sensitive_use' }, key);
      assert.equal(reused.statusCode, 422, reused.body);
      assert.deepEqual(
        reused.json().detail.map((d: { type: string; loc: unknown[] }) => [d.type, d.loc]),
        [['idempotency_key_reused', ['header', 'idempotency-key']]],
      );
      const after = await stored();
      assert.equal(after.optOuts, before.optOuts + 1);
      assert.equal(after.audit, before.audit + 2, 'opt_out.created and privacy_preference.changed, once');

      const read = await get(`/api/v1/privacy/opt-outs/${answer.id}`);
      assert.equal(read.statusCode, 200, read.body);
      assert.deepEqual(read.json(), {
        id: answer.id,
        workspace_id: 'acme',
        subject_provider: 'email',
        subject_id: payload.subject_id,
        kind: 'sale_sharing',
        choice: 'opt_out',
        source: 'form',
        client_request_id: payload.client_request_id,
        status: 'completed',
        received_at: NOW,
        created_at: NOW,
        due_at: answer.due_at,
        completed_at: NOW,
        agent: null,
      });
    });

    it('the same client_request_id under another key is a 409 naming the opt-out that holds it', async () => {
      const payload = body();
      const first = await file(payload);
      assert.equal(first.statusCode, 202, first.body);
      const before = await stored();
      const key = `oo-key-${next()}`;
      const second = await file({ ...payload, kind: 'direct_marketing' }, key);
      assert.equal(second.statusCode, 409, second.body);
      assert.equal(second.headers.location, first.headers.location);
      assert.deepEqual(await stored(), before);
      // The 409 is the key's answer: replayed as such.
      const replayed = await file({ ...payload, kind: 'direct_marketing' }, key);
      assert.equal(replayed.statusCode, 409, replayed.body);
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      assert.equal(replayed.headers.location, first.headers.location);
    });

    it('refuses bad input in the Pydantic shape, naming the field, and stores nothing', async () => {
      const before = await stored();
      const cases: [Record<string, unknown>, string, (string | number)[]][] = [
        [body({ kind: 'sale' }), 'literal_error', ['body', 'kind']],
        [body({ choice: 'maybe' }), 'literal_error', ['body', 'choice']],
        [body({ source: 'email' }), 'literal_error', ['body', 'source']],
        [body({ choice: 'opt_in', source: 'form' }), 'value_error', ['body', 'source']],
        [body({ choice: 'opt_in', source: 'gpc' }), 'value_error', ['body', 'source']],
        [body({ choice: 'opt_in', source: 'agent' }), 'value_error', ['body', 'source']],
        [body({ client_request_id: 'short' }), 'string_too_short', ['body', 'client_request_id']],
        [body({ received_at: '2026-12-05T00:00:00Z' }), 'value_error', ['body', 'received_at']],
      ];
      for (const [payload, type, loc] of cases) {
        const res = await file(payload);
        assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`);
        const detail = res.json().detail as { type: string; loc: unknown[]; msg: string; input: unknown }[];
        assert.deepEqual(
          detail.map((d) => [d.type, d.loc]),
          [[type, loc]],
          res.body,
        );
        if (type === 'literal_error') assert.match(detail[0]!.msg, /^Input should be /);
      }
      const optIn = await file(body({ choice: 'opt_in', source: 'form' }));
      assert.equal(
        optIn.json().detail[0].msg,
        'an opt_in is accepted only with source "api" (an operator\'s, audited); not from "form"',
      );
      assert.equal(optIn.json().detail[0].input, 'form');
      const missingKey = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/opt-outs',
        headers: { authorization: writer },
        payload: body(),
      });
      assert.equal(missingKey.statusCode, 422);
      assert.deepEqual(missingKey.json().detail[0].loc, ['header', 'idempotency-key']);
      assert.deepEqual(await stored(), before);
    });

    it('due_at: the 15th business day for the CCPA kinds, past a weekend and the policy’s holiday; one month for direct marketing', async () => {
      // Without holidays: Dec 7–11, 14–18, 21–25.
      const plain = await file(body());
      assert.equal(plain.json().due_at, '2026-12-25T15:30:00.000Z');
      const admin = await t.bearer(['admin'], ['acme']);
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/policies/workspaces/acme',
        headers: { authorization: admin },
        payload: { holidays: ['2026-12-25'] },
      });
      assert.equal(put.statusCode, 200, put.body);
      const effective = await t.app.inject({
        url: '/api/v1/policies/effective?workspace_id=acme&repository=acme/api',
        headers: { authorization: admin },
      });
      assert.deepEqual(effective.json().policy.holidays, ['2026-12-25']);
      const sale = await file(body());
      assert.equal(sale.json().due_at, '2026-12-28T15:30:00.000Z');
      const sensitive = await file(body({ kind: 'sensitive_use', received_at: '2026-12-03T08:00:00Z' }));
      // Received Thursday: Dec 4, 7–11, 14–18, 21–24; the holiday comes after the 15th.
      assert.equal(sensitive.json().due_at, '2026-12-24T08:00:00.000Z');
      const marketing = await file(body({ kind: 'direct_marketing' }));
      assert.equal(marketing.json().due_at, '2027-01-04T15:30:00.000Z');
      const bad = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/policies/workspaces/acme',
        headers: { authorization: admin },
        payload: { holidays: ['2026-12-25', '2026-02-30', '25/12/2026'] },
      });
      assert.equal(bad.statusCode, 422, bad.body);
      assert.deepEqual(
        bad.json().detail.map((d: { type: string; loc: unknown[]; msg: string }) => [d.type, d.loc, d.msg]),
        [
          ['value_error', ['body', 'holidays', 1], 'Value error, not a real calendar day'],
          ['string_pattern_mismatch', ['body', 'holidays', 2], "String should match pattern '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'"],
        ],
      );
    });

    it('the preference follows the choice: set by an opt-out, replaced by a later opt-in, not by an earlier-received one', async () => {
      const subject = `zq-pref-${next()}@example.test`;
      const empty = await preferences(subject);
      assert.equal(empty.statusCode, 200, empty.body);
      assert.deepEqual(empty.json().sale_sharing, { choice: 'not_set', source: null, updated_at: null });

      assert.equal((await file(body({ subject_id: subject, source: 'gpc' }))).statusCode, 202);
      assert.deepEqual((await preferences(subject)).json().sale_sharing, { choice: 'opt_out', source: 'gpc', updated_at: NOW });

      time.set('2026-12-04T16:00:00.000Z');
      assert.equal((await file(body({ subject_id: subject, choice: 'opt_in', source: 'api' }))).statusCode, 202);
      const replaced = (await preferences(subject)).json();
      assert.deepEqual(replaced.sale_sharing, { choice: 'opt_in', source: 'api', updated_at: '2026-12-04T16:00:00.000Z' });
      assert.deepEqual(replaced.direct_marketing, { choice: 'not_set', source: null, updated_at: null });

      // Filed later, but received before the opt-in: recorded, and the opt-in stands.
      const late = await file(body({ subject_id: subject, received_at: '2026-12-04T15:45:00Z' }));
      assert.equal(late.statusCode, 202, late.body);
      assert.equal((await preferences(subject)).json().sale_sharing.choice, 'opt_in');
      time.set(NOW);

      const list = await get(
        `/api/v1/privacy/opt-outs?workspace_id=acme&subject_provider=email&subject_id=${encodeURIComponent(subject)}`,
      );
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(
        list.json().items.map((o: { choice: string; source: string }) => [o.choice, o.source]),
        [
          ['opt_out', 'form'],
          ['opt_in', 'api'],
          ['opt_out', 'gpc'],
        ],
        'newest first',
      );
    });

    it('lists with status=open (none: every opt-out is honoured at once) and pages with a cursor', async () => {
      const open = await get('/api/v1/privacy/opt-outs?status=open');
      assert.equal(open.statusCode, 200, open.body);
      assert.deepEqual(open.json(), { items: [], next_cursor: null });
      const page = await get('/api/v1/privacy/opt-outs?status=completed&limit=2');
      assert.equal(page.json().items.length, 2);
      const cursor = page.json().next_cursor as string;
      assert.ok(cursor);
      const nextPage = await get(`/api/v1/privacy/opt-outs?status=completed&limit=2&cursor=${cursor}`);
      assert.equal(nextPage.statusCode, 200, nextPage.body);
      assert.ok(nextPage.json().items[0].id < page.json().items[1].id);
      const otherQuery = await get(`/api/v1/privacy/opt-outs?status=open&limit=2&cursor=${cursor}`);
      assert.equal(otherQuery.statusCode, 422, otherQuery.body);
    });

    it('scopes: 401 without a token; privacy:read cannot file; a token without privacy:read cannot read', async () => {
      const before = await stored();
      const none = await t.app.inject({ method: 'POST', url: '/api/v1/privacy/opt-outs', payload: body() });
      assert.equal(none.statusCode, 401);
      assert.equal((await file(body(), undefined, reader)).statusCode, 403);
      const policyOnly = await t.bearer(['policy:read'], ['acme']);
      assert.equal((await get('/api/v1/privacy/opt-outs', policyOnly)).statusCode, 403);
      assert.equal((await preferences('zq@example.test', 'acme', policyOnly)).statusCode, 403);
      assert.equal((await get('/api/v1/privacy/opt-outs')).statusCode, 200);
      assert.deepEqual(await stored(), before);
    });

    it('tenancy: another workspace is a 403 when named and a 404 by id; the list covers the caller’s workspaces', async () => {
      const admin = await t.bearer(['admin'], ['*']);
      const theirs = await file(body({ workspace_id: 'globex' }), undefined, admin);
      assert.equal(theirs.statusCode, 202, theirs.body);
      const before = await stored();
      assert.equal((await file(body({ workspace_id: 'globex' }))).statusCode, 403);
      assert.deepEqual(await stored(), before);
      assert.equal((await get(`/api/v1/privacy/opt-outs/${theirs.json().id}`)).statusCode, 404);
      assert.equal((await get(`/api/v1/privacy/opt-outs/${theirs.json().id}`, admin)).statusCode, 200);
      assert.equal((await get('/api/v1/privacy/opt-outs?workspace_id=globex')).statusCode, 403);
      assert.equal((await preferences('zq-optout@example.test', 'globex')).statusCode, 403);
      const mine = (await get('/api/v1/privacy/opt-outs?limit=100')).json().items as { workspace_id: string }[];
      assert.ok(mine.length > 0);
      assert.ok(mine.every((o) => o.workspace_id === 'acme'));
    });

    it('audits the source without the subject, and sends privacy_preference.changed to a subscribed endpoint', async () => {
      const endpoint = newId('ep');
      await db()
        .insertInto('webhook_endpoints')
        .values({
          id: endpoint,
          workspace_id: 'acme',
          url: 'https://receiver.example/hook',
          description: null,
          event_types: JSON.stringify(['privacy_preference.changed']),
          secret_ciphertext: 'not-used-here',
          previous_secret_ciphertext: null,
          previous_secret_expires_at: null,
          failing_since: null,
          disabled_at: null,
          created_at: NOW,
        })
        .execute();
      const subject = `zq-event-${next()}@example.test`;
      const res = await file(body({ subject_id: subject, kind: 'direct_marketing', source: 'agent' }));
      assert.equal(res.statusCode, 202, res.body);
      const id = res.json().id as string;

      const messages = await db().selectFrom('outbound_messages').selectAll().where('endpoint_id', '=', endpoint).execute();
      assert.equal(messages.length, 1);
      assert.equal(messages[0]!.event_type, 'privacy_preference.changed');
      const payload = JSON.parse(messages[0]!.payload);
      assert.equal(payload.type, 'privacy_preference.changed');
      assert.deepEqual(payload.data, {
        workspace_id: 'acme',
        subject_provider: 'email',
        subject_id: subject,
        kind: 'direct_marketing',
        choice: 'opt_out',
        source: 'agent',
        opt_out_id: id,
        updated_at: NOW,
      });

      const entries = await db()
        .selectFrom('audit_events')
        .select(['action', 'target_type', 'target_id', 'details', 'actor'])
        .where('target_id', '=', id)
        .orderBy('seq')
        .execute();
      assert.deepEqual(
        entries.map((e) => [e.action, e.target_type, JSON.parse(e.details)]),
        [
          ['opt_out.created', 'opt_out', { kind: 'direct_marketing', choice: 'opt_out', source: 'agent', status: 'completed' }],
          ['privacy_preference.changed', 'opt_out', { kind: 'direct_marketing', choice: 'opt_out', source: 'agent' }],
        ],
      );
      assert.ok(entries.every((e) => e.actor.startsWith('token:')));
      const text = JSON.stringify(await db().selectFrom('audit_events').selectAll().execute());
      assert.ok(!text.includes(subject), 'no audit entry names the subject');

      // A replay sends nothing more.
      const replayed = await db().selectFrom('outbound_messages').selectAll().where('endpoint_id', '=', endpoint).execute();
      assert.equal(replayed.length, 1);
    });

    it('GET /.well-known/gpc.json: {"gpc": true, "lastUpdate"} without a token', async () => {
      const res = await t.app.inject({ url: '/.well-known/gpc.json' });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.deepEqual(res.json(), { gpc: true, lastUpdate: '2026-12-07' });
    });

    it('stats count open and overdue opt-outs of the caller’s workspaces (0 through the API: each is completed when filed)', async () => {
      const stats = async () => {
        const res = await get('/api/v1/privacy/requests/stats');
        assert.equal(res.statusCode, 200, res.body);
        const { open_opt_outs, overdue_opt_outs } = res.json();
        return { open_opt_outs, overdue_opt_outs };
      };
      assert.deepEqual(await stats(), { open_opt_outs: 0, overdue_opt_outs: 0 });
      // Open ones, as propagation will leave them while data systems work: written here by hand.
      const open = (workspace: string, dueAt: string) => ({
        id: newId('oo'),
        workspace_id: workspace,
        subject_provider: 'email',
        subject_id: `zq-open-${next()}@example.test`,
        kind: 'sale_sharing',
        choice: 'opt_out',
        source: 'form',
        client_request_id: `crm-open-${next()}`,
        status: 'queued',
        received_at: NOW,
        created_at: NOW,
        due_at: dueAt,
        completed_at: null,
        filed_by: 'test',
      });
      await db()
        .insertInto('opt_outs')
        .values([
          open('acme', '2026-12-01T00:00:00.000Z'),
          open('acme', '2026-12-25T15:30:00.000Z'),
          open('globex', '2026-12-01T00:00:00.000Z'),
        ])
        .execute();
      assert.deepEqual(await stats(), { open_opt_outs: 2, overdue_opt_outs: 1 });
      const listed = await get('/api/v1/privacy/opt-outs?status=open');
      assert.equal(listed.json().items.length, 2);
      // overdue=true lists exactly what overdue_opt_outs counts (the console's tile links to it); false the rest.
      const ids = async (query: string) => {
        const res = await get(`/api/v1/privacy/opt-outs?${query}`);
        assert.equal(res.statusCode, 200, res.body);
        return res.json().items.map((o: { id: string; status: string; due_at: string }) => [o.status, o.due_at]);
      };
      assert.deepEqual(await ids('overdue=true'), [['queued', '2026-12-01T00:00:00.000Z']]);
      const notOverdue = await ids('overdue=false&limit=100');
      assert.ok(notOverdue.some(([status, due]: string[]) => status === 'queued' && due === '2026-12-25T15:30:00.000Z'));
      assert.ok(
        !notOverdue.some(([, due]: string[]) => due === '2026-12-01T00:00:00.000Z'),
        'the overdue one is not among the rest',
      );
      const all = await ids('limit=100');
      assert.equal(notOverdue.length + 1, all.length, 'overdue and not overdue split the list');
      const bad = await get('/api/v1/privacy/opt-outs?overdue=maybe');
      assert.equal(bad.statusCode, 422, bad.body);
      assert.deepEqual(bad.json().detail[0].loc, ['query', 'overdue']);
    });
  });
}
