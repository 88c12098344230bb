/**
 * The privacy center's mail (PRODUCT §2.15), received by a real SMTP server on loopback: the code,
 * received (with the status link), extended (with the reason), completed (with the link),
 * rejected (reason and the right to complain), for center requests and API requests with
 * `notify_email`; through the outbox, so an SMTP outage loses none and sends none twice.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { type MailLoop, startMailLoop } from '../../../src/jobs/mail-delivery-loop.js';
import { createMailer, type Mailer } from '../../../src/modules/privacy-center/mailer.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp-receiver.js';
import { createWorker } from '../../../src/jobs/worker.js';

const PROFILE = {
  name: 'Acme GmbH',
  contact_email: 'privacy@acme.example',
  supervisory_authority: { name: 'Berlin Commissioner for Data Protection', url: 'https://www.datenschutz-berlin.de/' },
};
const BASE = 'http://center.example';

for (const dialect of dialects()) {
  describe(`privacy center mail (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let receiver: SmtpReceiver;
    let mailer: Mailer;
    let loop: MailLoop;
    let admin: string;
    let now = Date.parse('2026-11-02T09:00:00.000Z');
    const clock = () => new Date(now);
    const db = () => t.services.database.db;
    const submit = (payload: object) => t.app.inject({ method: 'POST', url: '/privacy-center/v1/acme/requests', payload });
    const verify = (id: string, code: string) =>
      t.app.inject({ method: 'POST', url: `/privacy-center/v1/acme/requests/${id}/verify`, payload: { code } });
    /** Sends what is due and returns the mails that arrived with it. */
    const deliver = async (expected: number): Promise<ReceivedMail[]> => {
      const before = receiver.mails.length;
      await loop.round();
      const mails = await receiver.waitFor(before + expected);
      assert.equal(mails.length, before + expected);
      return mails.slice(before);
    };
    const statusLink = (text: string) => {
      const match = /(http:\/\/center\.example\/privacy-center\/acme\/status\/(pr_[0-9A-Z]{26})\?token=([A-Za-z0-9_-]{43}))/.exec(
        text,
      );
      assert.ok(match, text);
      return { url: match[1]!, id: match[2]!, token: match[3]! };
    };

    before(async () => {
      database = await dialect.create();
      receiver = await startSmtpReceiver();
      t = await startTestApp(database, {
        env: {
          SMTP_URL: receiver.url,
          SMTP_FROM: 'privacy@acme.example',
          PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '0',
          PRIVACY_CENTER_CODES_PER_HOUR: '0',
        },
        clock,
      });
      admin = await t.bearer(['admin'], ['acme']);
      await t.services.controllers.put('acme', PROFILE, 'test');
      await t.services.privacyCenter.put('acme', { enabled: true, request_types: ['access', 'deletion'] }, 'test');
      mailer = createMailer(receiver.url, 'privacy@acme.example');
      loop = startMailLoop({
        db: db(),
        clock,
        mailer,
        controllers: t.services.controllers,
        secretBox: t.services.secretBox,
        publicBaseUrl: BASE,
        pollMs: 3_600_000,
        log: pino({ level: 'silent' }),
      });
    });
    after(async () => {
      await loop.stop();
      mailer.close();
      await t.close();
      await receiver.close();
      await database.drop();
    });

    let centerRequest = '';

    it('mails the code to the address, naming the controller; verification mails "received" with a status link', async () => {
      const res = await submit({ request_type: 'deletion', email: 'Dana@Example.com' });
      assert.equal(res.statusCode, 202);
      const [codeMail] = await deliver(1);
      assert.deepEqual(codeMail!.to, ['dana@example.com']);
      assert.equal(codeMail!.from, 'privacy@acme.example');
      assert.match(codeMail!.text, /Acme GmbH/);
      const code = /Your code is ([0-9]{6})\./.exec(codeMail!.text)?.[1];
      assert.ok(code, codeMail!.text);
      // Sent: the outbox row forgets the code and the address.
      const sent = await db().selectFrom('privacy_center_mails').selectAll().where('kind', '=', 'code').execute();
      assert.equal(sent.length, 1);
      assert.equal(sent[0]!.payload, '{}');
      assert.equal(sent[0]!.recipient, '');
      assert.ok(sent[0]!.sent_at);

      now += 60_000;
      const verified = await verify(res.json().id, code);
      assert.equal(verified.statusCode, 200, verified.body);
      const [received] = await deliver(1);
      assert.match(received!.subject, /Acme GmbH received your request/);
      assert.match(received!.text, /deletion of your personal data/);
      assert.match(received!.text, /2 November 2026/);
      const link = statusLink(received!.text);
      centerRequest = link.id;
      const stored = await db()
        .selectFrom('privacy_center_status_tokens')
        .select('token_hash')
        .where('request_id', '=', link.id)
        .execute();
      assert.deepEqual(
        stored.map((r) => r.token_hash),
        [createHash('sha256').update(link.token).digest('hex')],
      );
      // Verifying again mails nothing new.
      assert.equal((await verify(res.json().id, code)).statusCode, 200);
      assert.equal(await loop.round(), 0);
    });

    it('an extension mails the reason and the new date (GDPR Art. 12(3))', async () => {
      now += 60_000;
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${centerRequest}/extend`,
        headers: { authorization: admin },
        payload: { reason: 'Your data sits in many archived systems' },
      });
      assert.equal(res.statusCode, 200, res.body);
      const [mail] = await deliver(1);
      assert.match(mail!.subject, /needs more time/);
      assert.match(mail!.text, /Your data sits in many archived systems/);
      assert.match(mail!.text, /2 February 2027|3 February 2027/);
      statusLink(mail!.text);
    });

    it('completion mails a status link and never the data', async () => {
      const worker = createWorker({
        database: t.services.database,
        clock,
        log: pino({ level: 'silent' }),
        pseudonymKey: t.services.keys.pseudonymKey,
        handlers: { deletion: async () => ({ status: 'completed', report: { erased: ['secret-value-4711'] } }) },
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 },
      });
      now += 60_000;
      assert.equal(await worker.runOnce(), true);
      const row = await db()
        .selectFrom('privacy_requests')
        .select('status')
        .where('id', '=', centerRequest)
        .executeTakeFirstOrThrow();
      assert.equal(row.status, 'completed');
      const [mail] = await deliver(1);
      assert.match(mail!.subject, /is done/);
      statusLink(mail!.text);
      assert.doesNotMatch(mail!.raw, /secret-value-4711/);
    });

    it('an API-filed request with notify_email is told of receipt and of a rejection with the right to complain', async () => {
      const writer = await t.bearer(['privacy:write', 'privacy:read'], ['acme']);
      const filed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: writer, 'idempotency-key': 'notify-key-1' },
        payload: {
          request_type: 'access',
          scope: ['user'],
          subject_id: 'octocat',
          subject_provider: 'github',
          workspace_id: 'acme',
          client_request_id: 'notify-0001',
          intake_ref: 'ticket 42',
          notify_email: 'octo@example.org',
        },
      });
      assert.equal(filed.statusCode, 202, filed.body);
      assert.equal(filed.json().notify_email, undefined);
      const [received] = await deliver(1);
      assert.deepEqual(received!.to, ['octo@example.org']);
      assert.doesNotMatch(received!.text, /status\//);
      now += 60_000;
      const rejected = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${filed.json().id}/reject`,
        headers: { authorization: admin },
        payload: { reason: 'We could not confirm that the account is yours' },
      });
      assert.equal(rejected.statusCode, 200, rejected.body);
      const [mail] = await deliver(1);
      assert.match(mail!.subject, /declined/);
      assert.match(mail!.text, /We could not confirm that the account is yours/);
      assert.match(
        mail!.text,
        /supervisory authority, for example Berlin Commissioner for Data Protection: https:\/\/www\.datenschutz-berlin\.de\/, and you can take the matter to court \(GDPR Articles 77 and 79\)/,
      );
      assert.doesNotMatch(mail!.text, /California/, 'a GDPR workspace names no CCPA remedy');
      // A request without notify_email is told nothing.
      const silent = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: writer, 'idempotency-key': 'notify-key-2' },
        payload: {
          request_type: 'access',
          scope: ['user'],
          subject_id: 'octocat',
          subject_provider: 'github',
          workspace_id: 'acme',
          client_request_id: 'notify-0002',
          intake_ref: 'ticket 43',
        },
      });
      assert.equal(silent.statusCode, 202);
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${silent.json().id}/reject`,
        headers: { authorization: admin },
        payload: { reason: 'duplicate' },
      });
      assert.equal(await loop.round(), 0);
    });

    it('a rejection follows the workspace regulations: the CPPA under CCPA, no GDPR article; both under both (issue 22)', async () => {
      const workspaces = { calif: ['ccpa'], dual: ['gdpr', 'ccpa'] } as const;
      const writer = await t.bearer(['privacy:write', 'admin'], Object.keys(workspaces));
      for (const [ws, regulations] of Object.entries(workspaces)) {
        await t.services.controllers.put(ws, { name: `${ws} Inc.`, contact_email: `privacy@${ws}.example` }, 'test');
        await t.services.policies.putLayer(ws, null, { regulations: [...regulations] }, 'test');
        const filed = await t.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { authorization: writer, 'idempotency-key': `notify-key-${ws}` },
          payload: {
            request_type: 'deletion',
            scope: ['user'],
            subject_id: 'octocat',
            subject_provider: 'github',
            workspace_id: ws,
            client_request_id: `notify-${ws}-0001`,
            intake_ref: 'ticket 44',
            notify_email: `person@${ws}.example`,
          },
        });
        assert.equal(filed.statusCode, 202, filed.body);
        assert.equal(filed.json().regulation, [...regulations].sort().join('+'));
        await deliver(1);
        now += 60_000;
        const rejected = await t.app.inject({
          method: 'POST',
          url: `/api/v1/privacy/requests/${filed.json().id}/reject`,
          headers: { authorization: writer },
          payload: { reason: 'We could not confirm that the account is yours' },
        });
        assert.equal(rejected.statusCode, 200, rejected.body);
        const [mail] = await deliver(1);
        assert.match(mail!.text, /complain to the California Privacy Protection Agency: https:\/\/cppa\.ca\.gov\//);
        if (ws === 'calif') assert.doesNotMatch(mail!.text, /GDPR|Article 77|Article 79|supervisory/);
        else assert.match(mail!.text, /supervisory authority, in the country where you live or work.*GDPR Articles 77 and 79/);
        assert.doesNotMatch(mail!.text, /privacy:read|webhook|workspace/i);
      }
    });

    it('while SMTP is down the mail waits in the outbox; it is sent once when SMTP is back', async () => {
      const port = receiver.port;
      await receiver.close();
      const res = await submit({ request_type: 'access', email: 'outage@example.com' });
      assert.equal(res.statusCode, 202);
      assert.equal(await loop.round(), 0);
      const waiting = await db()
        .selectFrom('privacy_center_mails')
        .select(['attempts', 'sent_at'])
        .where('sent_at', 'is', null)
        .execute();
      assert.deepEqual(waiting, [{ attempts: 1, sent_at: null }]);
      // Not due again before its backoff.
      assert.equal(await loop.round(), 0);
      receiver = await startSmtpReceiver(port);
      now += 10_000;
      const mails = await deliver(1);
      assert.deepEqual(mails[0]!.to, ['outage@example.com']);
      now += 10 * 60_000;
      assert.equal(await loop.round(), 0);
      const all = await db().selectFrom('privacy_center_mails').select(['id', 'sent_at']).execute();
      assert.ok(all.every((m) => m.sent_at !== null));
    });
  });
}
