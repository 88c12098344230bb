/**
 * DRP `need_user_verification` (PRODUCT §2.19 "Identity"; DRP 1.0 §3.02.1) on SQLite and
 * PostgreSQL, with real Ed25519 signatures from the test agent: an exercise the person must
 * confirm is not a privacy request until their mailed code is right; the page at
 * `user_verification_url` mails the code only on a POST, files with the exercise's
 * `received_at`, redirects to an `https://` `redirect_to`; the 14 days end in
 * `denied`/`insuf_verification`; a revoke ends the wait; `sale:opt-in` withdraws an opt-out only
 * after the person's code. Nothing of the address is stored in clear.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { newestMail } from '../../helpers/center-outbox.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { fixtureDrpAgent, TIMES } from '../../helpers/drp-agent.js';
import { joinDrpNetwork } from '../../helpers/drp-business.js';
import { postForm } from '../../helpers/form-post.js';

for (const dialect of dialects()) {
  describe(`DRP need_user_verification (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    let token: string;
    let now = Date.parse('2026-12-07T12:00:00.000Z');
    const agent = fixtureDrpAgent();
    const db = () => t.services.database.db;
    const at = () => TIMES.fresh(new Date(now));
    const exercise = (fields: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/drp/v1/data-rights-request',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        payload: agent.sign(agent.exerciseClaims('acme-retail', at(), fields)),
      });
    const status = (id: string) =>
      t.app.inject({ url: `/drp/v1/data-rights-request/${id}`, headers: { authorization: `Bearer ${token}` } });
    /** The page's path and token from a `user_verification_url`. */
    const pageOf = (url: string) => {
      const parsed = new URL(url);
      return { path: parsed.pathname, token: parsed.searchParams.get('token')! };
    };
    const post = (path: string, fields: Record<string, string>) => postForm(t, path, fields);
    const codeMails = async () =>
      db().selectFrom('privacy_center_mails').select(['recipient', 'payload']).where('kind', '=', 'code').execute();

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: () => new Date(now) });
      admin = await t.bearer(['admin', 'privacy:read', 'privacy:write'], ['acme']);
      token = await joinDrpNetwork(t, admin, agent, { agentName: 'Helpful Agent', now: new Date(now) });
    });
    beforeEach(() => {
      now += 60_000;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('waits for the code: nothing filed, the page mails the code only on POST, the right code files with the exercise time and redirects', async () => {
      const filedBefore = (await db().selectFrom('privacy_requests').select('id').execute()).length;
      const res = await exercise({ email: 'pat.person@example.com', email_verified: false, 'agent-request-id': 'uv-1' });
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json();
      const receivedAt = answer.received_at;
      assert.deepEqual([answer.status, answer.reason], ['in_progress', 'need_user_verification']);
      assert.equal(answer.expires_at, new Date(now + 14 * 24 * 3600 * 1000).toISOString());
      const { path, token: capability } = pageOf(answer.user_verification_url);
      assert.equal(path, `/privacy-center/acme/agent-requests/${answer.request_id}/verify`);
      // The agent reads the same link again; nothing stores it or the address in clear.
      assert.deepEqual((await status(answer.request_id)).json(), answer);
      const stored = JSON.stringify([
        await db().selectFrom('drp_requests').selectAll().execute(),
        await db().selectFrom('drp_user_verifications').selectAll().execute(),
      ]);
      assert.doesNotMatch(stored, /pat\.person|example\.com/);
      assert.ok(!stored.includes(capability));
      assert.equal((await db().selectFrom('privacy_requests').select('id').execute()).length, filedBefore);

      // GET shows who asked what, the masked address, and sends nothing.
      const mailsBefore = (await codeMails()).length;
      const page = await t.app.inject({
        url: `${path}?token=${capability}&redirect_to=https://agent.example/done&request_id=${answer.request_id}`,
      });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Helpful Agent, acting as your authorized agent/);
      assert.match(page.body, /delete the personal data it holds about you/);
      assert.match(page.body, /p•••@example\.com/);
      assert.doesNotMatch(page.body, /pat\.person/);
      assert.equal((await codeMails()).length, mailsBefore);
      // A wrong token, another request_id, or a malformed id open nothing.
      for (const url of [
        `${path}?token=${'A'.repeat(43)}`,
        `${path}?token=${capability}&request_id=7d8b1a9e-0000-4000-8000-000000000000`,
        `/privacy-center/acme/agent-requests/not-a-uuid/verify?token=${capability}`,
        `/privacy-center/globex/agent-requests/${answer.request_id}/verify?token=${capability}`,
      ]) {
        const gone = await t.app.inject({ url });
        assert.equal(gone.statusCode, 404, url);
        assert.match(gone.body, /Nothing to confirm here/);
      }

      // A code before any was sent is refused; then the POST mails one to the agent's address.
      const early = await post(path, { token: capability, step: 'confirm', code: '123456' });
      assert.equal(early.statusCode, 409);
      const sent = await post(path, { token: capability, step: 'send', redirect_to: 'https://agent.example/done' });
      assert.equal(sent.statusCode, 200);
      assert.match(sent.body, /A code is on its way/);
      const mails = await codeMails();
      assert.equal(mails.length, mailsBefore + 1);
      assert.equal(mails.at(-1)!.recipient, 'pat.person@example.com');
      assert.doesNotMatch(mails.at(-1)!.payload, /"code":/);
      const { code } = await newestMail(t, 'code');
      assert.match(code!, /^\d{6}$/);

      const wrong = await post(path, { token: capability, step: 'confirm', code: code === '000000' ? '111111' : '000000' });
      assert.equal(wrong.statusCode, 403);
      assert.match(wrong.body, /Tries left: 2/);
      now += 60_000;
      const right = await post(path, {
        token: capability,
        step: 'confirm',
        code: code!,
        redirect_to: 'https://agent.example/done',
      });
      assert.equal(right.statusCode, 303, right.body);
      assert.equal(right.headers.location, 'https://agent.example/done');

      const record = await db()
        .selectFrom('drp_requests')
        .selectAll()
        .where('request_id', '=', answer.request_id)
        .executeTakeFirstOrThrow();
      assert.equal(record.status, 'filed');
      assert.notEqual(record.privacy_request_id, null);
      const pr = await t.app.inject({
        url: `/api/v1/privacy/requests/${record.privacy_request_id}`,
        headers: { authorization: admin },
      });
      const request = pr.json();
      assert.equal(request.request_type, 'deletion');
      assert.equal(request.subject_id, 'pat.person@example.com');
      assert.equal(request.received_at, receivedAt);
      assert.equal(request.intake_ref, `drp:${answer.request_id}`);
      assert.equal(request.agent.id, agent.agentId);
      const [created] = await db()
        .selectFrom('audit_events')
        .select('actor')
        .where('action', '=', 'privacy_request.created')
        .where('target_id', '=', request.id)
        .execute();
      assert.equal(created!.actor, `agent:${agent.agentId}`);
      const after = (await status(answer.request_id)).json();
      assert.ok(['open', 'in_progress'].includes(after.status));
      assert.equal(after.reason, undefined);
      assert.equal(after.user_verification_url, undefined);
      assert.equal(after.expected_by, request.extended_due_at ?? request.due_at);
      // The wait is gone with its sealed address; the link opens nothing now.
      assert.equal((await db().selectFrom('drp_user_verifications').select('request_id').execute()).length, 0);
      assert.equal((await t.app.inject({ url: `${path}?token=${capability}` })).statusCode, 404);
    });

    it('a redirect_to that is not https is not followed: the page says it is done', async () => {
      const res = await exercise({ email: 'lee@example.com', email_verified: false });
      const { path, token: capability } = pageOf(res.json().user_verification_url);
      await post(path, { token: capability, step: 'send' });
      const { code } = await newestMail(t, 'code');
      const done = await post(path, {
        token: capability,
        step: 'confirm',
        code: code!,
        redirect_to: 'http://agent.example/done',
      });
      assert.equal(done.statusCode, 200);
      assert.equal(done.headers.location, undefined);
      assert.match(done.body, /Request confirmed/);
    });

    it('an expired code is 410, three wrong tries void it (429); a new code works; five codes at most', async () => {
      const res = await exercise({ email: 'kim@example.com', email_verified: false });
      const { path, token: capability } = pageOf(res.json().user_verification_url);
      await post(path, { token: capability, step: 'send' });
      now += 11 * 60_000;
      const late = await post(path, { token: capability, step: 'confirm', code: (await newestMail(t, 'code')).code! });
      assert.equal(late.statusCode, 410);
      await post(path, { token: capability, step: 'send' });
      const { code } = await newestMail(t, 'code');
      const other = code === '000000' ? '111111' : '000000';
      for (const expected of [403, 403, 403, 429])
        assert.equal((await post(path, { token: capability, step: 'confirm', code: other })).statusCode, expected);
      assert.equal((await post(path, { token: capability, step: 'confirm', code: code! })).statusCode, 429);
      for (let i = 0; i < 3; i++) assert.equal((await post(path, { token: capability, step: 'send' })).statusCode, 200);
      assert.equal((await post(path, { token: capability, step: 'send' })).statusCode, 429);
      assert.equal(res.json().request_id.length, 36);
      const record = await db()
        .selectFrom('drp_requests')
        .select(['status', 'privacy_request_id'])
        .where('request_id', '=', res.json().request_id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(record, { status: 'awaiting_person', privacy_request_id: null });
    });

    it('after 14 days without the code: denied insuf_verification, the wait deleted; a revoke ends a wait too', async () => {
      const lapsed = (await exercise({ email: 'sam@example.com', email_verified: false })).json();
      const revokedOne = (await exercise({ email: 'ray@example.com', email_verified: false })).json();
      const revoke = await t.app.inject({
        method: 'DELETE',
        url: `/drp/v1/data-rights-request/${revokedOne.request_id}`,
        headers: { authorization: `Bearer ${token}` },
        payload: agent.sign({ reason: 'The person asked us to stop' }),
      });
      assert.equal(revoke.statusCode, 200, revoke.body);
      assert.equal(revoke.json().status, 'revoked');
      assert.equal(
        (await t.app.inject({ url: revokedOne.user_verification_url.replace(/^https?:\/\/[^/]+/, '') })).statusCode,
        404,
      );

      now += 14 * 24 * 3600 * 1000 - 120_000;
      await t.services.drpCallbacks.sweep();
      assert.equal((await status(lapsed.request_id)).json().status, 'in_progress');
      now += 180_000;
      await t.services.drpCallbacks.sweep();
      const ended = (await status(lapsed.request_id)).json();
      assert.deepEqual([ended.status, ended.reason], ['denied', 'insuf_verification']);
      assert.match(ended.processing_details, /did not confirm/);
      const waits = await db().selectFrom('drp_user_verifications').select('request_id').execute();
      assert.ok(!waits.some((w) => [lapsed.request_id, revokedOne.request_id].includes(w.request_id)));
      assert.equal((await t.app.inject({ url: lapsed.user_verification_url.replace(/^https?:\/\/[^/]+/, '') })).statusCode, 404);
    });

    it('a code entered while the agent revokes: the request ends either filed and open or revoked with nothing open', async () => {
      const outcomes = new Set<string>();
      for (let i = 0; i < 8; i++) {
        const waiting = (
          await exercise({ email: `race-${i}@example.com`, email_verified: false, 'agent-request-id': `race-${i}` })
        ).json();
        const { path, token: capability } = pageOf(waiting.user_verification_url);
        assert.equal((await post(path, { token: capability, step: 'send' })).statusCode, 200);
        const { code } = await newestMail(t, 'code');
        const confirm = () => post(path, { token: capability, step: 'confirm', code: code! });
        const revoke = () =>
          t.app.inject({
            method: 'DELETE',
            url: `/drp/v1/data-rights-request/${waiting.request_id}`,
            headers: { authorization: `Bearer ${token}` },
            payload: agent.sign({ reason: `race ${i}` }),
          });
        // Both orders of starting; the two interleave at every await.
        const [confirmed, revoked] =
          i % 2 === 0
            ? await Promise.all([confirm(), revoke()])
            : await Promise.all([revoke(), confirm()]).then(([r, c]) => [c, r] as const);
        assert.ok([200, 404].includes(confirmed.statusCode), confirmed.body);
        assert.equal(revoked.statusCode, 200, revoked.body);
        const record = await db()
          .selectFrom('drp_requests')
          .select(['revoked', 'privacy_request_id'])
          .where('request_id', '=', waiting.request_id)
          .executeTakeFirstOrThrow();
        const filed =
          record.privacy_request_id === null
            ? undefined
            : await db()
                .selectFrom('privacy_requests')
                .select('status')
                .where('id', '=', record.privacy_request_id)
                .executeTakeFirst();
        const answer = (await status(waiting.request_id)).json();
        if (Number(record.revoked) === 1) {
          assert.equal(answer.status, 'revoked');
          assert.ok(filed === undefined || filed.status === 'canceled', `revoked, yet its request is ${filed?.status}`);
          outcomes.add(filed === undefined ? 'revoked before filing' : 'filed, then canceled');
        } else {
          assert.ok(filed && filed.status !== 'canceled', 'not revoked, so filed and open');
          outcomes.add('filed');
        }
        assert.equal(
          (
            await db()
              .selectFrom('drp_user_verifications')
              .select('request_id')
              .where('request_id', '=', waiting.request_id)
              .execute()
          ).length,
          0,
          'no wait is left',
        );
        now += 60_000;
      }
      assert.ok(outcomes.size > 0);
    });

    it('sale:opt-in: fulfilled at once with no opt-out on record; with one, withdrawn only after the person’s code', async () => {
      const nothing = await exercise({ exercise: 'sale:opt-in', email: 'ola@example.com' });
      assert.equal(nothing.json().status, 'fulfilled');
      const optOut = await exercise({ exercise: 'sale:opt-out', email: 'ola@example.com' });
      assert.equal(optOut.statusCode, 200, optOut.body);
      const preference = async () =>
        (
          await t.app.inject({
            url: '/api/v1/privacy/preferences?workspace_id=acme&subject_provider=email&subject_id=ola@example.com',
            headers: { authorization: admin },
          })
        ).json();
      assert.match(JSON.stringify(await preference()), /"choice":"opt_out"/);
      now += 60_000;
      const optIn = (await exercise({ exercise: 'sale:opt-in', email: 'ola@example.com', email_verified: true })).json();
      assert.deepEqual([optIn.status, optIn.reason], ['in_progress', 'need_user_verification']);
      assert.match(JSON.stringify(await preference()), /"choice":"opt_out"/);
      const { path, token: capability } = pageOf(optIn.user_verification_url);
      const page = await t.app.inject({ url: `${path}?token=${capability}` });
      assert.match(page.body, /withdraw your opt-out of the sale or sharing/);
      await post(path, { token: capability, step: 'send' });
      const { code } = await newestMail(t, 'code');
      now += 60_000;
      assert.equal((await post(path, { token: capability, step: 'confirm', code: code! })).statusCode, 200);
      assert.match(JSON.stringify(await preference()), /"choice":"opt_in"/);
      assert.equal((await status(optIn.request_id)).json().reason, undefined);
    });
  });
}
