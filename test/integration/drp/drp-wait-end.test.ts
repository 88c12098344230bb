/**
 * The end of a DRP request's wait for the person's code (PRODUCT §2.19 "Identity") on SQLite and
 * PostgreSQL: once its 14 days are over no code is taken, even one mailed on the last day and
 * still within its 10 minutes, and even before the expiry sweep ran; the sweep leaves a wait the
 * person verified after it read it (the person's next entry files it), and denies the others.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { endExpiredWait } from '../../../src/workflows/drp/expire-drp-waits.js';
import { newestMail } from '../../helpers/center-outbox.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { fixtureDrpAgent, TIMES } from '../../helpers/drp-agent.js';
import { joinDrpNetwork } from '../../helpers/drp-business.js';
import { postForm } from '../../helpers/form-post.js';

const DAY_MS = 24 * 3600 * 1000;

for (const dialect of dialects()) {
  describe(`DRP: the end of a wait for the person's code (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let token: string;
    let now = Date.parse('2026-12-08T12:00:00.000Z');
    const agent = fixtureDrpAgent();
    const db = () => t.services.database.db;
    /** An exercise the person must confirm: its request id and its page's path and token. */
    const waiting = async (email: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/drp/v1/data-rights-request',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        payload: agent.sign(agent.exerciseClaims('acme-retail', TIMES.fresh(new Date(now)), { email, email_verified: false })),
      });
      assert.equal(res.statusCode, 200, res.body);
      const url = new URL(res.json().user_verification_url as string);
      return { id: res.json().request_id as string, path: url.pathname, capability: url.searchParams.get('token')! };
    };
    const post = (path: string, fields: Record<string, string>) => postForm(t, path, fields);
    const record = (id: string) =>
      db()
        .selectFrom('drp_requests')
        .select(['status', 'reason', 'privacy_request_id'])
        .where('request_id', '=', id)
        .executeTakeFirstOrThrow();
    const waitOf = (id: string) =>
      db().selectFrom('drp_user_verifications').select('verified_at').where('request_id', '=', id).executeTakeFirst();

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: () => new Date(now) });
      const admin = await t.bearer(['admin', 'privacy:read', 'privacy:write'], ['acme']);
      token = await joinDrpNetwork(t, admin, agent, { agentName: 'Helpful Agent', now: new Date(now) });
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('takes no code once the 14 days are over, before the sweep too; the sweep then denies it', async () => {
      const started = now;
      const wait = await waiting('lee@example.com');
      now = started + 14 * DAY_MS - 5 * 60_000;
      assert.equal((await post(wait.path, { token: wait.capability, step: 'send' })).statusCode, 200);
      const { code } = await newestMail(t, 'code');
      now = started + 14 * DAY_MS + 60_000; // the code's 10 minutes have not passed; the wait's 14 days have
      const late = await post(wait.path, { token: wait.capability, step: 'confirm', code: code! });
      assert.equal(late.statusCode, 404, 'the page says there is nothing to confirm');
      assert.equal((await t.app.inject({ url: `${wait.path}?token=${wait.capability}` })).statusCode, 404);
      assert.deepEqual(await record(wait.id), { status: 'awaiting_person', reason: null, privacy_request_id: null });
      await t.services.drpCallbacks.sweep();
      assert.deepEqual(await record(wait.id), { status: 'denied', reason: 'insuf_verification', privacy_request_id: null });
      assert.equal(await waitOf(wait.id), undefined, 'the wait and its sealed address are gone');
    });

    it('the sweep leaves a wait verified after it read it, and the next entry files it', async () => {
      const started = now;
      const wait = await waiting('max@example.com');
      assert.equal((await post(wait.path, { token: wait.capability, step: 'send' })).statusCode, 200);
      const { code } = await newestMail(t, 'code');
      // The person's right code committed between the sweep's read and its end of this wait.
      const verifiedAt = new Date(now).toISOString();
      await db()
        .updateTable('drp_user_verifications')
        .set({ verified_at: verifiedAt })
        .where('request_id', '=', wait.id)
        .execute();
      now = started + 14 * DAY_MS + 60_000;
      assert.equal(await endExpiredWait(db(), wait.id, new Date(now).toISOString()), false);
      assert.deepEqual(await record(wait.id), { status: 'awaiting_person', reason: null, privacy_request_id: null });
      assert.deepEqual(await waitOf(wait.id), { verified_at: verifiedAt });
      const filed = await post(wait.path, { token: wait.capability, step: 'confirm', code: code! });
      assert.equal(filed.statusCode, 200, filed.body);
      const after = await record(wait.id);
      assert.equal(after.status, 'filed');
      assert.ok(after.privacy_request_id, 'a privacy request was filed');
    });
  });
}
