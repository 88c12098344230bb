/**
 * Repeated requests (PRODUCT §2.20, issue 38 item 2): with the workspace policy's
 * `repeat_window_days` above 0, a request of the same type for the same matched subject (any of
 * its identities: the IdP key, a linked account, the e-mail address) in the same workspace, while
 * another is open or was completed within the window, is filed in `action_required` with
 * `status_reason: "repeat_request"` and `related_request_id` (the most recent such request). The
 * operator proceeds (`…/proceed {reason}`: where filing would have sent it), rejects (the person is
 * told the reason, GDPR Art. 12(5)) or cancels it. A replay answers what was filed; another
 * workspace's requests never count; a window of 0 checks nothing; bad input is a 422, nothing stored.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { renderMail } from '../../../src/modules/privacy-center/mail-render.fns.js';
import type { MailPayload } from '../../../src/modules/privacy-center/mail-outbox.repository.js';
import { dialects } from '../../helpers/databases.js';
import { createBody } from '../../helpers/requests.js';
import { addSources, sendIdentityEvent, type Sources, unique } from '../../helpers/subject-data.js';
import { auditOf, type Fixture, fileRequest, openFixture, processAll, requestRow } from '../../helpers/worker.js';

const DAY_MS = 86_400_000;

for (const dialect of dialects()) {
  describe(`repeated requests (${dialect.name})`, () => {
    let f: Fixture;
    let s: Sources;
    let policyWriter: string;

    before(async () => {
      f = await openFixture(() => dialect.create(), { workspaces: ['acme', 'beta', 'off', 'strict'] });
      policyWriter = await f.t.bearer(['policy:write', 'policy:read'], ['acme', 'beta', 'off', 'strict']);
      s = await addSources(f.t, 'acme');
      for (const [workspace, layer] of [
        ['acme', { repeat_window_days: 30 }],
        ['beta', { repeat_window_days: 30 }],
        ['strict', { repeat_window_days: 30, require_approval: true }],
      ] as const) {
        const res = await putPolicy(workspace, layer);
        assert.equal(res.statusCode, 200, res.body);
      }
    });
    after(() => f.close());

    const putPolicy = (workspace: string, payload: unknown) =>
      f.t.app.inject({
        method: 'PUT',
        url: `/api/v1/policies/workspaces/${workspace}`,
        headers: { authorization: policyWriter },
        payload: payload as Record<string, unknown>,
      });
    const post = (id: string, action: string, payload?: Record<string, unknown>) =>
      f.t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${id}/${action}`,
        headers: { authorization: f.auth },
        ...(payload ? { payload } : {}),
      });
    const get = async (id: string) =>
      (await f.t.app.inject({ url: `/api/v1/privacy/requests/${id}`, headers: { authorization: f.auth } })).json();
    const waiting = (r: Record<string, unknown>) => [r.status, r.status_reason, r.related_request_id];

    /** A person known in `acme` through identity events: IdP id, e-mail address and a linked GitHub account. */
    async function person() {
      const r = unique();
      const p = { userId: `u-${r}`, email: `Ada.${r}@Example.test`, ghId: String(randomInt(1e6, 1e9)) };
      await sendIdentityEvent(f.t, s, 'user.created', '2026-04-01T00:00:00.000Z', {
        user_id: p.userId,
        email: p.email,
        name: 'Ada',
        linked_accounts: [{ provider: 'github', account_id: p.ghId, login: `octo-${r}` }],
      });
      return p;
    }

    it('a repeat by any identity of the subject waits as repeat_request, naming the most recent such request', async () => {
      const p = await person();
      const first = await fileRequest(f, { subject_provider: 'okta', subject_id: p.userId });
      assert.deepEqual(waiting(first), ['queued', null, null]);

      // The same person by e-mail address (other case, spaces): a repeat of the first.
      const second = await fileRequest(f, { subject_provider: 'email', subject_id: `  ${p.email.toUpperCase()} ` });
      assert.deepEqual(waiting(second), ['action_required', 'repeat_request', first.id]);
      // By the linked GitHub account: both are open, the most recent one is named.
      const third = await fileRequest(f, { subject_provider: 'github', subject_id: p.ghId });
      assert.deepEqual(waiting(third), ['action_required', 'repeat_request', second.id]);
      assert.deepEqual(waiting(await get(third.id)), ['action_required', 'repeat_request', second.id]);
      assert.equal((await requestRow(f, third.id)).completed_at, null);

      const created = (await auditOf(f, third.id)).find((e) => e.action === 'privacy_request.created');
      assert.deepEqual(created?.details, {
        request_type: 'access',
        status: 'action_required',
        status_reason: 'repeat_request',
        related_request_id: second.id,
      });
      // Another type for the same person is not a repeat.
      const deletion = await fileRequest(f, { request_type: 'deletion', subject_provider: 'okta', subject_id: p.userId });
      assert.deepEqual(waiting(deletion), ['queued', null, null]);
      // The worker leaves a repeat alone: it waits for the operator.
      await processAll(f);
      assert.deepEqual(waiting(await get(third.id)), ['action_required', 'repeat_request', second.id]);
    });

    it('a completed request counts within the window (from completed_at), not after it; cancel ends a repeat', async () => {
      const p = await person();
      const first = await fileRequest(f, { subject_provider: 'okta', subject_id: p.userId });
      await processAll(f);
      const done = await requestRow(f, first.id);
      assert.equal(done.status, 'completed');
      const completedAt = Date.parse(done.completed_at as string);

      f.time.set(new Date(completedAt + 30 * DAY_MS - 1000).toISOString());
      const inside = await fileRequest(f, { subject_provider: 'github', subject_id: p.ghId });
      assert.deepEqual(waiting(inside), ['action_required', 'repeat_request', first.id]);
      const canceled = await post(inside.id, 'cancel', { reason: 'filed twice by the support desk' });
      assert.equal(canceled.statusCode, 200, canceled.body);
      assert.deepEqual(waiting(canceled.json()), ['canceled', 'filed twice by the support desk', first.id]);

      f.time.set(new Date(completedAt + 30 * DAY_MS + 1000).toISOString());
      const outside = await fileRequest(f, { subject_provider: 'github', subject_id: p.ghId });
      assert.deepEqual(waiting(outside), ['queued', null, null], 'completed more than 30 days ago, the other one canceled');
      await processAll(f);
      assert.equal((await requestRow(f, outside.id)).status, 'completed', 'it ran as any request');
      f.time.set('2026-05-04T09:00:00.000Z');
    });

    it('another workspace is not a repeat; a window of 0 checks nothing', async () => {
      const subject = `gh-${unique()}`;
      const inAcme = await fileRequest(f, { workspace_id: 'acme', subject_provider: 'github', subject_id: subject });
      assert.equal(inAcme.status, 'queued');
      const inBeta = await fileRequest(f, { workspace_id: 'beta', subject_provider: 'github', subject_id: subject });
      assert.deepEqual(waiting(inBeta), ['queued', null, null]);
      const beta2 = await fileRequest(f, { workspace_id: 'beta', subject_provider: 'github', subject_id: subject });
      assert.deepEqual(waiting(beta2), ['action_required', 'repeat_request', inBeta.id], 'beta checks its own');

      for (let i = 0; i < 3; i++) {
        const off = await fileRequest(f, { workspace_id: 'off', subject_provider: 'github', subject_id: subject });
        assert.deepEqual(waiting(off), ['queued', null, null], `window 0, filing ${i + 1}`);
      }
      const effective = await f.t.app.inject({
        url: '/api/v1/policies/effective?workspace_id=off&repository=x/y',
        headers: { authorization: policyWriter },
      });
      assert.equal(effective.json().policy.repeat_window_days, 0);
    });

    it('a replay answers what was filed; a taken client_request_id is still a 409', async () => {
      const subject = `gh-${unique()}`;
      const send = (key: string, clientRequestId: string) =>
        f.t.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { authorization: f.auth, 'idempotency-key': key },
          payload: createBody({ subject_provider: 'github', subject_id: subject, client_request_id: clientRequestId }),
        });
      const original = await send(`key-original-${subject}`, `crid-original-${subject}`);
      assert.equal(original.statusCode, 202, original.body);
      const repeat = await send(`key-repeat-${subject}`, `crid-repeat-${subject}`);
      assert.deepEqual(waiting(repeat.json()), ['action_required', 'repeat_request', original.json().id]);

      // The original's key again, now that a repeat exists: the stored answer, queued, unchanged.
      const replayOriginal = await send(`key-original-${subject}`, `crid-original-${subject}`);
      assert.equal(replayOriginal.statusCode, 202);
      assert.equal(replayOriginal.headers['idempotent-replayed'], 'true');
      assert.equal(replayOriginal.body, original.body);
      const replayRepeat = await send(`key-repeat-${subject}`, `crid-repeat-${subject}`);
      assert.equal(replayRepeat.headers['idempotent-replayed'], 'true');
      assert.equal(replayRepeat.body, repeat.body);
      // The original's client_request_id under a new key: the conflict, not a new repeat.
      const taken = await send(`key-third-${subject}`, `crid-original-${subject}`);
      assert.equal(taken.statusCode, 409, taken.body);
      assert.equal(taken.headers.location, `/api/v1/privacy/requests/${original.json().id}`);
      const rows = await f.t.services.database.db
        .selectFrom('privacy_requests')
        .select('id')
        .where('subject_id', '=', subject)
        .execute();
      assert.equal(rows.length, 2, 'nothing more was filed');
    });

    it('proceed sends a repeat on where filing would have (queued, or pending_approval), audited with the reason', async () => {
      const subject = (await person()).ghId;
      const first = await fileRequest(f, { subject_provider: 'github', subject_id: subject });
      const repeat = await fileRequest(f, { subject_provider: 'github', subject_id: subject });
      const proceeded = await post(repeat.id, 'proceed', { reason: 'the person asks about a new purchase' });
      assert.equal(proceeded.statusCode, 200, proceeded.body);
      assert.deepEqual(waiting(proceeded.json()), ['queued', null, first.id], 'related_request_id stays');
      const row = await requestRow(f, repeat.id);
      assert.deepEqual([row.attempts, row.next_attempt_at], [0, null]);
      const entry = (await auditOf(f, repeat.id)).find((e) => e.action === 'privacy_request.proceeded');
      assert.ok(entry?.actor.startsWith('token:'), 'the operator is named');
      assert.deepEqual(entry?.details, {
        from: 'action_required',
        to: 'queued',
        reason: 'the person asks about a new purchase',
        related_request_id: first.id,
      });
      assert.equal((await post(repeat.id, 'proceed', { reason: 'again' })).statusCode, 409, 'it no longer waits');
      await processAll(f);
      assert.equal((await requestRow(f, repeat.id)).status, 'completed');

      const strictFirst = await fileRequest(f, { workspace_id: 'strict', subject_provider: 'github', subject_id: subject });
      assert.equal(strictFirst.status, 'pending_approval');
      const strictRepeat = await fileRequest(f, { workspace_id: 'strict', subject_provider: 'github', subject_id: subject });
      assert.deepEqual(waiting(strictRepeat), ['action_required', 'repeat_request', strictFirst.id]);
      const toApproval = await post(strictRepeat.id, 'proceed', { reason: 'a different order' });
      assert.equal(toApproval.statusCode, 200, toApproval.body);
      assert.equal(toApproval.json().status, 'pending_approval', 'approval is still required');
    });

    it('reject tells the person the reason (GDPR Art. 12(5)); proceed and corrections on other requests are 409s that change nothing', async () => {
      const subject = `gh-${unique()}`;
      const first = await fileRequest(f, { subject_provider: 'github', subject_id: subject });
      const repeat = await fileRequest(f, {
        subject_provider: 'github',
        subject_id: subject,
        notify_email: 'person@example.test',
      });
      assert.equal(repeat.status_reason, 'repeat_request');
      const reason = 'Manifestly excessive: the same request was answered on 3 May';
      const rejected = await post(repeat.id, 'reject', { reason });
      assert.equal(rejected.statusCode, 200, rejected.body);
      assert.deepEqual(waiting(rejected.json()), ['rejected', reason, first.id]);
      const mail = await f.t.services.database.db
        .selectFrom('privacy_center_mails')
        .select(['payload'])
        .where('request_id', '=', repeat.id)
        .where('kind', '=', 'rejected')
        .executeTakeFirstOrThrow();
      const words = renderMail('rejected', JSON.parse(mail.payload) as MailPayload, null, null);
      assert.match(words.text, /declined your request/);
      assert.ok(words.text.includes(`The reason: ${reason}`), words.text);

      // Not waiting as a repeat: queued, rejected, a correction waiting for its values.
      const known = await person();
      const correction = await fileRequest(f, { request_type: 'correction', subject_provider: 'github', subject_id: known.ghId });
      await processAll(f);
      assert.deepEqual(waiting(await get(correction.id)), ['action_required', 'waiting for corrected values', null]);
      for (const id of [first.id, repeat.id, correction.id]) {
        const before = await requestRow(f, id);
        const entries = (await auditOf(f, id)).length;
        const refused = await post(id, 'proceed', { reason: 'go on' });
        assert.equal(refused.statusCode, 409, refused.body);
        assert.match(refused.json().detail, /does not wait as a repeated request/);
        assert.deepEqual(await requestRow(f, id), before, 'nothing changed');
        assert.equal((await auditOf(f, id)).length, entries, 'nothing audited');
      }
      // A correction filed as a repeat takes no corrected values until someone proceeds.
      const correctionRepeat = await fileRequest(f, {
        request_type: 'correction',
        subject_provider: 'github',
        subject_id: known.ghId,
      });
      assert.equal(correctionRepeat.status_reason, 'repeat_request');
      const corrections = await post(correctionRepeat.id, 'corrections', { changes: { name: 'Ada L.' } });
      assert.equal(corrections.statusCode, 409, corrections.body);
      assert.equal((await requestRow(f, correctionRepeat.id)).status_reason, 'repeat_request');
      const unknown = await post('pr_does_not_exist', 'proceed', { reason: 'x' });
      assert.equal(unknown.statusCode, 404);
      const noReason = await post(first.id, 'proceed', {});
      assert.equal(noReason.statusCode, 422);
      assert.deepEqual(noReason.json().detail[0].loc, ['body', 'reason']);
    });

    it('repeat_window_days outside 0–365 is a 422 at its field; nothing is stored; the larger window wins', async () => {
      const before = (
        await f.t.app.inject({ url: '/api/v1/policies/workspaces/beta', headers: { authorization: policyWriter } })
      ).json();
      for (const [value, type] of [
        [366, 'less_than_equal'],
        [-1, 'greater_than_equal'],
        [1.5, 'int_type'],
        ['30', 'int_type'],
      ] as const) {
        const res = await putPolicy('beta', { repeat_window_days: value });
        assert.equal(res.statusCode, 422, res.body);
        assert.deepEqual(
          res.json().detail.map((d: { type: string; loc: unknown[] }) => [d.type, d.loc]),
          [[type, ['body', 'repeat_window_days']]],
        );
      }
      const after = (
        await f.t.app.inject({ url: '/api/v1/policies/workspaces/beta', headers: { authorization: policyWriter } })
      ).json();
      assert.deepEqual(after, before, 'the layer is as it was');

      const repo = await f.t.app.inject({
        method: 'PUT',
        url: '/api/v1/policies/workspaces/beta/repositories/beta%2Fapi',
        headers: { authorization: policyWriter },
        payload: { repeat_window_days: 7 },
      });
      assert.equal(repo.statusCode, 200, repo.body);
      const effective = await f.t.app.inject({
        url: '/api/v1/policies/effective?workspace_id=beta&repository=beta/api',
        headers: { authorization: policyWriter },
      });
      assert.equal(effective.json().policy.repeat_window_days, 30, 'a repository cannot shorten the window');
      assert.equal(effective.json().sources.repeat_window_days, 'workspace');
    });
  });
}
