/**
 * The privacy center's opt-in with a code (PRODUCT §2.18; 11 CCR §7028: the person confirms an
 * opt-in in two steps), on SQLite and PostgreSQL, with the code read from the mail a real SMTP
 * server on loopback received: `choice: "opt_in"` changes nothing and mails a code; a wrong code
 * changes nothing; the right one records one opt-in per kind (`source` `form`, as the person)
 * that replaces the preference; verifying again records nothing new; an opt-in's id is not a
 * request's (and the reverse), its code untried; with `Sec-GPC: 1` the `gpc` opt-out is recorded
 * at submission and the verified opt-in, received later, still replaces it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { type MailLoop, startMailLoop } from '../../../src/jobs/mail-delivery-loop.js';
import { createMailer, type Mailer } from '../../../src/modules/privacy-center/mailer.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp-receiver.js';

const BASE = 'http://center.example';

for (const dialect of dialects()) {
  describe(`privacy center opt-in with a code (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let receiver: SmtpReceiver;
    let mailer: Mailer;
    let loop: MailLoop;
    let reader: string;
    let now = Date.parse('2026-11-02T09:00:00.000Z');
    const clock = () => new Date(now);
    const db = () => t.services.database.db;
    const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: `/privacy-center/v1/acme${url}`, payload, headers });
    const deliver = async (expected: number): Promise<ReceivedMail[]> => {
      const before = receiver.mails.length;
      await loop.round();
      const mails = await receiver.waitFor(before + expected);
      assert.equal(mails.length, before + expected);
      return mails.slice(before);
    };
    const codeFrom = (mail: ReceivedMail) => {
      const code = /Your code is ([0-9]{6})\./.exec(mail.text)?.[1];
      assert.ok(code, mail.text);
      return code;
    };
    const preferences = async (email: string) => {
      const res = await t.app.inject({
        url: `/api/v1/privacy/preferences?workspace_id=acme&subject_provider=email&subject_id=${encodeURIComponent(email)}`,
        headers: { authorization: reader },
      });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as Record<string, { choice: string; source: string | null }>;
      return Object.fromEntries(Object.entries(body).map(([kind, p]) => [kind, `${p.choice}/${p.source}`]));
    };
    const rows = (email: string) =>
      db()
        .selectFrom('opt_outs')
        .select(['kind', 'choice', 'source', 'status'])
        .where('subject_id', '=', email)
        .orderBy('id')
        .execute();

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
      reader = await t.bearer(['privacy:read'], ['acme']);
      await t.services.controllers.put('acme', { name: 'Acme GmbH', contact_email: 'privacy@acme.example' }, 'test');
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

    it('an opt-in waits for the mailed code; a wrong code changes nothing; the right one records it; again, nothing new', async () => {
      const out = await post('/opt-outs', { email: 'cleo@example.com', kinds: ['sale_sharing', 'direct_marketing'] });
      assert.equal(out.statusCode, 202, out.body);
      assert.deepEqual(await preferences('cleo@example.com'), {
        sale_sharing: 'opt_out/form',
        sensitive_use: 'not_set/null',
        direct_marketing: 'opt_out/form',
      });

      now += 60_000;
      const submitted = await post('/opt-outs', { email: 'Cleo@Example.com', kinds: ['sale_sharing'], choice: 'opt_in' });
      assert.equal(submitted.statusCode, 202, submitted.body);
      const { id, status } = submitted.json() as { id: string; status: string };
      assert.equal(status, 'identity_unverified');
      assert.match(id, /^form_/);
      assert.equal((await rows('cleo@example.com')).length, 2, 'nothing recorded before the code');
      assert.equal((await preferences('cleo@example.com')).sale_sharing, 'opt_out/form');

      const [mail] = await deliver(1);
      assert.deepEqual(mail!.to, ['cleo@example.com']);
      assert.match(mail!.text, /asked Acme GmbH for an opt-in: to allow again what you had opted out of/);
      const code = codeFrom(mail!);

      const wrong = await post(`/opt-outs/${id}/verify`, { code: code === '000000' ? '111111' : '000000' });
      assert.equal(wrong.statusCode, 403, wrong.body);
      assert.equal((await rows('cleo@example.com')).length, 2);

      // An opt-in's id at a request's verification: not found, and its code is not spent there.
      const asRequest = await post(`/requests/${id}/verify`, { code });
      assert.equal(asRequest.statusCode, 404, asRequest.body);
      assert.equal((await db().selectFrom('privacy_requests').select('id').execute()).length, 0);

      now += 60_000;
      const verified = await post(`/opt-outs/${id}/verify`, { code });
      assert.equal(verified.statusCode, 200, verified.body);
      const answer = verified.json() as { opt_outs: Record<string, string>[] };
      assert.deepEqual(
        answer.opt_outs.map((o) => [o.kind, o.choice, o.source, o.status]),
        [['sale_sharing', 'opt_in', 'form', 'completed']],
      );
      assert.match(answer.opt_outs[0]!.id!, /^oo_/);
      assert.deepEqual(await preferences('cleo@example.com'), {
        sale_sharing: 'opt_in/form',
        sensitive_use: 'not_set/null',
        direct_marketing: 'opt_out/form',
      });
      assert.deepEqual(await rows('cleo@example.com'), [
        { kind: 'sale_sharing', choice: 'opt_out', source: 'form', status: 'completed' },
        { kind: 'direct_marketing', choice: 'opt_out', source: 'form', status: 'completed' },
        { kind: 'sale_sharing', choice: 'opt_in', source: 'form', status: 'completed' },
      ]);
      // Audited as the person, never with the address.
      const audit = await db()
        .selectFrom('audit_events')
        .select(['actor', 'actor_name', 'details'])
        .where('target_id', '=', answer.opt_outs[0]!.id!)
        .execute();
      assert.ok(audit.length >= 2, JSON.stringify(audit));
      assert.ok(audit.every((a) => a.actor.startsWith('subject:') && a.actor_name === 'data subject'));
      assert.ok(!JSON.stringify(audit).toLowerCase().includes('cleo@example.com'));

      const again = await post(`/opt-outs/${id}/verify`, { code });
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual(again.json(), answer);
      assert.equal((await rows('cleo@example.com')).length, 3, 'verifying again records nothing new');
    });

    it("a request's submission id is not an opt-in's: 404 at the opt-in verification, its code still good for the request", async () => {
      const submitted = await post('/requests', { request_type: 'access', email: 'dov@example.com' });
      assert.equal(submitted.statusCode, 202, submitted.body);
      const [mail] = await deliver(1);
      const code = codeFrom(mail!);
      const asOptIn = await post(`/opt-outs/${submitted.json().id}/verify`, { code });
      assert.equal(asOptIn.statusCode, 404, asOptIn.body);
      assert.equal((await rows('dov@example.com')).length, 0);
      const verified = await post(`/requests/${submitted.json().id}/verify`, { code });
      assert.equal(verified.statusCode, 200, verified.body);
      await deliver(1); // the "received" mail
    });

    it('with Sec-GPC: 1 the gpc opt-out is recorded at submission; the verified opt-in, received later, replaces it', async () => {
      now += 60_000;
      const submitted = await post(
        '/opt-outs',
        { email: 'eve@example.com', kinds: ['sale_sharing'], choice: 'opt_in' },
        { 'sec-gpc': '1' },
      );
      assert.equal(submitted.statusCode, 202, submitted.body);
      assert.deepEqual(await rows('eve@example.com'), [
        { kind: 'sale_sharing', choice: 'opt_out', source: 'gpc', status: 'completed' },
      ]);
      const [mail] = await deliver(1);
      now += 60_000;
      const verified = await post(`/opt-outs/${submitted.json().id}/verify`, { code: codeFrom(mail!) });
      assert.equal(verified.statusCode, 200, verified.body);
      assert.equal((await preferences('eve@example.com')).sale_sharing, 'opt_in/form');
    });

    it('an unknown kind is a 422 at the field and mails nothing', async () => {
      const before = (await db().selectFrom('privacy_center_submissions').select('id').execute()).length;
      const res = await post('/opt-outs', { email: 'fay@example.com', kinds: ['selling_souls'], choice: 'opt_in' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual((res.json() as { detail: { loc: unknown[] }[] }).detail[0]!.loc, ['body', 'kinds', 0]);
      assert.equal((await db().selectFrom('privacy_center_submissions').select('id').execute()).length, before);
      assert.equal(await loop.round(), 0);
    });
  });
}
