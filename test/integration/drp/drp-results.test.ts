/**
 * The status object's last rows (PRODUCT §2.19 "Status object"; docs/drp.md), through real HTTP
 * on SQLite and PostgreSQL, with a loopback callback receiver:
 * - a completed access is `fulfilled` with `results_url`, the person's status link (the page, its
 *   letter and its JSON package open with it; a changed token does not), and `expires_at`, the
 *   package's expiry once the retention sweeper computed it; the callback carries both, and the
 *   agent's GET answers the same object;
 * - past the package's expiry it is `expired` with `expires_at` and no `results_url`; the link
 *   answers 410;
 * - a deletion of a subject nobody knows, confirmed by the officer (§2.13 confirm-no-data), is
 *   `denied`/`no_match` "No personal data matching this identity is held.", and so is one
 *   completed without review (`confirm_no_data: false`).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { createRetentionSweeper } from '../../../src/jobs/retention-sweeper.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { addSystem, postResult, tasksOf } from '../../helpers/data-systems.js';
import { fixtureDrpAgent, TIMES } from '../../helpers/drp-agent.js';
import { joinDrpNetwork } from '../../helpers/drp-business.js';

const DAY = 24 * 60 * 60_000;
const BASE = 'https://privacy.acme.example';
const NO_MATCH = 'No personal data matching this identity is held.';
const log = pino({ level: 'silent' });

for (const dialect of dialects()) {
  describe(`DRP results: fulfilled with results_url and expires_at, expired, no_match (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    let token = '';
    let receiver: Server;
    let callbackUrl = '';
    const received: Record<string, unknown>[] = [];
    let now = Date.parse('2026-12-07T12:00:00.000Z');
    const clock = () => new Date(now);
    const agent = fixtureDrpAgent();
    const db = () => t.services.database.db;

    const exercise = async (fields: Record<string, unknown>) => {
      now += 1000;
      const res = await t.app.inject({
        method: 'POST',
        url: '/drp/v1/data-rights-request',
        headers: { authorization: `Bearer ${token}` },
        payload: agent.sign(
          agent.exerciseClaims('acme-retail', TIMES.fresh(clock()), { status_callback: callbackUrl, ...fields }),
        ),
      });
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json();
      const record = await db()
        .selectFrom('drp_requests')
        .select('privacy_request_id')
        .where('request_id', '=', answer.request_id)
        .executeTakeFirstOrThrow();
      const prId = record.privacy_request_id!;
      if (answer.status === 'open') await act(prId, 'approve', {});
      return { requestId: answer.request_id as string, prId };
    };
    const act = async (prId: string, action: string, payload: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${prId}/${action}`,
        headers: { authorization: admin },
        payload,
      });
      assert.equal(res.statusCode, 200, res.body);
    };
    const status = async (requestId: string) => {
      const res = await t.app.inject({
        url: `/drp/v1/data-rights-request/${requestId}`,
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Record<string, unknown>;
    };
    const processAll = async () => {
      const worker = createWorker({
        database: t.services.database,
        clock,
        log,
        pseudonymKey: t.services.keys.pseudonymKey,
        handlers: REQUEST_HANDLERS,
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 },
      });
      now += 1000;
      while (await worker.runOnce());
    };
    const sweepPackages = () =>
      createRetentionSweeper({ database: t.services.database, policies: t.services.policies, clock, log }).sweep(clock());
    const requestRow = (id: string) =>
      db().selectFrom('privacy_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    /** The path of a results link, without the service's public base. */
    const pathOf = (url: unknown) => {
      assert.equal(typeof url, 'string');
      assert.ok((url as string).startsWith(`${BASE}/`), url as string);
      return (url as string).slice(BASE.length);
    };

    before(async () => {
      receiver = createServer((req, res) => {
        let text = '';
        req.on('data', (chunk: Buffer) => (text += chunk.toString()));
        req.on('end', () => {
          received.push(JSON.parse(text) as Record<string, unknown>);
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/drp/update_status`;
      database = await dialect.create();
      t = await startTestApp(database, {
        clock,
        env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', PUBLIC_BASE_URL: BASE },
      });
      admin = await t.bearer(['admin', 'privacy:read', 'privacy:write', 'tasks:write'], ['acme']);
      await t.services.controllers.put('acme', { name: 'Acme Retail Inc.', contact_email: 'privacy@acme.example' }, 'test');
      // A data system answers each access: what makes the person "found".
      await addSystem(t, admin, { key: 'crm', name: 'CRM', categories: ['user'], request_types: ['access'] });
      token = await joinDrpNetwork(t, admin, agent, { agentName: 'Test agent', now: clock() });
    });
    after(async () => {
      await t.close();
      await database.drop();
      await new Promise((resolve) => receiver.close(resolve));
    });

    it('a completed access: fulfilled with results_url (the status link) and expires_at, by GET and callback; then expired', async () => {
      const { requestId, prId } = await exercise({ exercise: 'access', email: 'ana@example.com' });
      await processAll();
      const [task] = await tasksOf(db(), prId);
      assert.ok(task, 'the CRM has a task');
      const answered = await postResult(t, admin, task.id, { outcome: 'completed', records: { user: 2 } });
      assert.equal(answered.statusCode, 200, answered.body);
      assert.equal((await requestRow(prId)).status, 'completed');

      // Before the retention sweeper ran, the expiry is not known yet: no expires_at, no guess.
      const early = await status(requestId);
      assert.equal(early.status, 'fulfilled');
      assert.equal(early.expires_at, undefined);
      const url = early.results_url as string;
      assert.match(url, new RegExp(`^${BASE}/privacy-center/acme/status/${prId}\\?token=[A-Za-z0-9_-]{43}$`));
      // The same link every time (the callbacks compare objects); one token row, stored as a hash.
      assert.equal((await status(requestId)).results_url, url);
      const tokenText = new URL(url).searchParams.get('token')!;
      const stored = await db().selectFrom('privacy_center_status_tokens').selectAll().where('request_id', '=', prId).execute();
      assert.equal(stored.length, 1);
      assert.notEqual(stored[0]!.token_hash, tokenText);

      await sweepPackages();
      const result = await db()
        .selectFrom('request_results')
        .selectAll()
        .where('request_id', '=', prId)
        .executeTakeFirstOrThrow();
      assert.ok(result.package_expires_at);
      // The callback carries the object the agent reads: fulfilled, the link and the expiry.
      received.length = 0;
      assert.ok((await t.services.drpCallbacks.sweep()) >= 1);
      await t.services.drpCallbacks.deliver();
      const last = received.at(-1)!;
      assert.deepEqual(
        [last.request_id, last.status, last.results_url, last.expires_at],
        [requestId, 'fulfilled', url, result.package_expires_at],
      );
      assert.equal(last.reason, undefined);
      assert.deepEqual(await status(requestId), last);
      assert.equal(await t.services.drpCallbacks.sweep(), 0, 'nothing changed since');
      // The token is kept nowhere in clear: not in the last object answered, not in a callback's payload.
      const kept = await db()
        .selectFrom('drp_requests')
        .select('last_status')
        .where('request_id', '=', requestId)
        .executeTakeFirstOrThrow();
      const payloads = await db().selectFrom('drp_callbacks').select('payload').where('request_id', '=', requestId).execute();
      assert.ok(payloads.length >= 1);
      for (const text of [kept.last_status!, ...payloads.map((p) => p.payload)]) assert.ok(!text.includes(tokenText), text);
      assert.match(kept.last_status!, /token=sha256:[0-9a-f]{64}"/);

      // The link opens the person's status page, the letter and the JSON package; a changed token does not.
      const page = await t.app.inject({ url: pathOf(url) });
      assert.equal(page.statusCode, 200, page.body);
      const letter = await t.app.inject({ url: pathOf(url).replace('?token=', '/letter?token=') });
      assert.equal(letter.statusCode, 200);
      const pkg = await t.app.inject({ url: pathOf(url).replace('?token=', '/package.json?token=') });
      assert.equal(pkg.statusCode, 200);
      assert.equal(pkg.json().request_id, prId);
      const forged = pathOf(url).replace(/token=./, (m) => (m.endsWith('A') ? 'token=B' : 'token=A'));
      assert.equal((await t.app.inject({ url: forged })).statusCode, 404);

      // Past the package's expiry: expired, expires_at kept, the link gone (410).
      now = Date.parse(result.package_expires_at!) + DAY;
      const expired = await status(requestId);
      assert.deepEqual(
        [expired.status, expired.expires_at, expired.results_url],
        ['expired', result.package_expires_at, undefined],
      );
      await sweepPackages();
      assert.deepEqual(await status(requestId), expired, 'the same once the sweeper deleted the package');
      assert.equal((await t.app.inject({ url: pathOf(url) })).statusCode, 410);
      received.length = 0;
      assert.equal(await t.services.drpCallbacks.sweep(), 0, 'the GET already answered it');
    });

    it('a deletion of a subject nobody knows, confirmed by the officer: denied/no_match, by GET and callback', async () => {
      const { requestId, prId } = await exercise({ exercise: 'deletion', email: 'nobody@example.com' });
      await processAll();
      const waiting = await requestRow(prId);
      assert.deepEqual([waiting.status, waiting.status_reason], ['action_required', 'identity_unmatched']);
      const reviewing = await status(requestId);
      assert.deepEqual([reviewing.status, reviewing.reason], ['in_progress', undefined]);
      await act(prId, 'confirm-no-data', { reason: 'searched by hand' });
      received.length = 0;
      assert.equal(await t.services.drpCallbacks.sweep(), 1);
      await t.services.drpCallbacks.deliver();
      const [sent] = received;
      assert.deepEqual(
        [sent?.status, sent?.reason, sent?.processing_details, sent?.results_url, sent?.expires_at],
        ['denied', 'no_match', NO_MATCH, undefined, undefined],
      );
      assert.deepEqual(await status(requestId), sent);
      const listed = await t.app.inject({
        url: '/api/v1/drp/requests?workspace_id=acme&status=denied',
        headers: { authorization: admin },
      });
      const item = (listed.json().items as { request_id: string; reason: string }[]).find((i) => i.request_id === requestId);
      assert.equal(item?.reason, 'no_match', "the officer's list says the same");
    });

    it('an access of an unknown subject completed without review (confirm_no_data: false): denied/no_match too', async () => {
      await t.services.policies.putLayer('acme', null, { confirm_no_data: false }, 'test');
      try {
        const { requestId, prId } = await exercise({ exercise: 'access', email: 'ghost@example.com' });
        await processAll();
        const [task] = await tasksOf(db(), prId);
        const answered = await postResult(t, admin, task!.id, { outcome: 'completed', records: { user: 0 } });
        assert.equal(answered.statusCode, 200, answered.body);
        assert.equal((await requestRow(prId)).status, 'completed');
        const object = await status(requestId);
        assert.deepEqual(
          [object.status, object.reason, object.processing_details, object.results_url],
          ['denied', 'no_match', NO_MATCH, undefined],
        );
        const tokens = await db().selectFrom('privacy_center_status_tokens').selectAll().where('request_id', '=', prId).execute();
        assert.equal(tokens.length, 0, 'no link was made');
      } finally {
        await t.services.policies.putLayer('acme', null, { confirm_no_data: true }, 'test');
      }
    });
  });
}
