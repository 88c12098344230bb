/**
 * The privacy center's opt-outs (PRODUCT §2.18, issue 36 item 3), on SQLite and PostgreSQL: the
 * JSON route (202, a double submit files once, 422s at the field with nothing stored, 404 for a
 * center that is off, the per-IP limit), the opt-out form and the page saying what was recorded,
 * and Global Privacy Control: `Sec-GPC: 1` shows "Opt-Out Request Honored" on every page and makes
 * a submission record one `gpc` opt-out of sale and sharing per address, never a second.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { createRetentionSweeper } from '../../../src/jobs/retention-sweeper.js';
import { readableTime } from '../../../src/http/letters/html.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { captureLogs } from '../../helpers/log-capture.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const GPC = { 'sec-gpc': '1' };
const NOTICE = 'Opt-Out Request Honored';
/** Submissions a minute per client IP in this file (each test uses its own IPs, but the limit's). */
const PER_IP = 3;

for (const dialect of dialects()) {
  describe(`privacy center opt-outs (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let now = Date.parse('2026-11-02T09:00:00.000Z');
    let ips = 0;
    /** A client IP of its own for each call, so the per-IP limit only counts where a test means it to. */
    const ip = () => `10.1.${Math.floor(++ips / 250)}.${(ips % 250) + 1}`;
    const db = () => t.services.database.db;
    const optOut = (payload: object, options: { ws?: string; ip?: string; headers?: Record<string, string> } = {}) =>
      t.app.inject({
        method: 'POST',
        url: `/privacy-center/v1/${options.ws ?? 'acme'}/opt-outs`,
        payload,
        headers: options.headers ?? {},
        remoteAddress: options.ip ?? ip(),
      });
    const rowsOf = (subjectId: string) =>
      db()
        .selectFrom('opt_outs')
        .select(['id', 'workspace_id', 'subject_provider', 'subject_id', 'kind', 'choice', 'source', 'status', 'due_at'])
        .where('subject_id', '=', subjectId)
        .orderBy('id')
        .execute();
    const allRows = async () => (await db().selectFrom('opt_outs').select('id').execute()).length;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, {
        env: { PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: String(PER_IP), PRIVACY_CENTER_CODES_PER_HOUR: '0' },
        clock: () => new Date(now),
      });
      await t.services.controllers.put('acme', { name: 'Acme GmbH', contact_email: 'privacy@acme.example' }, 'test');
      await t.services.privacyCenter.put('acme', { enabled: true, request_types: ['access', 'deletion'] }, 'test');
      await t.services.privacyCenter.put('globex', { enabled: false, request_types: ['access'] }, 'test');
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('JSON: 202 with one opt-out per kind for the address lower-cased; a double submit files once', async () => {
      const first = await optOut({ email: 'Ada@Example.COM', kinds: ['sale_sharing', 'direct_marketing'] });
      assert.equal(first.statusCode, 202, first.body);
      const answer = first.json() as { opt_outs: Record<string, string>[] };
      assert.deepEqual(
        answer.opt_outs.map((o) => [o.kind, o.choice, o.source, o.status]),
        [
          ['sale_sharing', 'opt_out', 'form', 'completed'],
          ['direct_marketing', 'opt_out', 'form', 'completed'],
        ],
      );
      const rows = await rowsOf('ada@example.com');
      assert.deepEqual(rows.map((r) => [r.workspace_id, r.subject_provider, r.subject_id, r.kind, r.choice, r.source]).sort(), [
        ['acme', 'email', 'ada@example.com', 'direct_marketing', 'opt_out', 'form'],
        ['acme', 'email', 'ada@example.com', 'sale_sharing', 'opt_out', 'form'],
      ]);
      assert.deepEqual(answer.opt_outs.map((o) => o.id).sort(), rows.map((r) => r.id).sort());

      // The same again (another spelling of the address, seconds later): the same answer, nothing new.
      now += 5_000;
      const again = await optOut({ email: 'ada@example.com', kinds: ['sale_sharing', 'direct_marketing'] });
      assert.equal(again.statusCode, 202, again.body);
      assert.deepEqual(again.json(), answer);
      assert.equal((await rowsOf('ada@example.com')).length, 2);

      // The preference is set, by the form.
      const reader = await t.bearer(['privacy:read'], ['acme']);
      const prefs = await t.app.inject({
        url: '/api/v1/privacy/preferences?workspace_id=acme&subject_provider=email&subject_id=ada@example.com',
        headers: { authorization: reader },
      });
      const p = prefs.json() as Record<string, { choice: string; source: string | null }>;
      assert.deepEqual(
        [p.sale_sharing!.choice, p.sale_sharing!.source, p.sensitive_use!.choice, p.direct_marketing!.choice],
        ['opt_out', 'form', 'not_set', 'opt_out'],
      );

      // The person is the audit's "data subject" under a pseudonym; the address is nowhere in the audit.
      const audit = await db()
        .selectFrom('audit_events')
        .select(['actor', 'actor_name'])
        .where('target_type', '=', 'opt_out')
        .execute();
      assert.ok(audit.length >= 2);
      assert.ok(audit.every((a) => a.actor.startsWith('subject:') && a.actor_name === 'data subject'));
      const text = JSON.stringify(await db().selectFrom('audit_events').selectAll().execute()).toLowerCase();
      assert.ok(!text.includes('ada@example.com'), 'the audit holds the address');
    });

    it('JSON: an unknown kind, no kind and a bad address are 422s at the field; nothing is stored; an opt-in records nothing yet', async () => {
      const before = await allRows();
      const unknown = await optOut({ email: 'bo@example.com', kinds: ['sale_sharing', 'selling_souls'] });
      assert.equal(unknown.statusCode, 422);
      const [error] = (unknown.json() as { detail: { type: string; loc: unknown[]; input: unknown }[] }).detail;
      assert.deepEqual([error!.type, error!.loc, error!.input], ['literal_error', ['body', 'kinds', 1], 'selling_souls']);

      const none = await optOut({ email: 'bo@example.com', kinds: [] });
      assert.equal(none.statusCode, 422);
      assert.deepEqual((none.json() as { detail: { loc: unknown[] }[] }).detail[0]!.loc, ['body', 'kinds']);

      const address = await optOut({ email: 'not an address', kinds: ['sale_sharing'] });
      assert.equal(address.statusCode, 422);
      assert.deepEqual((address.json() as { detail: { loc: unknown[] }[] }).detail[0]!.loc, ['body', 'email']);

      // An opt-in waits for its mailed code (center-opt-in.test.ts): no opt-out row until then.
      const optIn = await optOut({ email: 'bo@example.com', kinds: ['sale_sharing'], choice: 'opt_in' });
      assert.equal(optIn.statusCode, 202, optIn.body);
      assert.equal((optIn.json() as { status: string }).status, 'identity_unverified');

      // choice "opt_out" stated is the default made explicit.
      assert.equal(await allRows(), before);
      const stated = await optOut({ email: 'bo@example.com', kinds: ['sensitive_use'], choice: 'opt_out' });
      assert.equal(stated.statusCode, 202, stated.body);
      assert.equal(await allRows(), before + 1);
    });

    it('a center that is off, or never set: 404 for the JSON route and the form; nothing stored', async () => {
      const before = await allRows();
      for (const ws of ['globex', 'initech']) {
        const json = await optOut({ email: 'cy@example.com', kinds: ['sale_sharing'] }, { ws });
        assert.equal(json.statusCode, 404);
        assert.deepEqual(json.json(), { detail: 'This workspace has no privacy center' });
        const form = await t.app.inject({
          method: 'POST',
          url: `/privacy-center/${ws}/opt-outs`,
          headers: FORM,
          payload: 'kinds=sale_sharing&email=cy%40example.com',
          remoteAddress: ip(),
        });
        assert.equal(form.statusCode, 404);
        assert.match(form.body, /There is no privacy center at this address/);
      }
      assert.equal(await allRows(), before);
    });

    it('the per-IP limit of the center applies: the 4th submission a minute from one IP is a 429, not recorded', async () => {
      const from = '10.99.0.1';
      for (let i = 0; i < PER_IP; i++) {
        const res = await optOut({ email: `limit-${i}@example.com`, kinds: ['sale_sharing'] }, { ip: from });
        assert.equal(res.statusCode, 202, res.body);
      }
      const over = await optOut({ email: 'limit-over@example.com', kinds: ['sale_sharing'] }, { ip: from });
      assert.equal(over.statusCode, 429);
      assert.ok(Number(over.headers['retry-after']) >= 1);
      assert.equal((await rowsOf('limit-over@example.com')).length, 0);
      // The form counts in the same window.
      const form = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/acme/opt-outs',
        headers: FORM,
        payload: 'kinds=sale_sharing&email=limit-form%40example.com',
        remoteAddress: from,
      });
      assert.equal(form.statusCode, 429);
      assert.match(form.body, /Too many requests from here/);
      assert.equal((await rowsOf('limit-form@example.com')).length, 0);
    });

    it('the center page has the opt-out form; posting it records the kinds and the page says what, from when and by when', async () => {
      const page = await t.app.inject({ url: '/privacy-center/acme/' });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<h2 id="opt-out-heading">Do not sell or share my personal information<\/h2>/);
      assert.match(page.body, /<form method="post" action="\/privacy-center\/acme\/opt-outs#opt-out">/);
      for (const kind of ['sale_sharing', 'sensitive_use', 'direct_marketing'])
        assert.match(page.body, new RegExp(`type="checkbox" id="oo-kind-${kind}" name="kinds" value="${kind}"`));

      const posted = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/acme/opt-outs',
        headers: FORM,
        payload: 'kinds=sale_sharing&kinds=sensitive_use&email=+Dee%40Example.com',
        remoteAddress: ip(),
      });
      assert.equal(posted.statusCode, 202, posted.body);
      const rows = await rowsOf('dee@example.com');
      assert.deepEqual(rows.map((r) => [r.kind, r.source]).sort(), [
        ['sale_sharing', 'form'],
        ['sensitive_use', 'form'],
      ]);
      assert.match(posted.body, /<h1>Your choice is recorded<\/h1>/);
      assert.match(posted.body, /We recorded your choice for Dee@Example\.com\./);
      const recorded = /<ul class="recorded">(.*?)<\/ul>/.exec(posted.body)![1]!;
      const items = recorded.split('</li>').filter((x) => x.length > 0);
      assert.equal(items.length, 2);
      const sale = rows.find((r) => r.kind === 'sale_sharing')!;
      const sensitive = rows.find((r) => r.kind === 'sensitive_use')!;
      assert.match(items[0]!, /Do not sell or share my personal information\.<\/strong> Takes effect now\./);
      assert.ok(items[0]!.includes(`We must tell those we sold or shared it with by ${readableTime(sale.due_at)}.`), items[0]);
      assert.match(items[1]!, /Limit the use of my sensitive personal information\.<\/strong> Takes effect now\./);
      assert.ok(items[1]!.includes(`by ${readableTime(sensitive.due_at)}.`), items[1]);
      // 15 business days after Monday 2 November 2026.
      assert.equal(readableTime(sale.due_at), '23 November 2026, 09:00 UTC');
      assert.doesNotMatch(posted.body, /direct marketing/);
      assert.doesNotMatch(posted.body, new RegExp(NOTICE));

      // Posted twice (a double click): one opt-out per kind still.
      const twice = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/acme/opt-outs',
        headers: FORM,
        payload: 'kinds=sale_sharing&kinds=sensitive_use&email=dee%40example.com',
        remoteAddress: ip(),
      });
      assert.equal(twice.statusCode, 202);
      assert.equal((await rowsOf('dee@example.com')).length, 2);
    });

    it('the form shows each problem at its field and records nothing', async () => {
      const before = await allRows();
      const posted = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/acme/opt-outs',
        headers: FORM,
        payload: 'email=not-an-address',
        remoteAddress: ip(),
      });
      assert.equal(posted.statusCode, 422);
      assert.match(posted.body, /<fieldset aria-describedby="oo-kinds-problem" aria-invalid="true">/);
      assert.match(posted.body, /<p class="field-problem" id="oo-kinds-problem">Please choose at least one\.<\/p>/);
      assert.match(posted.body, /<p class="field-problem" id="oo-email-problem">Please enter a valid e-mail address/);
      assert.match(
        posted.body,
        /id="oo-email" [^>]*value="not-an-address" aria-describedby="oo-email-hint oo-email-problem" aria-invalid="true"/,
      );
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/acme/opt-outs',
        headers: FORM,
        payload: 'kinds=sale_sharing&kinds=souls&email=ok%40example.com',
        remoteAddress: ip(),
      });
      assert.equal(unknown.statusCode, 422);
      assert.match(unknown.body, /id="oo-kinds-problem">Please choose from the listed choices\./);
      assert.match(unknown.body, /id="oo-kind-sale_sharing" name="kinds" value="sale_sharing" checked/);
      assert.equal(await allRows(), before);
    });

    it('Sec-GPC: 1 shows "Opt-Out Request Honored" on the center pages; without it, not', async () => {
      const pages = [
        { method: 'GET' as const, url: '/privacy-center/acme/' },
        { method: 'POST' as const, url: '/privacy-center/acme/verify', payload: 'id=form_x&code=12' },
        { method: 'GET' as const, url: '/privacy-center/acme/status/pr_nothing?token=x' },
      ];
      for (const p of pages) {
        const base = { method: p.method, url: p.url, remoteAddress: ip(), ...(p.payload ? { payload: p.payload } : {}) };
        const withSignal = await t.app.inject({ ...base, headers: { ...(p.payload ? FORM : {}), ...GPC } });
        assert.ok(withSignal.body.includes(`<div class="gpc" role="status"><p><strong>${NOTICE}</strong></p>`), p.url);
        assert.match(String(withSignal.headers.vary), /Sec-GPC/);
        const without = await t.app.inject({ ...base, headers: p.payload ? FORM : {} });
        assert.ok(!without.body.includes(NOTICE), p.url);
        const other = await t.app.inject({ ...base, headers: { ...(p.payload ? FORM : {}), 'sec-gpc': '0' } });
        assert.ok(!other.body.includes(NOTICE), p.url);
      }
      // A page alone records nothing: there is no address.
      assert.equal((await db().selectFrom('opt_outs').select('id').where('source', '=', 'gpc').execute()).length, 0);
    });

    it('a request submitted with Sec-GPC: 1 records one gpc opt-out of sale and sharing; repeats, by any route, add none', async () => {
      const gpcRows = async (subject: string) => (await rowsOf(subject)).filter((r) => r.source === 'gpc');
      // Without the signal: nothing.
      const plain = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/v1/acme/requests',
        payload: { request_type: 'access', email: 'eve@example.com' },
        remoteAddress: ip(),
      });
      assert.equal(plain.statusCode, 202);
      assert.equal((await rowsOf('eve@example.com')).length, 0);

      const first = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/v1/acme/requests',
        payload: { request_type: 'access', email: 'Eve@Example.com' },
        headers: GPC,
        remoteAddress: ip(),
      });
      assert.equal(first.statusCode, 202, first.body);
      const rows = await gpcRows('eve@example.com');
      assert.deepEqual(
        rows.map((r) => [r.subject_provider, r.kind, r.choice, r.source, r.status]),
        [['email', 'sale_sharing', 'opt_out', 'gpc', 'completed']],
      );

      // Again with the signal: as JSON, by the request form, with the opt-out form (whose own kinds are recorded).
      now += 60_000;
      const again = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/v1/acme/requests',
        payload: { request_type: 'deletion', email: 'eve@example.com' },
        headers: GPC,
        remoteAddress: ip(),
      });
      assert.equal(again.statusCode, 202);
      const byForm = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/acme/',
        headers: { ...FORM, ...GPC },
        payload: 'request_type=access&email=eve%40example.com',
        remoteAddress: ip(),
      });
      assert.equal(byForm.statusCode, 200);
      assert.match(byForm.body, new RegExp(NOTICE));
      const viaOptOut = await optOut({ email: 'eve@example.com', kinds: ['direct_marketing'] }, { headers: GPC });
      assert.equal(viaOptOut.statusCode, 202);
      assert.deepEqual(
        (viaOptOut.json() as { opt_outs: { id: string; kind: string; source: string }[] }).opt_outs.map((o) => [
          o.kind,
          o.source,
        ]),
        [
          ['sale_sharing', 'gpc'],
          ['direct_marketing', 'form'],
        ],
      );
      assert.equal((viaOptOut.json() as { opt_outs: { id: string }[] }).opt_outs[0]!.id, rows[0]!.id, 'the gpc one told again');
      assert.deepEqual(
        (await gpcRows('eve@example.com')).map((r) => r.id),
        [rows[0]!.id],
      );

      // Days later, once the key's record is swept, the signal still adds nothing.
      now += 2 * 24 * 60 * 60_000;
      const sweeper = createRetentionSweeper({
        database: t.services.database,
        policies: t.services.policies,
        clock: () => new Date(now),
        log: pino({ level: 'silent' }),
      });
      const swept = await sweeper.sweep(new Date(now));
      assert.ok(swept.idempotencyRecords > 0);
      const later = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/v1/acme/requests',
        payload: { request_type: 'access', email: 'eve@example.com' },
        headers: GPC,
        remoteAddress: ip(),
      });
      assert.equal(later.statusCode, 202);
      assert.deepEqual(
        (await gpcRows('eve@example.com')).map((r) => r.id),
        [rows[0]!.id],
      );
      // Another workspace's center is another record: once per subject and workspace (not tested with a second center here).
      const text = JSON.stringify(await db().selectFrom('audit_events').selectAll().execute()).toLowerCase();
      assert.ok(!text.includes('eve@example.com'));
    });

    it('no log line at trace level holds the address, in any case, through the JSON route, the form, a 422 and GPC', async () => {
      const logs = captureLogs(t.app, 'trace');
      try {
        const json = await optOut({ email: 'Zed.Log@Example.com', kinds: ['sale_sharing'] }, { headers: GPC });
        assert.equal(json.statusCode, 202);
        const form = await t.app.inject({
          method: 'POST',
          url: '/privacy-center/acme/opt-outs',
          headers: { ...FORM, ...GPC },
          payload: 'kinds=direct_marketing&email=Zed.Log%40Example.com',
          remoteAddress: ip(),
        });
        assert.equal(form.statusCode, 202);
        const bad = await optOut({ email: 'zed.log@example.com', kinds: ['nope'] });
        assert.equal(bad.statusCode, 422);
        const request = await t.app.inject({
          method: 'POST',
          url: '/privacy-center/v1/acme/requests',
          payload: { request_type: 'access', email: 'zed.log@example.com' },
          headers: GPC,
          remoteAddress: ip(),
        });
        assert.equal(request.statusCode, 202);
      } finally {
        logs.restore();
      }
      assert.ok(logs.lines.length > 0, 'nothing was logged: the check would prove nothing');
      assert.ok(!logs.text().toLowerCase().includes('zed.log@example.com'), 'a log line holds the address');
      assert.equal((await rowsOf('zed.log@example.com')).length, 3, 'one gpc, two form opt-outs');
    });
  });
}
