/**
 * The privacy center's agent path (PRODUCT §2.19, 11 CCR §7063(a)), on SQLite and PostgreSQL,
 * through real HTTP with a real SMTP server on loopback (codes and links read from the mails that
 * arrived): off while `agent_requests` is false; an agent submits, gets a code, verifies; the
 * person is mailed a confirmation link whose page decides nothing on GET; "Yes, I asked them"
 * files the request as the agent (subject, received_at, intake_ref, agent, audit) and the person
 * and the agent get their mails (the agent's without a link or any data); "I did not" and 14 days
 * without an answer delete the submission and tell the agent; wrong, void and expired codes; the
 * per-address limit counts the agent's address; bad input stores nothing. The app's log (and the
 * mail loop's) is captured at trace level throughout: no address, code or token in any line, in
 * the audit or in the metrics.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Logger } from 'pino';
import { type MailLoop, startMailLoop } from '../../../src/jobs/mail-delivery-loop.js';
import { createRetentionSweeper } from '../../../src/jobs/retention-sweeper.js';
import { actorView } from '../../../src/modules/audit/audit-event.fns.js';
import { agentPseudonym } from '../../../src/modules/privacy-center/privacy-center.fns.js';
import { createMailer, type Mailer } from '../../../src/modules/privacy-center/mailer.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { captureLogs, type LogCapture } from '../../helpers/log-capture.js';
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp-receiver.js';

const BASE = 'http://center.example';
const PERSON = 'Pat.Person@Example.com';
const DAY = 24 * 60 * 60_000;

function codeIn(mail: ReceivedMail): string {
  const code = /Your code is ([0-9]{6})\./.exec(mail.text)?.[1];
  assert.ok(code, mail.text);
  return code;
}

/** The confirmation link of the person's mail: its path (with the token), the submission id and the token. */
function confirmLinkIn(mail: ReceivedMail): { path: string; id: string; token: string } {
  const match =
    /http:\/\/center\.example(\/privacy-center\/acme\/agent-requests\/(form_[0-9A-Z]{26})\/confirm\?token=([A-Za-z0-9_-]{43}))/.exec(
      mail.text,
    );
  assert.ok(match, mail.text);
  return { path: match[1]!, id: match[2]!, token: match[3]! };
}

for (const dialect of dialects()) {
  describe(`privacy center agent path (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let receiver: SmtpReceiver;
    let mailer: Mailer;
    let loop: MailLoop;
    let capture: LogCapture;
    let admin: string;
    let reader: string;
    let now = Date.parse('2026-11-02T09:00:00.000Z');
    const clock = () => new Date(now);
    const db = () => t.services.database.db;
    /** Every address, code and token the flow used: none may be in a log line, the audit or the metrics. */
    const secrets: string[] = [PERSON];
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url: `/privacy-center/v1/acme${url}`, payload });
    const deliver = async (expected: number): Promise<ReceivedMail[]> => {
      const before = receiver.mails.length;
      await loop.round();
      const mails = await receiver.waitFor(before + expected);
      assert.equal(mails.length, before + expected);
      return mails.slice(before);
    };
    const submit = (agentEmail: string, extra: Record<string, unknown> = {}) => {
      secrets.push(agentEmail);
      return post('/agent-requests', {
        request_type: 'deletion',
        agent_email: agentEmail,
        agent_name: 'Rights Helper Ltd',
        subject_email: PERSON,
        proof_ref: 'signed-permission-doc-77',
        ...extra,
      });
    };
    /** Submits as `agentEmail`, verifies with the mailed code, and reads the person's link. */
    const askPerson = async (agentEmail: string) => {
      const submitted = await submit(agentEmail);
      assert.equal(submitted.statusCode, 202, submitted.body);
      const [codeMail] = await deliver(1);
      const code = codeIn(codeMail!);
      secrets.push(code);
      const verified = await post(`/agent-requests/${submitted.json().id}/verify`, { code });
      assert.equal(verified.statusCode, 200, verified.body);
      const [personMail] = await deliver(1);
      const link = confirmLinkIn(personMail!);
      secrets.push(link.token);
      return { id: submitted.json().id as string, link, personMail: personMail! };
    };
    const answer = (link: { path: string; id: string; token: string }, value: string) =>
      t.app.inject({
        method: 'POST',
        url: `/privacy-center/acme/agent-requests/${link.id}/confirm`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token: link.token, answer: value }).toString(),
      });
    const agentSubmissions = () => db().selectFrom('privacy_center_agent_submissions').select('id').execute();
    const requests = () => db().selectFrom('privacy_requests').selectAll().execute();
    const audit = (action: string) =>
      db()
        .selectFrom('audit_events')
        .select(['actor', 'actor_name', 'details', 'target_id'])
        .where('action', '=', action)
        .execute();

    before(async () => {
      database = await dialect.create();
      receiver = await startSmtpReceiver();
      t = await startTestApp(database, {
        env: {
          SMTP_URL: receiver.url,
          SMTP_FROM: 'privacy@acme.example',
          PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '0',
          PRIVACY_CENTER_CODES_PER_HOUR: '3',
        },
        clock,
      });
      capture = captureLogs(t.app, 'trace');
      admin = await t.bearer(['admin', 'privacy:read', 'privacy:write'], ['acme']);
      reader = await t.bearer(['privacy:read'], ['acme']);
      await t.services.controllers.put('acme', { name: 'Acme GmbH', contact_email: 'privacy@acme.example' }, 'test');
      mailer = createMailer(receiver.url, 'privacy@acme.example');
      loop = startMailLoop({
        db: db(),
        clock,
        mailer,
        controllers: t.services.controllers,
        secretBox: t.services.secretBox,
        publicBaseUrl: BASE,
        pollMs: 3_600_000,
        log: t.app.log as unknown as Logger,
      });
    });
    after(async () => {
      capture.restore();
      await loop.stop();
      mailer.close();
      await t.close();
      await receiver.close();
      await database.drop();
    });

    it('while agent_requests is false (the default) every agent route answers as a center that is off: 404', async () => {
      const put = (body: object) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/v1/workspaces/acme/privacy-center',
          headers: { authorization: admin },
          payload: body,
        });
      const on = await put({ enabled: true, request_types: ['access', 'deletion'] });
      assert.equal(on.statusCode, 200, on.body);
      assert.equal(on.json().agent_requests, false);
      const refused = await submit('early.agent@agents.example');
      assert.equal(refused.statusCode, 404, refused.body);
      assert.match(refused.json().detail, /does not take requests from authorized agents/);
      assert.equal((await post('/agent-requests/form_01JD0000000000000000000000/verify', { code: '123456' })).statusCode, 404);
      const page = await t.app.inject({
        url: '/privacy-center/acme/agent-requests/form_01JD0000000000000000000000/confirm?token=x',
      });
      assert.equal(page.statusCode, 404);
      assert.match(page.body, /There is no privacy center at this address/);
      assert.equal((await agentSubmissions()).length, 0);
      assert.equal(receiver.mails.length, 0);

      const agents = await put({ enabled: true, request_types: ['access', 'deletion'], agent_requests: true });
      assert.equal(agents.statusCode, 200, agents.body);
      assert.equal(agents.json().agent_requests, true);
      const read = await t.app.inject({ url: '/api/v1/workspaces/acme/privacy-center', headers: { authorization: reader } });
      assert.equal(read.json().agent_requests, true);
      const [written] = await audit('privacy_center.settings_written').then((rows) => rows.slice(-1));
      assert.equal(JSON.parse(written!.details).agent_requests, true);
    });

    it('bad input is a 422 naming the field and stores nothing; a type the center does not take is a 422', async () => {
      for (const [field, value] of [
        ['agent_name', ''],
        ['agent_name', 'x'.repeat(201)],
        ['agent_name', '   '],
        ['proof_ref', ''],
        ['proof_ref', 'x'.repeat(501)],
        ['subject_email', 'not-an-address'],
        ['agent_email', 'nope'],
      ] as const) {
        const res = await submit('bad.input@agents.example', { [field]: value });
        assert.equal(res.statusCode, 422, `${field}: ${res.body}`);
        assert.deepEqual(res.json().detail[0].loc, ['body', field]);
      }
      const export_ = await submit('bad.type@agents.example', { request_type: 'export' });
      assert.equal(export_.statusCode, 422, export_.body);
      assert.deepEqual(export_.json().detail[0].loc, ['body', 'request_type']);
      assert.equal((await agentSubmissions()).length, 0);
      assert.equal(await loop.round(), 0, 'no code mail');
    });

    it('agent submits, verifies; the GET page decides nothing; "Yes, I asked them" files the request as the agent', async () => {
      const agentEmail = 'Case.Worker@Agents.example';
      const submitted = await submit(agentEmail);
      assert.equal(submitted.statusCode, 202, submitted.body);
      const { id, status } = submitted.json() as { id: string; status: string };
      assert.equal(status, 'identity_unverified');
      const submittedAt = new Date(now).toISOString();
      const [codeMail] = await deliver(1);
      assert.deepEqual(codeMail!.to, ['case.worker@agents.example']);
      assert.match(codeMail!.text, /as an authorized agent, to file a request for deletion of the person's personal data/);
      const code = codeIn(codeMail!);
      secrets.push(code);

      now += 60_000;
      const wrong = await post(`/agent-requests/${id}/verify`, { code: code === '000000' ? '111111' : '000000' });
      assert.equal(wrong.statusCode, 403, wrong.body);
      assert.match(wrong.json().detail, /2 attempts left/);
      const verified = await post(`/agent-requests/${id}/verify`, { code });
      assert.equal(verified.statusCode, 200, verified.body);
      assert.deepEqual(verified.json(), { status: 'awaiting_confirmation' });
      const again = await post(`/agent-requests/${id}/verify`, { code });
      assert.deepEqual(again.json(), { status: 'awaiting_confirmation' });

      const [personMail] = await deliver(1);
      assert.equal(await loop.round(), 0, 'verifying again mails the person once only');
      assert.deepEqual(personMail!.to, ['pat.person@example.com']);
      assert.match(personMail!.subject, /Did you ask Rights Helper Ltd to make a privacy request to Acme GmbH\?/);
      assert.match(
        personMail!.text,
        /Rights Helper Ltd says you asked them, as your authorized agent, to request deletion of your personal data from Acme GmbH/,
      );
      const link = confirmLinkIn(personMail!);
      assert.equal(link.id, id);
      secrets.push(link.token);
      const stored = await db().selectFrom('privacy_center_agent_submissions').selectAll().execute();
      assert.equal(stored.length, 1);
      assert.notEqual(stored[0]!.confirm_hash, link.token, 'the token is stored only as a hash');
      assert.ok(!JSON.stringify(await db().selectFrom('privacy_center_mails').selectAll().execute()).includes(link.token));

      // A GET never decides (mail scanners follow links): twice, and nothing is filed.
      for (let i = 0; i < 2; i++) {
        const page = await t.app.inject({ url: link.path });
        assert.equal(page.statusCode, 200, page.body);
        assert.match(page.headers['content-security-policy'] as string, /default-src 'none'|script-src/);
        assert.doesNotMatch(page.body, /<script/i);
        assert.match(page.body, /<button type="submit" name="answer" value="yes">Yes, I asked them<\/button>/);
        assert.match(page.body, /<button type="submit" name="answer" value="no" class="secondary">I did not<\/button>/);
        assert.match(page.body, /Rights Helper Ltd/);
        assert.match(page.body, /Delete my personal data/);
        assert.match(page.body, /Acme GmbH/);
        assert.doesNotMatch(page.body, /pat\.person|case\.worker/i, 'the page shows no address');
      }
      assert.equal((await requests()).length, 0);
      assert.equal((await agentSubmissions()).length, 1);
      const badToken = await answer({ ...link, token: 'A'.repeat(43) }, 'yes');
      assert.equal(badToken.statusCode, 404);
      assert.equal((await requests()).length, 0);
      const noAnswer = await answer(link, 'maybe');
      assert.equal(noAnswer.statusCode, 422);
      assert.equal((await requests()).length, 0);

      now += 60_000;
      const yes = await answer(link, 'yes');
      assert.equal(yes.statusCode, 200, yes.body);
      assert.match(yes.body, /Your request is filed/);
      const [request] = await requests();
      assert.ok(request);
      assert.equal(request.subject_provider, 'email');
      assert.equal(request.subject_id, 'pat.person@example.com');
      assert.equal(request.received_at, submittedAt);
      assert.equal(request.intake_ref, 'privacy-center:agent');
      assert.equal(request.request_type, 'deletion');
      const pseudonym = agentPseudonym(t.services.keys.pseudonymKey, agentEmail);
      assert.match(pseudonym, /^[0-9a-f]{64}$/);
      assert.equal(request.filed_by, `agent:${pseudonym}`);
      const resource = await t.app.inject({ url: `/api/v1/privacy/requests/${request.id}`, headers: { authorization: reader } });
      assert.deepEqual(resource.json().agent, {
        id: pseudonym,
        name: 'Rights Helper Ltd',
        drp_request_id: null,
        proof_ref: 'signed-permission-doc-77',
      });
      // The queue's agent filter (PRODUCT §2.19 "In the queue") finds it by the agent's pseudonym, and only it.
      const byAgent = await t.app.inject({
        url: `/api/v1/privacy/requests?workspace_id=acme&agent_id=${pseudonym}`,
        headers: { authorization: reader },
      });
      assert.deepEqual(
        byAgent.json().items.map((item: { id: string }) => item.id),
        [request.id],
      );
      const byOther = await t.app.inject({
        url: `/api/v1/privacy/requests?workspace_id=acme&agent_id=${'0'.repeat(64)}`,
        headers: { authorization: reader },
      });
      assert.deepEqual(byOther.json().items, []);
      const [created] = await db()
        .selectFrom('audit_events')
        .select(['actor', 'actor_name'])
        .where('action', '=', 'privacy_request.created')
        .where('target_id', '=', request.id)
        .execute();
      assert.deepEqual(actorView(created!.actor, created!.actor_name), {
        type: 'agent',
        id: pseudonym,
        name: 'authorized agent',
      });
      const [confirmed] = await audit('agent_request.confirmed');
      assert.equal(actorView(confirmed!.actor, confirmed!.actor_name).type, 'subject');
      assert.equal(confirmed!.target_id, request.id);
      assert.equal((await agentSubmissions()).length, 0, 'the submission (and both addresses in it) is gone once filed');

      // The person gets the center's "received" mail with the status link; the agent a data-less notice.
      const mails = await deliver(2);
      const toPerson = mails.find((m) => m.to[0] === 'pat.person@example.com')!;
      const toAgent = mails.find((m) => m.to[0] === 'case.worker@agents.example')!;
      assert.match(toPerson.subject, /received your request/);
      assert.match(toPerson.text, /\/privacy-center\/acme\/status\/pr_/);
      assert.match(toAgent.subject, /Acme GmbH received the request you filed/);
      assert.doesNotMatch(toAgent.text, /https?:\/\/center|pat\.person|pr_|\b20\d\d\b/i, 'no link, no address, no id, no date');

      // An extension: the person gets the reason and the date, the agent only that more time is needed.
      const extended = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${request.id}/extend`,
        headers: { authorization: admin },
        payload: { reason: 'Archived ledgers need a manual search' },
      });
      assert.equal(extended.statusCode, 200, extended.body);
      const more = await deliver(2);
      const extendedPerson = more.find((m) => m.to[0] === 'pat.person@example.com')!;
      const extendedAgent = more.find((m) => m.to[0] === 'case.worker@agents.example')!;
      assert.match(extendedPerson.text, /Archived ledgers need a manual search/);
      assert.match(extendedAgent.subject, /needs more time for the request you filed/);
      assert.doesNotMatch(extendedAgent.text, /Archived ledgers|https?:\/\/center|\b20\d\d\b/);

      // A rejection: the person gets the reason, the agent only that it was declined.
      const rejected = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${request.id}/reject`,
        headers: { authorization: admin },
        payload: { reason: 'The account holds a disputed balance' },
      });
      assert.equal(rejected.statusCode, 200, rejected.body);
      const last = await deliver(2);
      const rejectedPerson = last.find((m) => m.to[0] === 'pat.person@example.com')!;
      const rejectedAgent = last.find((m) => m.to[0] === 'case.worker@agents.example')!;
      assert.match(rejectedPerson.text, /disputed balance/);
      assert.match(rejectedAgent.subject, /declined the request you filed/);
      assert.doesNotMatch(rejectedAgent.text, /disputed balance|https?:\/\/center/);
      const notify = await db().selectFrom('request_notify_addresses').select(['email', 'agent_email']).execute();
      assert.deepEqual(notify, [{ email: '', agent_email: '' }], 'both addresses blanked by the last mail');

      // The link is spent.
      const twice = await answer(link, 'yes');
      assert.equal(twice.statusCode, 404);
      assert.match(twice.body, /This link no longer works/);
      assert.equal((await requests()).length, 1);
    });

    it('"I did not" deletes the submission, files nothing and tells the agent', async () => {
      const agentEmail = 'not.asked@agents.example';
      const { id, link } = await askPerson(agentEmail);
      const no = await answer(link, 'no');
      assert.equal(no.statusCode, 200, no.body);
      assert.match(no.body, /Nothing was filed/);
      assert.equal((await agentSubmissions()).length, 0);
      assert.equal((await requests()).length, 1, 'only the earlier test’s request');
      const [toAgent] = await deliver(1);
      assert.deepEqual(toAgent!.to, [agentEmail]);
      assert.match(toAgent!.subject, /did not confirm/);
      assert.doesNotMatch(toAgent!.text, /pat\.person|https?:\/\//i);
      const ended = (await audit('agent_request.not_confirmed')).find((r) => r.target_id === id)!;
      assert.equal(actorView(ended.actor, ended.actor_name).type, 'subject');
      assert.equal(JSON.parse(ended.details).reason, 'declined');
      assert.equal((await answer(link, 'yes')).statusCode, 404, 'an answered link files nothing later');
      assert.equal((await t.app.inject({ url: link.path })).statusCode, 404);
    });

    it('14 days without an answer: the sweep deletes it and tells the agent; unverified ones go silently after 24 h', async () => {
      const { id, link } = await askPerson('slow.person@agents.example');
      const unverified = await submit('never.verified@agents.example');
      assert.equal(unverified.statusCode, 202);
      await deliver(1);
      const sweeper = createRetentionSweeper({
        database: t.services.database,
        policies: t.services.policies,
        clock,
        log: t.app.log as unknown as Logger,
      });
      now += DAY + 60_000;
      await sweeper.sweep(new Date(now));
      assert.deepEqual(
        (await agentSubmissions()).map((r) => r.id),
        [id],
        'the unverified one is gone, the one waiting for the person is kept',
      );
      assert.equal(await loop.round(), 0, 'an unverified submission ends without a mail');
      now += 12 * DAY;
      assert.equal((await t.app.inject({ url: link.path })).statusCode, 200, 'still open before 14 days');
      now += DAY;
      assert.equal((await t.app.inject({ url: link.path })).statusCode, 404, 'closed at 14 days, swept or not');
      const swept = await sweeper.sweep(new Date(now));
      assert.equal(swept.centerSubmissions, 1);
      assert.equal((await agentSubmissions()).length, 0);
      const [toAgent] = await deliver(1);
      assert.deepEqual(toAgent!.to, ['slow.person@agents.example']);
      assert.match(toAgent!.subject, /did not confirm/);
      const ended = (await audit('agent_request.not_confirmed')).find((r) => r.target_id === id)!;
      assert.deepEqual(actorView(ended.actor, ended.actor_name), {
        type: 'system',
        id: 'retention-sweeper',
        name: 'retention-sweeper',
      });
      assert.equal(JSON.parse(ended.details).reason, 'no_answer');
      assert.equal((await answer(link, 'yes')).statusCode, 404);
    });

    it('an expired code is a 410, three wrong ones make it void (429), an unknown id is a 404', async () => {
      const late = await submit('late.agent@agents.example');
      const [lateMail] = await deliver(1);
      const lateCode = codeIn(lateMail!);
      secrets.push(lateCode);
      now += 11 * 60_000;
      const expired = await post(`/agent-requests/${late.json().id}/verify`, { code: lateCode });
      assert.equal(expired.statusCode, 410, expired.body);

      const clumsy = await submit('clumsy.agent@agents.example');
      const [clumsyMail] = await deliver(1);
      const code = codeIn(clumsyMail!);
      secrets.push(code);
      const wrongCode = code === '000000' ? '111111' : '000000';
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await post(`/agent-requests/${clumsy.json().id}/verify`, { code: wrongCode })).statusCode);
      assert.deepEqual(statuses, [403, 403, 403]);
      const voided = await post(`/agent-requests/${clumsy.json().id}/verify`, { code });
      assert.equal(voided.statusCode, 429, voided.body);
      assert.equal(await loop.round(), 0, 'no person was mailed');
      const unknown = await post('/agent-requests/form_01JD0000000000000000000000/verify', { code });
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().detail, 'No such agent request is waiting for verification (it may be older than 24 hours)');
    });

    it('the per-address code limit counts the agent’s address (3 an hour)', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await submit('busy.agent@agents.example', { subject_email: `p${i}@example.com` })).statusCode);
        secrets.push(`p${i}@example.com`);
      }
      assert.deepEqual(statuses, [202, 202, 202, 429]);
      await deliver(3);
    });

    it('no address, code or token in any log line, the audit or the metrics', async () => {
      const metrics = await t.app.inject({ url: '/metrics' });
      assert.equal(metrics.statusCode, 200);
      const auditRows = JSON.stringify(await db().selectFrom('audit_events').selectAll().execute());
      const logs = capture.text();
      assert.ok(capture.lines.length > 50, 'the log was captured');
      assert.match(logs, /agent-requests/, 'the agent routes were logged');
      for (const secret of secrets) {
        for (const [where, text] of [
          ['log', logs],
          ['audit', auditRows],
          ['metrics', metrics.body],
        ] as const) {
          // A code as a whole number only: six digits inside a timestamp or a hash are not a code.
          const found = /^[0-9]{6}$/.test(secret)
            ? new RegExp(`(?<![0-9A-Za-z])${secret}(?![0-9A-Za-z])`).test(text)
            : text.toLowerCase().includes(secret.toLowerCase());
          assert.ok(!found, `${where} holds ${secret.slice(0, 3)}…`);
        }
      }
    });
  });
}
