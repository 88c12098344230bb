/**
 * The privacy center's outbox, hardened (issue 33 items 1–3), on both stores with a real SMTP
 * receiver on loopback: the verification code is never stored in clear (the outbox row, every
 * table, and on SQLite the file and its WAL) and a code mail whose code expired is dropped, not
 * sent; two senders and a slow SMTP server send each mail once (a round ends within its lease, and
 * a sender whose lease was taken over cannot mark the mail); the notify address goes with the
 * subject's deletion and with the request's last mail, leaving no copy in the SQLite file or WAL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { type MailLoop, startMailLoop } from '../../../src/jobs/mail-delivery-loop.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { toTimestamp } from '../../../src/lib/clock.js';
import {
  claimDueMails,
  markMailSent,
  type MailPayload,
  rescheduleMail,
} from '../../../src/modules/privacy-center/mail-outbox.repository.js';
import { createMailer, type Mailer } from '../../../src/modules/privacy-center/mailer.js';
import { CODE_TTL_MS } from '../../../src/modules/privacy-center/privacy-center.fns.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp-receiver.js';
import { findInFiles, findInTables } from '../../helpers/storage-scan.js';
import { addSources, sendIdentityEvent, unique } from '../../helpers/subject-data.js';

const FROM = 'privacy@acme.example';
const silent = pino({ level: 'silent' });

for (const dialect of dialects()) {
  describe(`privacy center mail hardening (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let receiver: SmtpReceiver;
    let mailer: Mailer;
    let loop: MailLoop;
    let now = Date.parse('2026-11-02T09:00:00.000Z');
    const clock = () => new Date(now);
    const db = () => t.services.database.db;
    const sqlitePath = () => database.url.slice('sqlite:'.length);
    const submit = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/privacy-center/v1/acme/requests',
        payload: { request_type: 'access', email },
      });
    const unsent = () => db().selectFrom('privacy_center_mails').selectAll().where('sent_at', 'is', null).execute();

    before(async () => {
      database = await dialect.create();
      receiver = await startSmtpReceiver();
      t = await startTestApp(database, {
        env: {
          SMTP_URL: receiver.url,
          SMTP_FROM: FROM,
          PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '0',
          PRIVACY_CENTER_CODES_PER_HOUR: '0',
        },
        clock,
      });
      await t.services.controllers.put('acme', { name: 'Acme GmbH', contact_email: FROM }, 'test');
      await t.services.privacyCenter.put('acme', { enabled: true, request_types: ['access', 'deletion'] }, 'test');
      mailer = createMailer(receiver.url, FROM);
      loop = startMailLoop({
        db: db(),
        clock,
        mailer,
        secretBox: t.services.secretBox,
        controllers: t.services.controllers,
        requestResults: t.services.requestResults,
        database: t.services.database,
        publicBaseUrl: 'http://center.example',
        pollMs: 3_600_000,
        log: silent,
      });
    });
    after(async () => {
      await loop.stop();
      mailer.close();
      await t.close();
      await receiver.close();
      await database.drop();
    });

    it('the code is in no table, nor (SQLite) the file or WAL, while its mail waits; the mail carries it', async () => {
      const res = await submit('code-scan@example.com');
      assert.equal(res.statusCode, 202, res.body);
      const [row] = await unsent();
      assert.ok(row);
      const payload = JSON.parse(row.payload) as MailPayload;
      assert.equal(payload.code, undefined);
      assert.ok(payload.code_sealed, row.payload);
      // The test may open it (the service's key); nothing stored holds it in clear.
      const code = t.services.secretBox.open(payload.code_sealed);
      assert.match(code, /^[0-9]{6}$/);
      assert.deepEqual(await findInTables(t, [code]), []);
      if (dialect.name === 'sqlite') assert.deepEqual(findInFiles(sqlitePath(), [`"code":"${code}"`, `code is ${code}`]), []);

      const before = receiver.mails.length;
      assert.equal(await loop.round(), 1);
      const [mail] = (await receiver.waitFor(before + 1)).slice(before);
      assert.match(mail!.text, new RegExp(`Your code is ${code}\\.`));
      const verified = await t.app.inject({
        method: 'POST',
        url: `/privacy-center/v1/acme/requests/${res.json().id}/verify`,
        payload: { code },
      });
      assert.equal(verified.statusCode, 200, verified.body);
      // The "received" mail's status token is minted as it is sent: none waits in the outbox.
      const [received] = await unsent();
      assert.deepEqual([received?.kind, JSON.parse(received!.payload).status_token], ['received', undefined]);
      assert.equal(await loop.round(), 1, 'the "received" mail');
      const token = /\?token=([A-Za-z0-9_-]{43})/.exec(receiver.mails.at(-1)!.text)?.[1];
      assert.ok(token, receiver.mails.at(-1)!.text);
      const page = await t.app.inject({
        method: 'GET',
        url: `/privacy-center/acme/status/${received!.request_id}?token=${token}`,
      });
      assert.equal(page.statusCode, 200);
    });

    it('a code mail whose code expired is dropped, never sent', async () => {
      assert.equal((await submit('late@example.com')).statusCode, 202);
      assert.equal((await unsent()).length, 1);
      now += CODE_TTL_MS + 1000;
      const before = receiver.mails.length;
      assert.equal(await loop.round(), 0);
      assert.equal(receiver.mails.length, before);
      assert.equal((await unsent()).length, 0);
      assert.ok(!receiver.mails.some((m) => m.to.includes('late@example.com')));
    });

    it('marking a mail sent needs the lease: a sender whose lease was taken over changes nothing', async () => {
      now += 60_000;
      assert.equal((await submit('lease@example.com')).statusCode, 202);
      const at = (ms: number) => toTimestamp(new Date(now + ms));
      const [mine] = await claimDueMails(db(), { now: at(0), leaseUntil: at(1000), token: 'token-a', limit: 5 });
      assert.ok(mine);
      // Still held: nobody else gets it.
      assert.deepEqual(await claimDueMails(db(), { now: at(500), leaseUntil: at(1500), token: 'token-b', limit: 5 }), []);
      // Lapsed: the next sender takes it.
      const [theirs] = await claimDueMails(db(), { now: at(2000), leaseUntil: at(3000), token: 'token-b', limit: 5 });
      assert.equal(theirs?.id, mine.id);
      assert.equal(await markMailSent(db(), mine.id, 'token-a', at(2100)), false);
      await rescheduleMail(db(), mine.id, 'token-a', 7, at(9_999_999));
      const row = await db().selectFrom('privacy_center_mails').selectAll().where('id', '=', mine.id).executeTakeFirstOrThrow();
      assert.deepEqual([row.sent_at, row.attempts, row.lease_token], [null, 0, 'token-b']);
      assert.notEqual(row.recipient, '');
      assert.equal(await markMailSent(db(), mine.id, 'token-b', at(2200)), true);
    });

    it('two senders and a slow SMTP server: each mail is received once', async () => {
      now += 60_000;
      const slow = await startSmtpReceiver(0, { delayMs: 300 });
      const count = 20;
      for (let i = 0; i < count; i++) assert.equal((await submit(`slow-${i}@example.com`)).statusCode, 202);
      // A clock that runs from the test's `now`: the leases lapse in real time.
      const start = performance.now();
      const running = () => new Date(now + (performance.now() - start));
      // 20 mails × 300 ms is longer than the 3 s lease: a round that took them all would lose it midway.
      const senders = [0, 1].map(() => {
        const m = createMailer(slow.url, FROM, { sendTimeoutMs: 1500 });
        const l = startMailLoop({
          db: db(),
          clock: running,
          mailer: m,
          secretBox: t.services.secretBox,
          controllers: t.services.controllers,
          publicBaseUrl: 'http://center.example',
          pollMs: 50,
          leaseMs: 3000,
          log: silent,
        });
        return { m, l };
      });
      try {
        const until = performance.now() + 30_000;
        while ((await unsent()).length > 0) {
          assert.ok(performance.now() < until, 'mails still unsent');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        // Each stop waits for its round in hand: a repeat in flight arrives before the count.
        for (const s of senders) await s.l.stop();
        for (const s of senders) s.m.close();
        await slow.close();
      }
      const ids = slow.mails.map((m) => m.messageId);
      assert.equal(ids.length, count, ids.join('\n'));
      assert.equal(new Set(ids).size, count);
    });

    it('the notify address goes with the deletion and its last mail: no table, nor (SQLite) the file or WAL, holds it', async () => {
      now += 60_000;
      const r = unique();
      const address = `zq-notify-${r}@example.org`;
      const earlier = `zq-notify-other-${r}@example.org`;
      // A subject the service knows (an identity event), so the deletion completes.
      const sources = await addSources(t, 'acme');
      await sendIdentityEvent(t, sources, 'user.created', '2026-10-01T00:00:00.000Z', {
        user_id: `u-${r}`,
        email: `zq-person-${r}@example.test`,
      });
      const writer = await t.bearer(['privacy:write', 'privacy:read'], ['acme']);
      const file = async (type: string, notify: string) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { authorization: writer, 'idempotency-key': `notify-${type}-${r}` },
          payload: {
            request_type: type,
            scope: ['user'],
            subject_id: `u-${r}`,
            subject_provider: 'okta',
            workspace_id: 'acme',
            client_request_id: `notify-${type}-${r}`,
            intake_ref: `ticket ${r}`,
            notify_email: notify,
          },
        });
        assert.equal(res.statusCode, 202, res.body);
        return res.json().id as string;
      };
      const mailsBefore = receiver.mails.length;
      const deletion = await file('deletion', address);
      // Another request of the subject's, still open when the deletion runs, with its own address.
      await file('access', earlier);
      assert.equal(await loop.round(), 2);
      await receiver.waitFor(mailsBefore + 2);
      assert.equal((await findInTables(t, [address, earlier])).length, 2, 'the scan sees the addresses');

      const worker = createWorker({
        database: t.services.database,
        clock,
        log: silent,
        pseudonymKey: t.services.keys.pseudonymKey,
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 },
      });
      now += 60_000;
      // Requests are taken oldest first: the center's request of the first test, then the deletion.
      for (let i = 0; i < 5; i++) {
        const row = await db()
          .selectFrom('privacy_requests')
          .select('status')
          .where('id', '=', deletion)
          .executeTakeFirstOrThrow();
        if (row.status === 'completed') break;
        await worker.runOnce();
      }
      const row = await db().selectFrom('privacy_requests').select('status').where('id', '=', deletion).executeTakeFirstOrThrow();
      assert.equal(row.status, 'completed');
      // The completed mail still reaches the person; then the address is gone everywhere.
      assert.equal(await loop.round(), 1);
      const [done] = (await receiver.waitFor(mailsBefore + 3)).slice(mailsBefore + 2);
      assert.deepEqual(done!.to, [address]);
      assert.match(done!.subject, /is done/);
      assert.deepEqual(await findInTables(t, [address, earlier]), []);
      // The loop checkpointed after sending: neither the file nor the WAL keeps a copy.
      if (dialect.name === 'sqlite') assert.deepEqual(findInFiles(sqlitePath(), [address, earlier]), []);
    });
  });
}
