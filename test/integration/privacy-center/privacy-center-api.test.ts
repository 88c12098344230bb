/**
 * The privacy center (PRODUCT §2.15): the per-workspace switch (admin, audited), submissions and
 * their verification by a mailed code, on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { createRetentionSweeper } from '../../../src/jobs/retention-sweeper.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { mailWords } from '../../helpers/center-outbox.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const CENTER = { enabled: true, request_types: ['access', 'deletion'], title: 'Acme privacy center' };

for (const dialect of dialects()) {
  describe(`privacy center API (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    let now = Date.now();
    const settingsUrl = (ws = 'acme') => `/api/v1/workspaces/${ws}/privacy-center`;
    const submit = (payload: unknown, ws = 'acme', ip = '10.0.0.1') =>
      t.app.inject({ method: 'POST', url: `/privacy-center/v1/${ws}/requests`, payload: payload as object, remoteAddress: ip });
    const verify = (id: string, code: string, ws = 'acme') =>
      t.app.inject({ method: 'POST', url: `/privacy-center/v1/${ws}/requests/${id}/verify`, payload: { code } });
    const db = () => t.services.database.db;
    const codeOf = async (submissionId: string): Promise<string> => {
      const mails = await db()
        .selectFrom('privacy_center_mails')
        .select(['payload', 'request_id', 'workspace_id'])
        .where('kind', '=', 'code')
        .execute();
      const payloads = await Promise.all(mails.map((m) => mailWords(t, m)));
      const mine = payloads.filter((p) => p.submission_id === submissionId);
      assert.equal(mine.length, 1);
      return mine[0]!.code!;
    };
    const counts = async () => ({
      submissions: (await db().selectFrom('privacy_center_submissions').select('id').execute()).length,
      requests: (await db().selectFrom('privacy_requests').select('id').execute()).length,
      mails: (await db().selectFrom('privacy_center_mails').select('id').execute()).length,
    });

    before(async () => {
      database = await dialect.create();
      // Limits off here (privacy-center-limits.test.ts tests them); a movable clock for expiry.
      t = await startTestApp(database, {
        env: { PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '0', PRIVACY_CENTER_CODES_PER_HOUR: '0' },
        clock: () => new Date(now),
      });
      admin = await t.bearer(['admin'], ['acme']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('is off until an admin turns it on: 404 for GET settings and for submissions, nothing stored', async () => {
      const got = await t.app.inject({ method: 'GET', url: settingsUrl(), headers: { authorization: admin } });
      assert.equal(got.statusCode, 404);
      const res = await submit({ request_type: 'access', email: 'ann@example.com' });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { detail: 'This workspace has no privacy center' });
      assert.deepEqual(await counts(), { submissions: 0, requests: 0, mails: 0 });
    });

    it('PUT needs admin, GET privacy:read, within the workspace; PUT is audited without personal data', async () => {
      const reader = await t.bearer(['privacy:read'], ['acme']);
      const writer = await t.bearer(['privacy:write'], ['acme']);
      // Never set: a reader learns it is off (404), a token without privacy:read nothing (403).
      assert.equal((await t.app.inject({ url: settingsUrl(), headers: { authorization: reader } })).statusCode, 404);
      assert.equal((await t.app.inject({ url: settingsUrl(), headers: { authorization: writer } })).statusCode, 403);
      assert.equal(
        (await t.app.inject({ method: 'PUT', url: settingsUrl(), headers: { authorization: reader }, payload: CENTER }))
          .statusCode,
        403,
      );
      const other = await t.bearer(['admin'], ['globex']);
      assert.equal(
        (await t.app.inject({ method: 'PUT', url: settingsUrl(), headers: { authorization: other }, payload: CENTER }))
          .statusCode,
        403,
      );
      const bad = await t.app.inject({
        method: 'PUT',
        url: settingsUrl(),
        headers: { authorization: admin },
        payload: { enabled: true, request_types: ['gossip'] },
      });
      assert.equal(bad.statusCode, 422);
      const put = await t.app.inject({ method: 'PUT', url: settingsUrl(), headers: { authorization: admin }, payload: CENTER });
      assert.equal(put.statusCode, 200);
      assert.equal(put.json().enabled, true);
      assert.deepEqual(put.json().request_types, ['access', 'deletion']);
      const got = await t.app.inject({ method: 'GET', url: settingsUrl(), headers: { authorization: admin } });
      assert.deepEqual(got.json(), put.json());
      // PRODUCT §2.21: every officer reads it (the console's workspace settings), within the workspace only.
      const read = await t.app.inject({ url: settingsUrl(), headers: { authorization: reader } });
      assert.equal(read.statusCode, 200, read.body);
      assert.deepEqual(read.json(), put.json());
      const outsider = await t.bearer(['privacy:read'], ['globex']);
      assert.equal((await t.app.inject({ url: settingsUrl(), headers: { authorization: outsider } })).statusCode, 403);
      const audit = await db()
        .selectFrom('audit_events')
        .select(['action', 'target_id', 'details'])
        .where('action', '=', 'privacy_center.settings_written')
        .execute();
      assert.equal(audit.length, 1);
      assert.equal(audit[0]!.target_id, 'acme');
    });

    it('answers a known and an unknown address with the same body, ids aside, and mails each a code', async () => {
      // A known subject: a request of this address was filed before.
      const filer = await t.bearer(['privacy:write', 'privacy:read'], ['acme']);
      const known = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: filer, 'idempotency-key': 'known-0001' },
        payload: {
          request_type: 'access',
          scope: ['user'],
          subject_id: 'known@example.com',
          subject_provider: 'email',
          workspace_id: 'acme',
          client_request_id: 'known-0001',
          intake_ref: 'test',
        },
      });
      assert.equal(known.statusCode, 202, known.body);
      const a = await submit({ request_type: 'access', email: 'known@example.com' });
      const b = await submit({ request_type: 'access', email: 'nobody@example.com' });
      assert.equal(a.statusCode, 202);
      assert.equal(b.statusCode, 202);
      const strip = (body: string) => body.replace(/form_[0-9A-Z]{26}/, 'ID');
      assert.equal(strip(a.body), strip(b.body));
      assert.equal(a.json().status, 'identity_unverified');
      assert.match(a.json().id, /^form_[0-9A-Z]{26}$/, 'not pcs_: that is an API token (issue 33 item 8)');
      for (const res of [a, b]) assert.match(await codeOf(res.json().id), /^[0-9]{6}$/);
      // Not a privacy request: the queue holds only the API-filed one.
      assert.equal((await counts()).requests, 1);
      // The code is stored only as a hash.
      const rows = await db().selectFrom('privacy_center_submissions').select(['id', 'code_hash']).execute();
      for (const row of rows) assert.match(row.code_hash, /^[0-9a-f]{64}$/);
    });

    it('refuses bad input and stores nothing', async () => {
      const before = await counts();
      const cases: [unknown, number][] = [
        [{ request_type: 'access', email: 'not an address' }, 422],
        [{ request_type: 'gossip', email: 'ann@example.com' }, 422],
        [{ request_type: 'export', email: 'ann@example.com' }, 422], // not enabled
        [{ request_type: 'access' }, 422],
        [{ request_type: 'access', email: `${'a'.repeat(10_240)}@example.com` }, 413],
      ];
      for (const [body, status] of cases) {
        const res = await submit(body);
        assert.equal(res.statusCode, status, JSON.stringify(body).slice(0, 80));
      }
      const notEnabled = await submit({ request_type: 'export', email: 'ann@example.com' });
      assert.deepEqual(notEnabled.json().detail[0].loc, ['body', 'request_type']);
      const ok = await submit({ request_type: 'access', email: 'ann@example.com' });
      const letters = await verify(ok.json().id, '12a456');
      assert.equal(letters.statusCode, 422);
      assert.deepEqual(letters.json().detail[0].loc, ['body', 'code']);
      const after = await counts();
      assert.equal(after.submissions, before.submissions + 1);
      assert.equal(after.requests, before.requests);
    });

    it('verifies with the right code: one privacy request (email, center intake, submission time), same answer twice', async () => {
      const submittedAt = now;
      const res = await submit({ request_type: 'deletion', email: 'Carla@Example.com' });
      const id = res.json().id as string;
      const code = await codeOf(id);
      now += 60_000;
      const first = await verify(id, code);
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(first.json(), { status: 'queued' });
      const second = await verify(id, code);
      assert.equal(second.statusCode, 200);
      assert.deepEqual(second.json(), first.json());
      const requests = await db()
        .selectFrom('privacy_requests')
        .select(['id', 'subject_provider', 'subject_id', 'intake_ref', 'received_at', 'created_at', 'request_type', 'filed_by'])
        .where('intake_ref', '=', 'privacy-center')
        .execute();
      assert.equal(requests.length, 1);
      const request = requests[0]!;
      assert.equal(request.subject_provider, 'email');
      assert.equal(request.subject_id, 'carla@example.com');
      assert.equal(request.request_type, 'deletion');
      assert.equal(request.received_at, new Date(submittedAt).toISOString());
      assert.notEqual(request.created_at, request.received_at);
      assert.match(request.filed_by ?? '', /^subject:[0-9a-f]{64}$/);
      // Audited as the data subject, by pseudonym; no address anywhere in the audit.
      const audit = await db()
        .selectFrom('audit_events')
        .select(['actor', 'actor_name', 'details'])
        .where('target_id', '=', request.id)
        .execute();
      assert.equal(audit[0]!.actor_name, 'data subject');
      assert.match(audit[0]!.actor, /^subject:[0-9a-f]{64}$/);
      const all = await db().selectFrom('audit_events').select(['actor', 'actor_name', 'details', 'target_id']).execute();
      assert.doesNotMatch(JSON.stringify(all), /example\.com/i);
      const reader = await t.bearer(['privacy:read'], ['acme']);
      const events = await t.app.inject({
        method: 'GET',
        url: `/api/v1/audit-events?workspace_id=acme&target_id=${request.id}&action=privacy_request.created`,
        headers: { authorization: reader },
      });
      assert.equal(events.statusCode, 200, events.body);
      const item = events.json().items[0];
      assert.deepEqual({ type: item.actor.type, name: item.actor.name }, { type: 'subject', name: 'data subject' });
      assert.match(item.actor.id, /^[0-9a-f]{64}$/);
      // The "received" mail links the status page; its token is issued when the mail is sent (issue 33), none waits in the outbox.
      const tokens = await db()
        .selectFrom('privacy_center_status_tokens')
        .selectAll()
        .where('request_id', '=', request.id)
        .execute();
      assert.equal(tokens.length, 0);
      const received = await db().selectFrom('privacy_center_mails').selectAll().where('request_id', '=', request.id).execute();
      assert.deepEqual(
        received.map((m) => m.kind),
        ['received'],
      );
      assert.deepEqual(Object.keys(JSON.parse(received[0]!.payload)).sort(), [
        'due_at',
        'received_at',
        'regulation',
        'request_type',
        'status_link',
      ]);
      assert.equal(received[0]!.recipient, 'carla@example.com');
    });

    it('a wrong code is a 403 naming the attempts left; after three the code is void (429), even the right one', async () => {
      const id = (await submit({ request_type: 'access', email: 'dan@example.com' })).json().id as string;
      const code = await codeOf(id);
      const wrong = code === '000000' ? '111111' : '000000';
      const r1 = await verify(id, wrong);
      assert.equal(r1.statusCode, 403);
      assert.match(r1.json().detail, /2 attempts left/);
      assert.match((await verify(id, wrong)).json().detail, /1 attempt left/);
      const r3 = await verify(id, wrong);
      assert.equal(r3.statusCode, 403);
      assert.match(r3.json().detail, /0 attempts left/);
      const r4 = await verify(id, code);
      assert.equal(r4.statusCode, 429);
      assert.ok(r4.headers['retry-after']);
      assert.equal(
        (await db().selectFrom('privacy_requests').select('id').where('subject_id', '=', 'dan@example.com').execute()).length,
        0,
      );
    });

    it('an expired code is a 410; an unknown submission a 404', async () => {
      const id = (await submit({ request_type: 'access', email: 'eve@example.com' })).json().id as string;
      const code = await codeOf(id);
      now += 10 * 60_000 + 1000;
      const res = await verify(id, code);
      assert.equal(res.statusCode, 410);
      assert.equal((await verify('form_01JZZZZZZZZZZZZZZZZZZZZZZZ', code)).statusCode, 404);
      assert.equal((await verify(id, code, 'globex')).statusCode, 404);
    });

    it('the retention sweep deletes submissions older than 24 hours', async () => {
      const before = (await counts()).submissions;
      assert.ok(before > 0);
      now += 24 * 60 * 60_000 + 1000;
      const fresh = (await submit({ request_type: 'access', email: 'fay@example.com' })).json().id as string;
      const sweeper = createRetentionSweeper({
        database: t.services.database,
        policies: t.services.policies,
        clock: () => new Date(now),
        log: pino({ level: 'silent' }),
      });
      const swept = await sweeper.sweep(new Date(now));
      assert.equal(swept.centerSubmissions, before);
      const left = await db().selectFrom('privacy_center_submissions').select('id').execute();
      assert.deepEqual(
        left.map((r) => r.id),
        [fresh],
      );
    });
  });
}
