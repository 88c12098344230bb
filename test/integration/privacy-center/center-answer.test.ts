/**
 * The person's answer on the privacy center (issue 32 item 8, PRODUCT §2.17, §2.13, §2.15):
 * - the status page of a completed access links the machine-readable JSON package (GDPR Art. 20)
 *   under the same capability token and expiry as the page: the package as the API serves it
 *   with the right token, a 404 for a wrong one (and for a request with no package yet), a 410
 *   once the package expired, as the page;
 * - a deletion's confirmation says what was kept and why, in plain words, the same items on the
 *   status page, in the "done" mail (received by a real SMTP server) and in the deletion report:
 *   the record of the request itself, an access answer not yet downloaded (kept in transit), and
 *   what a data system kept with its reason (a legal hold).
 * On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { type MailLoop, startMailLoop } from '../../../src/jobs/mail-delivery-loop.js';
import { createRetentionSweeper } from '../../../src/jobs/retention-sweeper.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { createMailer, type Mailer } from '../../../src/modules/privacy-center/mailer.js';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { fileThroughCenter } from '../../helpers/center-outbox.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { addSystem, postResult, tasksOf } from '../../helpers/data-systems.js';
import { type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp-receiver.js';

const DAY = 24 * 60 * 60_000;
const HOLD = 'Invoices: kept ten years under tax law';
const log = pino({ level: 'silent' });

for (const dialect of dialects()) {
  describe(`the person's answer on the privacy center (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let receiver: SmtpReceiver;
    let mailer: Mailer;
    let loop: MailLoop;
    let admin: string;
    let now = Date.parse('2026-11-02T09:00:00.000Z');
    const clock = () => new Date(now);
    const db = () => t.services.database.db;

    /** Files through the center's JSON API and verifies with the mailed code, 30 s later. @returns the request id and its status token. */
    const fileByCenter = (requestType: string, email: string) =>
      fileThroughCenter(t, { workspace: 'acme', requestType, email, beforeVerify: () => (now += 30_000) });
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
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    const statusOf = async (id: string) =>
      (await db().selectFrom('privacy_requests').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

    before(async () => {
      database = await dialect.create();
      receiver = await startSmtpReceiver();
      t = await startTestApp(database, {
        env: {
          SMTP_URL: receiver.url,
          PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '0',
          PRIVACY_CENTER_CODES_PER_HOUR: '0',
        },
        clock,
      });
      admin = await t.bearer(['admin', 'privacy:read', 'tasks:write'], ['acme']);
      await t.services.controllers.put('acme', { name: 'Acme GmbH', contact_email: 'privacy@acme.example' }, 'test');
      await t.services.privacyCenter.put('acme', { enabled: true, request_types: ['access', 'deletion'] }, 'test');
      // The people here are known to no store of this service: without this their requests would
      // wait for an identity review (PRODUCT §2.13), which is not what these tests are about.
      await t.services.policies.putLayer('acme', null, { confirm_no_data: false }, 'test');
      mailer = createMailer(receiver.url, 'privacy@acme.example');
      loop = startMailLoop({
        db: db(),
        clock,
        mailer,
        controllers: t.services.controllers,
        secretBox: t.services.secretBox,
        requestResults: t.services.requestResults,
        publicBaseUrl: 'http://center.example',
        pollMs: 3_600_000,
        log,
      });
    });
    after(async () => {
      await loop.stop();
      mailer.close();
      await t.close();
      await receiver.close();
      await database.drop();
    });

    it('a completed access links its JSON package under the status token: 200 with it, 404 without, 410 once expired', async () => {
      const { id, token } = await fileByCenter('access', 'lea@example.com');
      const path = `/privacy-center/acme/status/${id}/package.json`;
      assert.equal((await get(`${path}?token=${token}`)).statusCode, 404, 'not completed yet: no package');
      await processAll();
      assert.equal(await statusOf(id), 'completed');
      const pending = await fileByCenter('access', 'max@example.com');

      const page = await get(`/privacy-center/acme/status/${id}?token=${token}`);
      assert.equal(page.statusCode, 200, page.body);
      const href = /href="([^"]+\/package\.json\?token=[^"]+)"/.exec(page.body)?.[1]?.replaceAll('&amp;', '&');
      assert.equal(href, `${path}?token=${token}`);
      assert.match(page.body, /Download the same answer as a machine-readable file \(JSON\)/);

      const wrong = await get(`${path}?token=${'x'.repeat(43)}`);
      assert.equal(wrong.statusCode, 404);
      assert.deepEqual(Object.keys(wrong.json()), ['detail']);
      assert.equal((await get(path)).statusCode, 404, 'no token');
      assert.equal((await get(`${path}?token=${pending.token}`)).statusCode, 404, "another request's token");
      const queued = await get(`/privacy-center/acme/status/${pending.id}/package.json?token=${pending.token}`);
      assert.equal(queued.statusCode, 404, 'a request not answered yet has no package');

      const res = await get(href!);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.headers['content-disposition'], `attachment; filename="personal-data-${id}.json"`);
      assert.equal(res.headers['cache-control'], 'no-store');
      const pkg = res.json();
      assert.equal(pkg.format, 'privacy-access/1');
      assert.equal(pkg.request_id, id);
      assert.equal(pkg.controller.name, 'Acme GmbH');
      const api = await t.app.inject({ url: `/api/v1/privacy/requests/${id}/package`, headers: { authorization: admin } });
      assert.deepEqual(pkg, api.json(), 'the same package the API serves');

      now += 31 * DAY;
      await createRetentionSweeper({ database: t.services.database, policies: t.services.policies, clock, log }).sweep(
        new Date(now),
      );
      const gone = await get(`/privacy-center/acme/status/${id}?token=${token}`);
      assert.equal(gone.statusCode, 410, 'the page');
      assert.match(
        gone.body,
        /<a href="\/privacy-center\/acme\/">File a new request<\/a>/,
        'a way back to the form (issue 33 item 8)',
      );
      const expired = await get(href!);
      assert.equal(expired.statusCode, 410, 'the package, as the page');
      assert.match(expired.json().detail, /no longer available/);
    });

    it('a deletion confirmation says what was kept and why: on the status page, in the "done" mail and in the report', async () => {
      await addSystem(t, admin, { key: 'crm', name: 'CRM', categories: ['user'], request_types: ['deletion'] });
      const access = await fileByCenter('access', 'kim@example.com');
      await processAll();
      assert.equal(await statusOf(access.id), 'completed', 'answered, not fetched yet');
      const deletion = await fileByCenter('deletion', 'kim@example.com');
      await processAll();
      const [task] = await tasksOf(db(), deletion.id);
      assert.equal(task?.system_key, 'crm');
      const answered = await postResult(t, admin, task!.id, {
        outcome: 'completed',
        erased: { 'user.contact.email': 1 },
        kept: [{ category: 'user.name', reason: HOLD }],
      });
      assert.equal(answered.statusCode, 200, answered.body);
      assert.equal(await statusOf(deletion.id), 'completed');

      const expected = [
        {
          what: 'The record of this request: what you asked for, when, and how we answered it',
          why:
            'The law requires us to be able to prove that we answered your request (GDPR Art. 5(2) and 17(3)(b)). ' +
            'It keeps only what the request itself says: what you asked for, when, and the identity you gave (such as your e-mail address).',
        },
        {
          what: `Our answer to your request ${access.id}, which you have not downloaded yet`,
          why: 'So that the answer we owe you still reaches you. It is deleted like the rest once you download it, or when its time runs out, whichever comes first.',
        },
        {
          what: 'A scrambled code of each identity of yours we erased (such as your e-mail address), from which it cannot be read back',
          why: 'So that anything we receive about it later is stored without your identity.',
        },
        { what: 'Name in CRM', why: HOLD },
      ];
      const report = await t.app.inject({
        url: `/api/v1/privacy/requests/${deletion.id}/report`,
        headers: { authorization: admin },
      });
      assert.equal(report.statusCode, 200, report.body);
      assert.deepEqual(report.json().kept, expected);

      const page = await get(`/privacy-center/acme/status/${deletion.id}?token=${deletion.token}`);
      assert.equal(page.statusCode, 200, page.body);
      assert.match(page.body, /Acme GmbH deleted your personal data on [^<]+, except what is listed below\./);
      assert.match(page.body, /<h3>What we kept, and why<\/h3>/);
      for (const item of expected) {
        const escaped = (s: string) => s.replaceAll('(', '\\(').replaceAll(')', '\\)').replaceAll('.', '\\.');
        assert.match(page.body, new RegExp(`<li><strong>${escaped(item.what)}\\.</strong> ${escaped(item.why)}</li>`));
      }

      await loop.round();
      const done = (await receiver.waitFor(1)).find(
        (m) => /has finished your request for deletion of your personal data/.test(m.text) && m.to.includes('kim@example.com'),
      );
      assert.ok(done, receiver.mails.map((m) => m.subject).join(' | '));
      assert.match(done.text, /What we kept, and why:/);
      for (const item of expected) assert.ok(done.text.includes(`- ${item.what}: ${item.why}`), done.text);
      assert.match(done.text, /status\/pr_[0-9A-Z]{26}\?token=/, 'and the status link');
    });
  });
}
