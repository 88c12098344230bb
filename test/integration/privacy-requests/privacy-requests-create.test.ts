/** POST /api/v1/privacy/requests: deadlines, approval, Idempotency-Key and client_request_id (PRODUCT.md §2.3). */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { createBody, manualClock } from '../../helpers/requests.js';

for (const dialect of dialects()) {
  describe(`create privacy requests (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let auth: string;
    const time = manualClock('2026-01-31T10:00:00.000Z');
    const post = (body: unknown, key = 'key-00000001', authorization = auth) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization, 'idempotency-key': key },
        payload: body as object,
      });
    const count = async (table: 'privacy_requests' | 'idempotency_records') =>
      (await t.services.database.db.selectFrom(table).selectAll().execute()).length;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: time.clock });
      auth = await t.bearer(['privacy:write', 'privacy:read', 'policy:write'], ['acme']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });
    beforeEach(async () => {
      time.set('2026-01-31T10:00:00.000Z');
      await t.services.database.db.deleteFrom('privacy_requests').execute();
      await t.services.database.db.deleteFrom('idempotency_records').execute();
      await t.services.policies.deleteLayer('acme', null, 'test');
    });

    it('answers 202 with Location and the resource; GDPR due one calendar month later (Jan 31 → Feb 28)', async () => {
      const res = await post(createBody());
      assert.equal(res.statusCode, 202, res.body);
      const body = res.json();
      assert.match(body.id, /^pr_[0-9A-Z]{26}$/);
      assert.equal(res.headers.location, `/api/v1/privacy/requests/${body.id}`);
      assert.equal(res.headers['idempotent-replayed'], undefined);
      assert.deepEqual(
        { ...body, id: undefined, links: undefined },
        {
          ...createBody(),
          id: undefined,
          links: undefined,
          status: 'queued',
          regulation: 'gdpr',
          received_at: '2026-01-31T10:00:00.000Z',
          created_at: '2026-01-31T10:00:00.000Z',
          due_at: '2026-02-28T10:00:00.000Z',
          extended_due_at: null,
          completed_at: null,
          status_reason: null,
          related_request_id: null,
          agent: null,
          assignee: null,
        },
      );
      assert.deepEqual(body.links, { self: res.headers.location });
    });

    it('received_at: deadlines count from when the controller received it, stored in UTC; the extension too', async () => {
      const body = createBody({ client_request_id: 'by-post-0001', received_at: '2026-01-20T09:30:00+02:00' });
      const res = await post(body, 'key-by-post-0001');
      assert.equal(res.statusCode, 202, res.body);
      const filed = res.json();
      assert.equal(filed.received_at, '2026-01-20T07:30:00.000Z');
      assert.equal(filed.created_at, '2026-01-31T10:00:00.000Z');
      assert.equal(filed.due_at, '2026-02-20T07:30:00.000Z', 'one month from receipt, not from filing');
      const admin = await t.bearer(['privacy:write', 'privacy:read'], ['acme']);
      const extended = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${filed.id}/extend`,
        headers: { authorization: admin },
        payload: { reason: 'complex request' },
      });
      assert.equal(extended.statusCode, 200, extended.body);
      assert.equal(extended.json().extended_due_at, '2026-04-20T07:30:00.000Z', 'GDPR +2 months from the receipt deadline');
      const replay = await post(body, 'key-by-post-0001');
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.json().received_at, '2026-01-20T07:30:00.000Z');
    });

    it('received_at after the filing time, or more than 365 days before it, is a 422 at body.received_at; nothing stored', async () => {
      // The service clock stands at 2026-01-31T10:00Z: both are valid by the wall clock, not by the service's.
      for (const [received, problem] of [
        ['2026-01-31T10:00:00.001Z', 'received_at is in the future'],
        ['2025-01-31T09:59:59.999Z', 'received_at is more than 365 days ago'],
      ] as const) {
        const res = await post(createBody({ client_request_id: `bad-received-${problem.length}`, received_at: received }));
        assert.equal(res.statusCode, 422, res.body);
        assert.deepEqual(res.json().detail, [
          {
            type: 'value_error',
            loc: ['body', 'received_at'],
            msg: `Value error, ${problem}`,
            input: received,
            ctx: { error: {} },
          },
        ]);
      }
      const exactlyAYear = await post(
        createBody({ client_request_id: 'a-year-ago-0001', received_at: '2025-01-31T10:00:00.000Z' }),
        'key-a-year-0001',
      );
      assert.equal(exactlyAYear.statusCode, 202, '365 days back is still allowed');
      const stored = await t.services.database.db
        .selectFrom('privacy_requests')
        .select('client_request_id')
        .where('client_request_id', 'like', 'bad-received-%')
        .execute();
      assert.deepEqual(stored, []);
    });

    it('uses the workspace regulations: CCPA alone is 45 days, GDPR with CCPA the earlier', async () => {
      await t.services.policies.putLayer('acme', null, { regulations: ['ccpa'] }, 'test');
      const ccpa = (await post(createBody({ client_request_id: 'ccpa-only-1' }), 'key-ccpa-0001')).json();
      assert.equal(ccpa.regulation, 'ccpa');
      assert.equal(ccpa.due_at, '2026-03-17T10:00:00.000Z', 'Jan 31 + 45 days');
      await t.services.policies.putLayer('acme', null, { regulations: ['ccpa', 'gdpr'] }, 'test');
      const both = (await post(createBody({ client_request_id: 'ccpa-gdpr-1' }), 'key-both-0001')).json();
      assert.equal(both.regulation, 'ccpa+gdpr');
      assert.equal(both.due_at, '2026-02-28T10:00:00.000Z', 'the GDPR month ends first');
    });

    it('files pending_approval when the workspace policy requires approval', async () => {
      await t.services.policies.putLayer('acme', null, { require_approval: true }, 'test');
      const res = await post(createBody());
      assert.equal(res.json().status, 'pending_approval');
    });

    it('replays the stored response for the same key and body, with Idempotent-Replayed', async () => {
      const first = await post(createBody());
      time.set('2026-02-01T09:59:59.999Z');
      const again = await post(createBody());
      assert.equal(again.statusCode, 202);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.headers.location, first.headers.location);
      assert.deepEqual(again.json(), first.json());
      assert.equal(await count('privacy_requests'), 1);
      time.set('2026-02-01T10:00:00.000Z');
      const expired = await post(createBody());
      assert.equal(expired.statusCode, 409, 'after 24 h the key is forgotten; the client_request_id still guards');
    });

    it('treats key order and whitespace as the same body', async () => {
      await post(createBody());
      const reordered = `{ "intake_ref": "https://support.example.com/tickets/4821", "workspace_id": "acme", "client_request_id": "crm-ticket-0001",
        "subject_provider": "github", "subject_id": "583231", "scope": ["user"], "request_type": "access" }`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: auth, 'idempotency-key': 'key-00000001', 'content-type': 'application/json' },
        payload: reordered,
      });
      assert.equal(res.statusCode, 202);
      assert.equal(res.headers['idempotent-replayed'], 'true');
    });

    it('refuses the same key with a different body: 422 idempotency_key_reused', async () => {
      await post(createBody());
      const res = await post(createBody({ intake_ref: 'another ticket' }));
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), {
        detail: [
          {
            type: 'idempotency_key_reused',
            loc: ['header', 'idempotency-key'],
            msg: 'Idempotency-Key was already used with a different request body',
            input: 'key-00000001',
          },
        ],
      });
      assert.equal(await count('privacy_requests'), 1);
    });

    it('answers 409 while the first request with the key is still in flight', async () => {
      const { fingerprint } = await import('../../../src/modules/idempotency/idempotency.fns.js');
      const principal = await t.services.tokens.authenticate(auth.slice('Bearer '.length));
      assert.ok(principal);
      await t.services.database.db
        .insertInto('idempotency_records')
        .values({
          principal_id: principal.id,
          idempotency_key: 'key-inflight',
          fingerprint: fingerprint(createBody()),
          state: 'in_flight',
          response_status: null,
          response_location: null,
          response_body: null,
          created_at: '2026-01-31T09:59:59.000Z',
          expires_at: '2026-02-01T09:59:59.000Z',
        })
        .execute();
      const res = await post(createBody(), 'key-inflight');
      assert.equal(res.statusCode, 409);
      assert.equal(await count('privacy_requests'), 0);
      time.set('2026-01-31T10:01:00.000Z');
      const afterLease = await post(createBody(), 'key-inflight');
      assert.equal(afterLease.statusCode, 202, 'an abandoned claim is taken over after its lease');
    });

    if (dialect.name === 'postgres') {
      it('answers 409 while another transaction is storing the same key, and stores it once that one is gone', async () => {
        const pg = (await import('pg')).default;
        const { idempotencyLockName } = await import('../../../src/modules/idempotency/idempotency.service.js');
        const principal = await t.services.tokens.authenticate(auth.slice('Bearer '.length));
        assert.ok(principal);
        // Another server's transaction, mid-way through storing this key: it holds the key's lock.
        const other = new pg.Client({ connectionString: database.url });
        await other.connect();
        try {
          await other.query('begin');
          await other.query('select pg_advisory_xact_lock(hashtextextended($1::text, 0))', [
            idempotencyLockName(principal.id, 'key-held-elsewhere'),
          ]);
          const res = await post(createBody(), 'key-held-elsewhere');
          assert.equal(res.statusCode, 409);
          assert.equal(res.headers['retry-after'], '1');
          assert.equal(await count('privacy_requests'), 0);
          assert.equal(await count('idempotency_records'), 0);
          await other.query('rollback');
        } finally {
          await other.end();
        }
        const retried = await post(createBody(), 'key-held-elsewhere');
        assert.equal(retried.statusCode, 202);
        assert.equal(await count('privacy_requests'), 1);
      });
    }

    it('answers 409 with the existing Location for a client_request_id taken under another key', async () => {
      const first = await post(createBody());
      const res = await post(createBody({ intake_ref: 'dup' }), 'key-00000002');
      assert.equal(res.statusCode, 409);
      assert.equal(res.headers.location, first.headers.location);
      assert.equal(await count('privacy_requests'), 1);
    });

    it('keeps keys per principal: another token with the same key files its own request', async () => {
      const other = await t.bearer(['privacy:write'], ['acme']);
      await post(createBody());
      const res = await post(createBody({ client_request_id: 'crm-ticket-0002' }), 'key-00000001', other);
      assert.equal(res.statusCode, 202);
      assert.equal(res.headers['idempotent-replayed'], undefined);
      assert.equal(await count('privacy_requests'), 2);
    });

    it('stores one request when the same delivery arrives 20 times at once', async () => {
      const responses = await Promise.all(Array.from({ length: 20 }, () => post(createBody())));
      const statuses = new Set(responses.map((r) => r.statusCode));
      assert.ok(
        [...statuses].every((s) => s === 202 || s === 409),
        [...statuses].join(),
      );
      assert.equal(await count('privacy_requests'), 1);
    });

    it('replays a stored key to 20 concurrent requests: none is answered as in flight', async () => {
      const first = await post(createBody());
      const responses = await Promise.all(Array.from({ length: 20 }, () => post(createBody())));
      for (const res of responses) {
        assert.equal(res.statusCode, 202);
        assert.equal(res.headers['idempotent-replayed'], 'true');
        assert.equal(res.headers.location, first.headers.location);
      }
      assert.equal(await count('privacy_requests'), 1);
    });

    it('answers a new request, a replay and a reused key sent at once each on its own', async () => {
      await post(createBody(), 'key-stored-0001');
      const [fresh, replay, reused] = await Promise.all([
        post(createBody({ client_request_id: 'crm-ticket-0002' }), 'key-fresh-0001'),
        post(createBody(), 'key-stored-0001'),
        post(createBody({ intake_ref: 'another ticket' }), 'key-stored-0001'),
      ]);
      assert.equal(fresh.statusCode, 202);
      assert.equal(fresh.headers['idempotent-replayed'], undefined);
      assert.equal(replay.statusCode, 202);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(reused.statusCode, 422);
      assert.equal(await count('privacy_requests'), 2);
      assert.equal(await count('idempotency_records'), 2);
    });

    it('writes nothing for malformed JSON, a body over the limit, or a validation error', async () => {
      const malformed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: auth, 'idempotency-key': 'key-00000001', 'content-type': 'application/json' },
        payload: '{"request_type": "access",',
      });
      assert.equal(malformed.statusCode, 422);
      assert.equal(malformed.json().detail[0].type, 'json_invalid');
      const huge = await post(createBody({ intake_ref: 'x'.repeat(1024 * 1024) }));
      assert.equal(huge.statusCode, 413);
      assert.deepEqual(huge.json(), { detail: 'Request body is too large' });
      const invalid = await post(createBody({ scope: ['user.password'] }));
      assert.equal(invalid.statusCode, 422);
      assert.deepEqual(invalid.json().detail[0].loc, ['body', 'scope', 0]);
      assert.equal(await count('privacy_requests'), 0);
      assert.equal(await count('idempotency_records'), 0);
    });
  });
}
