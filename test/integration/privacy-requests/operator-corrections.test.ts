/**
 * `POST …/{id}/corrections` (PRODUCT.md §2.3, GDPR Art. 16) end to end: a subject seeded by a
 * Standard Webhooks identity event, a correction request parked in action_required by the real
 * worker handlers, refused corrections (422), the applied correction (the profile changes, the
 * report and the audit name the field and never the value), and what happens after.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { dialects } from '../../helpers/databases.js';
import { canonicalEvent, newStandardSecret, postIdentity, standardHeaders } from '../../helpers/identity-webhooks.js';
import { auditOf, type Fixture, fileRequest, openFixture, requestRow, testWorker } from '../../helpers/worker.js';

const OLD_EMAIL = 'ada@example.com';
const NEW_EMAIL = 'new@example.test';

for (const dialect of dialects()) {
  describe(`corrections (${dialect.name})`, () => {
    let f: Fixture;
    let secret: string;
    let n = 0;
    const deliver = async (id: string, type: string, occurredAt: string, data: Record<string, unknown>) => {
      const body = canonicalEvent(id, type, occurredAt, data);
      const res = await postIdentity(f.t, body, standardHeaders(secret, `msg_${++n}`, body));
      assert.equal(res.statusCode, 200, res.body);
    };
    const act = (id: string, changes: unknown) =>
      f.t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${id}/corrections`,
        headers: { authorization: f.auth },
        payload: { changes },
      });
    const subject = () => f.t.services.subjects.get('acme', 'okta', 'u_ada');

    /** A correction request for the seeded subject, processed by the real handlers. */
    async function parked(scope: string[] = ['user']) {
      const filed = await fileRequest(f, { request_type: 'correction', subject_provider: 'okta', subject_id: 'u_ada', scope });
      assert.equal(await testWorker(f, REQUEST_HANDLERS).runOnce(), true);
      return filed.id;
    }

    beforeEach(async () => {
      f = await openFixture(dialect.create, { start: '2026-05-04T09:00:00.000Z' });
      secret = newStandardSecret();
      await f.t.services.integrations.create(
        { kind: 'identity', workspace_id: 'acme', format: 'standard', subject_provider: 'okta', secret },
        'test',
      );
      await deliver('evt_created', 'user.created', '2026-05-01T10:00:00Z', {
        user_id: 'u_ada',
        email: OLD_EMAIL,
        name: 'Ada Lovelace',
        username: 'ada',
        linked_accounts: [{ provider: 'github', account_id: '583231', login: 'octocat' }],
      });
      assert.equal((await subject())?.email, OLD_EMAIL);
    });
    afterEach(async () => f.close());

    it('the worker parks a correction request in action_required; corrected email → completed; report and audit name the field only', async () => {
      const id = await parked();
      const row = await requestRow(f, id);
      assert.deepEqual([row.status, row.status_reason], ['action_required', 'waiting for corrected values']);

      f.time.set('2026-05-04T09:10:00.000Z');
      const res = await act(id, { email: NEW_EMAIL });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        [res.json().status, res.json().completed_at, res.json().status_reason],
        ['completed', '2026-05-04T09:10:00.000Z', null],
      );

      const after = await subject();
      assert.deepEqual([after?.email, after?.name, after?.username], [NEW_EMAIL, 'Ada Lovelace', 'ada']);

      const report = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${id}/report`,
        headers: { authorization: f.auth },
      });
      assert.equal(report.statusCode, 200, report.body);
      // Served with the request it is proof of (docs/decisions.md "Reports name their request").
      assert.deepEqual(report.json(), {
        format: 'correction-report/1',
        request_id: id,
        request_type: 'correction',
        workspace_id: row.workspace_id,
        subject: { provider: row.subject_provider, id: row.subject_id },
        received_at: row.created_at,
        completed_at: '2026-05-04T09:10:00.000Z',
        corrected: ['email'],
      });
      assert.ok(!report.body.includes(NEW_EMAIL) && !report.body.includes(OLD_EMAIL));

      const audit = await auditOf(f, id);
      const created = audit.find((e) => e.action === 'privacy_request.created');
      const corrections = audit.filter((e) => e.action === 'privacy_request.corrections');
      assert.match(created?.actor ?? '', /^token:tok_/);
      assert.equal(corrections.length, 1);
      assert.equal(corrections[0]?.actor, created?.actor);
      assert.equal(corrections[0]?.occurred_at, '2026-05-04T09:10:00.000Z');
      assert.deepEqual(corrections[0]?.details, {
        from: 'action_required',
        to: 'completed',
        report: { format: 'correction-report/1', corrected: ['email'] },
      });
      const wholeLog = JSON.stringify(await f.t.services.database.db.selectFrom('audit_events').selectAll().execute());
      assert.ok(!wholeLog.includes(NEW_EMAIL) && !wholeLog.includes(OLD_EMAIL), 'no value in the audit log');

      assert.equal(
        (await act(id, { email: 'again@example.test' })).statusCode,
        409,
        'a completed request takes no more corrections',
      );
      const pkg = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${id}/package`,
        headers: { authorization: f.auth },
      });
      assert.equal(pkg.statusCode, 409, 'a correction request has no package');
    });

    it('refused corrections → 422 per refused field (values not echoed) and the request stays action_required', async () => {
      const id = await parked();
      const refusals: [unknown, (string | number)[], RegExp][] = [
        [{ subject_id: 'someone-else' }, ['body', 'changes', 'subject_id'], /not correctable/],
        [{ email: NEW_EMAIL, state: 'deleted' }, ['body', 'changes', 'state'], /not correctable/],
        [{}, ['body', 'changes'], /no changes/],
        [{ email: 42 }, ['body', 'changes', 'email'], /invalid value/],
        [{ email: '' }, ['body', 'changes', 'email'], /invalid value/],
        [{ name: 'x'.repeat(501) }, ['body', 'changes', 'name'], /invalid value/],
      ];
      for (const [changes, loc, msg] of refusals) {
        const res = await act(id, changes);
        assert.equal(res.statusCode, 422, `${JSON.stringify(changes)}: ${res.body}`);
        const [item] = res.json().detail;
        assert.deepEqual([item.type, item.loc, item.input], ['value_error', loc, '[redacted]']);
        assert.match(item.msg, msg);
        assert.equal(res.body.includes(NEW_EMAIL), false);
      }
      const notAnObject = await act(id, 'email=new');
      assert.equal(notAnObject.statusCode, 422);
      const row = await requestRow(f, id);
      assert.deepEqual([row.status, row.completed_at], ['action_required', null]);
      assert.equal((await subject())?.email, OLD_EMAIL);
      assert.equal((await auditOf(f, id)).filter((e) => e.action === 'privacy_request.corrections').length, 0);
    });

    it('a field outside the request scope → 422; a field inside it is corrected', async () => {
      const id = await parked(['user.name']);
      assert.equal((await requestRow(f, id)).status, 'action_required');
      const outside = await act(id, { email: NEW_EMAIL });
      assert.equal(outside.statusCode, 422);
      assert.deepEqual(outside.json().detail[0].loc, ['body', 'changes', 'email']);
      assert.match(outside.json().detail[0].msg, /not in scope/);
      const inside = await act(id, { name: 'Ada King' });
      assert.equal(inside.statusCode, 200, inside.body);
      assert.deepEqual([(await subject())?.name, (await subject())?.email], ['Ada King', OLD_EMAIL]);
    });

    it('the correction survives a re-fold by an older identity event, and a request naming a linked account finds the subject', async () => {
      const id = await parked();
      assert.equal((await act(id, { email: NEW_EMAIL, username: 'ada-l' })).statusCode, 200);
      await deliver('evt_older', 'user.updated', '2026-05-02T10:00:00Z', { user_id: 'u_ada', name: 'Ada L.' });
      const after = await subject();
      assert.deepEqual([after?.email, after?.username, after?.name], [NEW_EMAIL, 'ada-l', 'Ada L.']);

      const viaGithub = await fileRequest(f, { request_type: 'access', subject_provider: 'github', subject_id: '583231' });
      assert.equal(await testWorker(f, REQUEST_HANDLERS).runOnce(), true);
      const pkg = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${viaGithub.id}/package`,
        headers: { authorization: f.auth },
      });
      assert.equal(pkg.statusCode, 200, pkg.body);
      assert.equal(pkg.json().data['user.contact.email'].email, NEW_EMAIL);
    });

    it('a correction request for a subject never seen waits for review; confirmed, it completes with an empty report', async () => {
      const filed = await fileRequest(f, { request_type: 'correction', subject_provider: 'okta', subject_id: 'u_nobody' });
      assert.equal(await testWorker(f, REQUEST_HANDLERS).runOnce(), true);
      const waiting = await requestRow(f, filed.id);
      // PRODUCT §2.13: nothing matched the identity, so an operator reviews it before any answer.
      assert.deepEqual([waiting.status, waiting.status_reason], ['action_required', 'identity_unmatched']);
      assert.ok((await act(filed.id, { email: NEW_EMAIL })).statusCode >= 400, 'no values for a subject never seen');
      const confirmed = await f.t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${filed.id}/confirm-no-data`,
        headers: { authorization: f.auth },
        payload: { reason: 'no profile of this person anywhere' },
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal((await requestRow(f, filed.id)).status, 'completed');
      const report = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${filed.id}/report`,
        headers: { authorization: f.auth },
      });
      assert.equal(report.statusCode, 200);
      assert.deepEqual(report.json().corrected, []);
      assert.equal((await act(filed.id, { email: NEW_EMAIL })).statusCode, 409);
    });

    it('the correction is recorded at the service clock time, like the request it completes', async () => {
      const id = await parked();
      f.time.set('2026-05-04T09:10:00.000Z');
      assert.equal((await act(id, { email: NEW_EMAIL })).statusCode, 200);
      const event = await f.t.services.database.db
        .selectFrom('identity_events')
        .select(['occurred_at', 'received_at'])
        .where('event_id', '=', `correction:${id}`)
        .executeTakeFirstOrThrow();
      assert.deepEqual(event, { occurred_at: '2026-05-04T09:10:00.000Z', received_at: '2026-05-04T09:10:00.000Z' });
    });
  });
}
