/**
 * Privacy of the logs and the audit for the privacy center (PRODUCT §2.15, issue 25 item 7): the
 * whole public flow runs at trace level with the app's log captured (the worker and its mail loop
 * log on the same logger) — the center turned on, a submission by JSON and one by the HTML form, a
 * malformed address, a wrong code, the code-limit's 429, verification with the code read from the
 * mail a real SMTP server received, processing to completion, the "received" and "completed" mails
 * and the status page opened with their link — and no log line holds an address (in any case), a
 * code, a status-link token or a submission id (the capability that, with the code, verifies); no
 * audit row holds an address, code or token. On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Logger } from 'pino';
import { startWorker } from '../../../src/jobs/start-worker.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { captureLogs, type LogCapture } from '../../helpers/log-capture.js';
import {
  assertNoSensitive,
  expectStatus,
  type HttpClient,
  injectClient,
  LEVEL,
  parseLogLines,
  SensitiveValues,
} from '../../helpers/log-privacy.js';
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp-receiver.js';

const WS = 'acme';
const BASE = 'http://center.example';
const WORKER = {
  inServer: false,
  pollMs: 20,
  leaseMs: 30_000,
  maxAttempts: 3,
  retentionSweepMs: 60_000,
  packageRetentionDays: 30,
  publicBaseUrl: BASE,
};

/** The 6-digit code of a code mail. */
function codeIn(mail: ReceivedMail): string {
  const code = /Your code is ([0-9]{6})\./.exec(mail.text)?.[1];
  assert.ok(code, mail.text);
  return code;
}

/**
 * Fails when a code appears in `value` (a parsed log line or an audit row), walked field by field:
 * as a number, or in a string with no letter or digit right before or after it. A 6-digit code
 * would otherwise match by chance inside a timestamp, a duration or a hash.
 */
function assertNoCode(value: unknown, codes: string[], where: string): void {
  const patterns = codes.map((code) => new RegExp(`(?<![0-9A-Za-z])${code}(?![0-9A-Za-z])`));
  const walk = (v: unknown): void => {
    if (typeof v === 'number') assert.ok(!codes.includes(String(v)), `${where} holds a code as a number`);
    else if (typeof v === 'string') assert.ok(!patterns.some((p) => p.test(v)), `${where} holds a code: ${v.slice(0, 200)}`);
    else if (v && typeof v === 'object') for (const inner of Object.values(v)) walk(inner);
  };
  walk(value);
}

/** The status link of a mail: its path (with the token) and the token. */
function statusLinkIn(mail: ReceivedMail): { path: string; id: string; token: string } {
  const match = /http:\/\/center\.example(\/privacy-center\/acme\/status\/(pr_[0-9A-Z]{26})\?token=([A-Za-z0-9_-]{43}))/.exec(
    mail.text,
  );
  assert.ok(match, mail.text);
  return { path: match[1]!, id: match[2]!, token: match[3]! };
}

for (const dialect of dialects()) {
  describe(`privacy center log privacy (${dialect.name})`, () => {
    let database: TestDatabase;
    let receiver: SmtpReceiver;
    let t: TestApp;
    let capture: LogCapture;
    let worker: ReturnType<typeof startWorker>;
    let http: HttpClient;
    /** The first received mail to `to` whose subject matches, waiting for it (the mail loop polls). */
    const mailTo = async (to: string, subject: RegExp): Promise<ReceivedMail> => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const found = receiver.mails.find((m) => m.to[0] === to && subject.test(m.subject));
        if (found) return found;
        assert.ok(Date.now() < deadline, `no mail "${String(subject)}": ${receiver.mails.map((m) => m.subject).join('; ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };

    before(async () => {
      database = await dialect.create();
      receiver = await startSmtpReceiver();
      t = await startTestApp(database, {
        env: {
          LOG_LEVEL: 'trace',
          SMTP_URL: receiver.url,
          SMTP_FROM: 'privacy@acme.example',
          PUBLIC_BASE_URL: BASE,
          // The per-IP limit high (every inject comes from one address); the per-address code limit at its default (3).
          PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '100',
        },
      });
      capture = captureLogs(t.app, 'trace');
      worker = startWorker(t.services, WORKER, t.app.log as unknown as Logger);
      http = injectClient(t.app);
    });
    after(async () => {
      await worker.stop();
      capture.restore();
      await t.close();
      await receiver.close();
      await database.drop();
    });

    it(
      'no address, code, status token or submission id in any log line; no address in the audit',
      { timeout: 120_000 },
      async () => {
        const sensitive = new SensitiveValues();
        const u = randomBytes(5).toString('hex');
        const email = `Dana.Privacy.${u}@Example.org`;
        const formEmail = `form.person.${u}@example.net`;
        const limitedEmail = `limited.${u}@example.com`;
        const badEmail = `not-an-address.${u}@@example.com`;
        sensitive
          .add('address', email)
          .add('address (local part)', email.split('@')[0]!)
          .add('form address', formEmail)
          .add('limited address', limitedEmail)
          .add('malformed address', badEmail);

        const { token: adminToken } = await t.services.tokens.create({
          name: 'admin',
          scopes: ['admin'],
          workspaces: [WS],
          actor: 'test',
        });
        sensitive.addToken('admin token', adminToken);
        const auth = { authorization: `Bearer ${adminToken}` };
        expectStatus(
          await http('PUT', `/api/v1/workspaces/${WS}/controller`, {
            headers: auth,
            body: { name: 'Acme GmbH', contact_email: 'privacy@acme.example' },
          }),
          200,
        );
        // The person is unknown to any system: no review of unmatched identities, so the request completes.
        expectStatus(
          await http('PUT', `/api/v1/policies/workspaces/${WS}`, { headers: auth, body: { confirm_no_data: false } }),
          200,
        );
        expectStatus(
          await http('PUT', `/api/v1/workspaces/${WS}/privacy-center`, {
            headers: auth,
            body: { enabled: true, request_types: ['access', 'deletion'] },
          }),
          200,
        );

        // A malformed address: 422, nothing stored, nothing logged.
        expectStatus(
          await http('POST', `/privacy-center/v1/${WS}/requests`, { body: { request_type: 'deletion', email: badEmail } }),
          422,
        );

        // The JSON flow: submit, read the code from the mail, a wrong code, then the right one.
        const submitted = expectStatus(
          await http('POST', `/privacy-center/v1/${WS}/requests`, { body: { request_type: 'deletion', email } }),
          202,
        ).json();
        sensitive.add('submission id', submitted.id as string);
        const code = codeIn(await mailTo(email.toLowerCase(), /code/i));
        const codes = [code];
        const wrong = code === '000000' ? '111111' : '000000';
        expectStatus(
          await http('POST', `/privacy-center/v1/${WS}/requests/${submitted.id}/verify`, { body: { code: wrong } }),
          403,
        );
        const verified = expectStatus(
          await http('POST', `/privacy-center/v1/${WS}/requests/${submitted.id}/verify`, { body: { code } }),
          200,
        ).json();
        assert.equal(verified.status, 'queued');

        // The form flow: the submission id travels in the page, the code in the form body.
        const form = await t.app.inject({
          method: 'POST',
          url: `/privacy-center/${WS}/`,
          payload: new URLSearchParams({ request_type: 'access', email: formEmail }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        assert.equal(form.statusCode, 200, form.body);
        const formId = /form_[0-9A-Z]{26}/.exec(form.body)?.[0];
        assert.ok(formId, 'the code page names the submission');
        sensitive.add('form submission id', formId);

        // The code limit (3 an hour per address): the fourth is 429.
        for (let i = 0; i < 3; i += 1)
          expectStatus(
            await http('POST', `/privacy-center/v1/${WS}/requests`, { body: { request_type: 'access', email: limitedEmail } }),
            202,
          );
        expectStatus(
          await http('POST', `/privacy-center/v1/${WS}/requests`, {
            body: { request_type: 'access', email: limitedEmail.toUpperCase() },
          }),
          429,
        );

        // Mails: the first code, "received", the form's code and the three limited codes.
        const formCode = codeIn(await mailTo(formEmail, /code/i));
        codes.push(formCode);
        const limitedDeadline = Date.now() + 30_000;
        while (receiver.mails.filter((m) => m.to[0] === limitedEmail).length < 3 && Date.now() < limitedDeadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        for (const m of receiver.mails.filter((m) => m.to[0] === limitedEmail)) codes.push(codeIn(m));
        assert.equal(codes.length, 5);
        const formVerified = await t.app.inject({
          method: 'POST',
          url: `/privacy-center/${WS}/verify`,
          payload: new URLSearchParams({ id: formId, code: formCode }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        assert.equal(formVerified.statusCode, 200, formVerified.body);

        const received = await mailTo(email.toLowerCase(), /received your request/);
        const link = statusLinkIn(received);
        sensitive.add('status token', link.token);

        // Processing: the worker completes the deletion and the mail loop sends "completed".
        const completed = await mailTo(email.toLowerCase(), /is done/);
        const doneLink = statusLinkIn(completed);
        assert.equal(doneLink.id, link.id);
        sensitive.add('completion status token', doneLink.token);
        const status = await http('GET', doneLink.path);
        expectStatus(status, 200);
        assert.match(status.text, /deletion|deleted/i);
        // A wrong token: the same page as an unknown link.
        const wrongToken = randomBytes(32).toString('base64url');
        sensitive.add('wrong status token', wrongToken);
        expectStatus(await http('GET', `/privacy-center/${WS}/status/${link.id}?token=${wrongToken}`), 404);
        // Let the form request's "received" mail go out too.
        await mailTo(formEmail, /received your request/);
        await worker.stop();
        capture.restore();

        // The capture is real: trace/debug lines, the center's request lines, the worker and mail loop.
        const entries = parseLogLines(capture.text());
        assert.ok(entries.length >= 30, `only ${entries.length} log lines`);
        assert.ok(
          entries.some((e) => e.level <= LEVEL.debug),
          'no debug or trace line',
        );
        const urls = new Set(entries.filter((e) => e.msg === 'incoming request').map((e) => e.req?.url));
        for (const url of [
          '/privacy-center/v1/:workspace_id/requests',
          '/privacy-center/v1/:workspace_id/requests/:id/verify',
          '/privacy-center/:workspace_id/',
          '/privacy-center/:workspace_id/verify',
        ])
          assert.ok(
            [...urls].some((logged) => logged?.replace(WS, ':workspace_id') === url),
            `no request line for ${url}: ${[...urls].join(', ')}`,
          );
        const statuses = new Set(entries.filter((e) => e.msg === 'request completed').map((e) => e.res?.statusCode));
        for (const s of [200, 202, 403, 404, 422, 429]) assert.ok(statuses.has(s), `no completed request with ${s}`);
        assert.ok(
          entries.some((e) => e.msg === 'privacy request processed'),
          'no worker line',
        );
        assertNoSensitive(capture.text(), sensitive);
        entries.forEach((entry, i) => assertNoCode(entry, codes, `log line ${i} (${entry.msg})`));

        // The audit names the person by a pseudonym, never by address, code or token.
        const audit = await t.services.database.db.selectFrom('audit_events').selectAll().execute();
        assert.ok(audit.length > 0, 'nothing audited');
        assert.ok(
          audit.some((row) => JSON.stringify(row).includes('data subject')),
          'no audit row by the data subject',
        );
        assertNoSensitive(JSON.stringify(audit), sensitive);
        audit.forEach((row) => assertNoCode(row, codes, `audit row ${String(row.id)}`));
      },
    );
  });
}
