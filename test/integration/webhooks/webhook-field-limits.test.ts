/**
 * Issue 11 item 11: a 900 KB PR title was stored whole (and copied into every access package),
 * and an identity event dated 9999-12-31 was accepted and made its subject ignore every later
 * real event. Now titles are stored cut to 1 000 characters with a visible marker, and identity
 * events dated more than the 5-minute tolerance ahead are a 400 that stores nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHANGE_EVENT_BOUNDS, TRUNCATION_MARKER } from '../../../src/modules/change-events/change-event-bounds.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import {
  canonicalEvent,
  minutesFromNow,
  newStandardSecret,
  postIdentity,
  standardHeaders,
} from '../../helpers/identity-webhooks.js';
import { githubPullRequest, gitlabMergeRequest } from '../../helpers/webhook-payloads.js';
import { sendGithub, sendGitlab } from '../../helpers/webhook-requests.js';
import { tableCounts } from '../../hostile/table-counts.js';

const GH_SECRET = 'gh-secret-limits-1d9e70';
const GL_TOKEN = 'gl-token-limits-42ac0b';

for (const dialect of dialects()) {
  describe(`webhook field limits (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let identityId: string;
    const secret = newStandardSecret();
    const titleOf = async (eventId: string) =>
      (
        await t.services.database.db
          .selectFrom('change_events')
          .select('title')
          .where('id', '=', eventId)
          .executeTakeFirstOrThrow()
      ).title;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      await t.services.integrations.create(
        { kind: 'github', workspace_id: 'acme', namespace: 'Codertocat', secret: GH_SECRET },
        'test',
      );
      await t.services.integrations.create(
        { kind: 'gitlab', workspace_id: 'acme', namespace: 'gitlabhq', secret: GL_TOKEN },
        'test',
      );
      identityId = (
        await t.services.integrations.create(
          { kind: 'identity', workspace_id: 'acme', format: 'standard', subject_provider: 'sso', secret },
          'test',
        )
      ).id;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('a 900 KB title is stored cut to 1 000 characters, ending with the marker (both routes)', async () => {
      const huge = 'T'.repeat(900 * 1024);
      const pr = githubPullRequest('opened');
      pr.pull_request.title = huge;
      const gh = await sendGithub(t.app, { body: JSON.stringify(pr), secret: GH_SECRET });
      assert.equal(gh.statusCode, 200, gh.body.slice(0, 300));
      const mr = gitlabMergeRequest();
      mr.object_attributes.title = huge;
      const gl = await sendGitlab(t.app, { body: JSON.stringify(mr), token: GL_TOKEN });
      assert.equal(gl.statusCode, 200, gl.body.slice(0, 300));
      for (const res of [gh, gl]) {
        const title = (await titleOf(res.json().event_id)) ?? '';
        assert.equal(title.length, CHANGE_EVENT_BOUNDS.title);
        assert.ok(title.endsWith(TRUNCATION_MARKER), title.slice(-20));
        assert.equal(title, 'T'.repeat(CHANGE_EVENT_BOUNDS.title - TRUNCATION_MARKER.length) + TRUNCATION_MARKER);
      }
    });

    it('a title of exactly 1 000 characters is kept whole; a cut never splits a surrogate pair', async () => {
      const exact = 'x'.repeat(CHANGE_EVENT_BOUNDS.title);
      const pr = githubPullRequest('opened');
      pr.pull_request.title = exact;
      const kept = await sendGithub(t.app, { body: JSON.stringify(pr), secret: GH_SECRET });
      assert.equal(await titleOf(kept.json().event_id), exact);
      // An emoji (two UTF-16 units) straddling the cut point is dropped whole.
      const cut = CHANGE_EVENT_BOUNDS.title - TRUNCATION_MARKER.length;
      pr.pull_request.title = `${'y'.repeat(cut - 1)}😀${'z'.repeat(50)}`;
      const emoji = await sendGithub(t.app, { body: JSON.stringify(pr), secret: GH_SECRET });
      assert.equal(await titleOf(emoji.json().event_id), `${'y'.repeat(cut - 1)}${TRUNCATION_MARKER}`);
    });

    it('identity events dated beyond now + 5 minutes: 400, nothing stored; later real events still apply', async () => {
      const send = (id: string, occurredAt: string, data: Record<string, unknown>) => {
        const body = canonicalEvent(id, 'user.updated', occurredAt, { user_id: 'u_future', ...data });
        return postIdentity(t, body, standardHeaders(secret, `msg_${id}`, body), identityId);
      };
      const created = await send('evt_0', new Date().toISOString(), { email: 'first@example.com' });
      assert.equal(created.statusCode, 200, created.body);
      for (const occurredAt of ['9999-12-31T23:59:59Z', minutesFromNow(6).toISOString(), minutesFromNow(60 * 24).toISOString()]) {
        const before = await tableCounts(t.services);
        const res = await send(`evt_future_${occurredAt}`, occurredAt, { email: 'future@example.com' });
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), {
          detail: 'Identity event occurred_at is more than 5 minutes in the future: check the sender clock',
        });
        assert.deepEqual(await tableCounts(t.services), before, occurredAt);
      }
      // Within the tolerance (clock skew) is fine, and a later real event still applies.
      const skewed = await send('evt_1', minutesFromNow(4).toISOString(), { email: 'skewed@example.com' });
      assert.equal(skewed.statusCode, 200, skewed.body);
      assert.equal(skewed.json().status, 'accepted');
      const subject = await t.services.subjects.get('acme', 'sso', 'u_future');
      assert.equal(subject?.email, 'skewed@example.com');
    });
  });
}
