/**
 * The review before release (PRODUCT §2.20, issue 38 item 1, 4), on SQLite and PostgreSQL: with
 * the workspace policy's `review_packages`, a finished access request filed through the privacy
 * center waits in `action_required` / `awaiting_review`; the person's status page says it is
 * being checked and offers no answer, and no "done" mail goes out; an operator reads the package,
 * withholds a value that names someone else (GDPR Art. 15(4)) by JSON Pointer with a reason, and
 * another operator releases it (four eyes). The value is then absent from the letter, the JSON
 * (API and the person's download), the audit API, the audit table's rows and the log, while an
 * admin's `?unredacted=true` still reads it as found; the chain verifies. Bad input: 422 at
 * `["body","path"]`, 409 out of state, nothing changed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { createWorker } from '../../../src/jobs/worker.js';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { fileThroughCenter, mailWords } from '../../helpers/center-outbox.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { addSystem, postResult, tasksOf } from '../../helpers/data-systems.js';
import { captureLogs, type LogCapture } from '../../helpers/log-capture.js';
import { type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp-receiver.js';

const log = pino({ level: 'silent' });
/** What the shop's system found: an order whose note names another customer. */
const COLLEAGUE = 'Bartholomew Quill-Other, 7 Elm Row';
const REASON = 'names another customer';

for (const dialect of dialects()) {
  describe(`review before release (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let receiver: SmtpReceiver;
    let logs: LogCapture;
    let reviewer: string;
    let releaser: string;
    let admin: string;
    let reader: string;
    let reporter: string;
    let now = Date.parse('2026-11-02T09:00:00.000Z');
    const clock = () => new Date(now);
    const db = () => t.services.database.db;

    const outbox = async (kind: string, requestId?: string) => {
      let query = db()
        .selectFrom('privacy_center_mails')
        .select(['payload', 'request_id', 'workspace_id'])
        .where('kind', '=', kind);
      if (requestId) query = query.where('request_id', '=', requestId);
      return query.orderBy('id', 'desc').execute();
    };
    /** Files an access request through the center's JSON API with the mailed code, 30 s later. @returns its id and status token. */
    const fileByCenter = (email: string) =>
      fileThroughCenter(t, { workspace: 'acme', requestType: 'access', email, beforeVerify: () => (now += 30_000) });
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
    /** An access request, filed by the center, whose shop system answered with the order note: awaiting review. */
    const inReview = async (email: string) => {
      const filed = await fileByCenter(email);
      await processAll();
      const [task] = await tasksOf(db(), filed.id);
      assert.ok(task, 'a task for the shop');
      const data = {
        'user.contact': [
          { order: 'o-1001', note: `Left with neighbour ${COLLEAGUE}` },
          { order: 'o-1002', note: 'Delivered' },
        ],
      };
      const answered = await postResult(t, reporter, task.id, { outcome: 'completed', data });
      assert.equal(answered.statusCode, 200, answered.body);
      return filed;
    };
    const api = (method: 'GET' | 'POST' | 'DELETE', url: string, auth: string, payload?: Record<string, unknown>) =>
      t.app.inject({
        method,
        url: `/api/v1/privacy/requests/${url}`,
        headers: { authorization: auth },
        ...(payload ? { payload } : {}),
      });
    const row = (id: string) => db().selectFrom('privacy_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const auditText = async () =>
      (await db().selectFrom('audit_events').select(['action', 'details', 'actor_name']).execute())
        .map((r) => JSON.stringify(r))
        .join('\n');

    before(async () => {
      database = await dialect.create();
      receiver = await startSmtpReceiver();
      t = await startTestApp(database, {
        env: { SMTP_URL: receiver.url, PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '0', PRIVACY_CENTER_CODES_PER_HOUR: '0' },
        clock,
      });
      logs = captureLogs(t.app);
      admin = await t.bearer(['admin'], ['acme']);
      reviewer = await t.bearer(['privacy:write', 'privacy:read'], ['acme']);
      releaser = await t.bearer(['privacy:write', 'privacy:read'], ['acme']);
      reader = await t.bearer(['privacy:read'], ['acme']);
      reporter = await t.bearer(['tasks:write'], ['acme']);
      await t.services.controllers.put('acme', { name: 'Acme GmbH', contact_email: 'privacy@acme.example' }, 'test');
      await t.services.privacyCenter.put('acme', { enabled: true, request_types: ['access', 'deletion'] }, 'test');
      await t.services.policies.putLayer('acme', null, { confirm_no_data: false, review_packages: true }, 'test');
      await addSystem(t, admin, { key: 'shop', name: 'Shop', kind: 'manual', request_types: ['access', 'deletion'] });
    });
    after(async () => {
      logs.restore();
      await t.close();
      await receiver.close();
      await database.drop();
    });

    it('a finished access waits as awaiting_review: the person sees "being checked" and no answer, no done mail; an operator reads the package', async () => {
      const { id, token } = await inReview('lea@example.com');
      const stored = await row(id);
      assert.deepEqual([stored.status, stored.status_reason, stored.completed_at], ['action_required', 'awaiting_review', null]);

      const page = await t.app.inject({ url: `/privacy-center/acme/status/${id}?token=${token}` });
      assert.equal(page.statusCode, 200, page.body);
      assert.match(page.body, /Being checked before release/);
      assert.doesNotMatch(page.body, /package\.json|Read the letter/, 'no answer before release');
      const download = await t.app.inject({ url: `/privacy-center/acme/status/${id}/package.json?token=${token}` });
      assert.equal(download.statusCode, 404, 'the person cannot fetch it yet');
      assert.equal((await outbox('completed', id)).length, 0, 'no done mail yet');

      const pkg = await api('GET', `${id}/package`, reader);
      assert.equal(pkg.statusCode, 200, pkg.body);
      assert.equal(pkg.json().systems.shop['user.contact'][0].note, `Left with neighbour ${COLLEAGUE}`);
      const fetched = await db()
        .selectFrom('request_results')
        .select('package_fetched_at')
        .where('request_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(fetched.package_fetched_at, null, "an operator's read during review is not the delivery");
    });

    it('withheld by one operator, released by another: the value is gone from letter, JSON, download, audit and log; admin reads it unredacted; the chain verifies', async () => {
      const { id, token } = await inReview('max@example.com');
      const path = '/systems/shop/user.contact/0/note';
      const added = await api('POST', `${id}/package/redactions`, reviewer, { path, reason: REASON });
      assert.equal(added.statusCode, 201, added.body);
      const redaction = added.json();
      assert.match(redaction.id, /^red_/);
      assert.deepEqual([redaction.path, redaction.reason, redaction.request_id], [path, REASON, id]);

      const listed = await api('GET', `${id}/package/redactions`, reader);
      assert.deepEqual(
        listed.json().items.map((r: { id: string }) => r.id),
        [redaction.id],
      );
      const shown = (await api('GET', `${id}/package`, reader)).json();
      assert.equal(shown.systems.shop['user.contact'][0].note, `[withheld: ${REASON}]`);
      assert.equal(shown.systems.shop['user.contact'][1].note, 'Delivered', 'only the path named is withheld');

      const self = await api('POST', `${id}/release`, reviewer, {});
      assert.equal(self.statusCode, 403, self.body);
      assert.match(self.json().detail, /another operator/);
      assert.equal((await row(id)).status, 'action_required', 'four eyes: nothing changed');

      const released = await api('POST', `${id}/release`, releaser, { reason: 'checked' });
      assert.equal(released.statusCode, 200, released.body);
      assert.equal(released.json().status, 'completed');
      assert.ok((await row(id)).completed_at);
      assert.equal((await outbox('completed', id)).length, 1, 'the done mail goes out at release');

      const json = await api('GET', `${id}/package`, reader);
      const letter = await api('GET', `${id}/package?format=html`, reader);
      const download = await t.app.inject({ url: `/privacy-center/acme/status/${id}/package.json?token=${token}` });
      assert.equal(download.statusCode, 200, download.body);
      for (const [name, body] of [
        ['JSON', json.body],
        ['letter', letter.body],
        ['download', download.body],
      ] as const) {
        assert.ok(!body.includes('Bartholomew'), `${name} holds the withheld value`);
        assert.ok(body.includes(`[withheld: ${REASON}]`), `${name} says what was withheld and why`);
      }

      const notAdmin = await api('GET', `${id}/package?unredacted=true`, reader);
      assert.equal(notAdmin.statusCode, 403, notAdmin.body);
      const asFound = await api('GET', `${id}/package?unredacted=true`, admin);
      assert.equal(asFound.json().systems.shop['user.contact'][0].note, `Left with neighbour ${COLLEAGUE}`);

      const trail = await t.app.inject({ url: `/api/v1/audit-events?target_id=${id}`, headers: { authorization: admin } });
      assert.equal(trail.statusCode, 200, trail.body);
      const actions = trail.json().items.map((e: { action: string }) => e.action);
      assert.ok(
        actions.includes('privacy_request.redaction_added') && actions.includes('privacy_request.released'),
        actions.join(),
      );
      const entry = trail.json().items.find((e: { action: string }) => e.action === 'privacy_request.redaction_added');
      assert.deepEqual([entry.details.path, entry.details.reason], [path, REASON]);
      assert.ok(!trail.body.includes('Bartholomew'), 'audit API');
      assert.ok(!(await auditText()).includes('Bartholomew'), 'audit rows');
      assert.ok(!logs.text().includes('Bartholomew'), 'log');
      const everywhere = await t.bearer(['admin'], ['*']);
      const verified = await t.app.inject({ url: '/api/v1/audit-events/verify', headers: { authorization: everywhere } });
      assert.equal(verified.json().intact, true, verified.body);

      const late = await api('POST', `${id}/package/redactions`, reviewer, {
        path: '/systems/shop/user.contact/1/note',
        reason: 'late',
      });
      assert.equal(late.statusCode, 409, late.body);
      const unwithhold = await api('DELETE', `${id}/package/redactions/${redaction.id}`, releaser);
      assert.equal(unwithhold.statusCode, 409, 'after release the redactions are the record');
      assert.equal((await api('GET', `${id}/package/redactions`, reader)).json().items.length, 1);
    });

    it('bad input changes nothing: a path not in the package is a 422 at body.path; a path withheld twice, or a release out of review, a 409', async () => {
      const { id } = await inReview('ina@example.com');
      const before = await auditText();
      for (const path of ['/systems/shop/nothing', 'systems/shop', '', '/systems/shop/user.contact/9/note', '/systems/~2x']) {
        const res = await api('POST', `${id}/package/redactions`, reviewer, { path, reason: REASON });
        assert.equal(res.statusCode, 422, `${path}: ${res.body}`);
        if (path !== '') assert.deepEqual(res.json().detail[0].loc, ['body', 'path'], path);
      }
      assert.equal((await api('GET', `${id}/package/redactions`, reader)).json().items.length, 0);
      assert.equal(await auditText(), before, 'nothing audited');

      const ok = await api('POST', `${id}/package/redactions`, reviewer, {
        path: '/systems/shop/user.contact/1',
        reason: REASON,
      });
      assert.equal(ok.statusCode, 201, ok.body);
      const twice = await api('POST', `${id}/package/redactions`, releaser, {
        path: '/systems/shop/user.contact/1',
        reason: 'again',
      });
      assert.equal(twice.statusCode, 409, twice.body);
      assert.match(twice.json().detail, new RegExp(ok.json().id));

      // Removed, the reviewer's redaction no longer stands: any operator may release, the reviewer too.
      const removed = await api('DELETE', `${id}/package/redactions/${ok.json().id}`, reviewer);
      assert.equal(removed.statusCode, 204, removed.body);
      const unknown = await api('DELETE', `${id}/package/redactions/${ok.json().id}`, reviewer);
      assert.equal(unknown.statusCode, 404, unknown.body);
      const released = await api('POST', `${id}/release`, reviewer);
      assert.equal(released.statusCode, 200, released.body);
      const again = await api('POST', `${id}/release`, releaser, {});
      assert.equal(again.statusCode, 409, again.body);
      assert.match(again.json().detail, /does not wait for a review/);
    });

    it('a deletion does not wait for a review: review_packages holds packages only', async () => {
      const filed = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/v1/acme/requests',
        payload: { request_type: 'deletion', email: 'del@example.com' },
      });
      assert.equal(filed.statusCode, 202, filed.body);
      const { code } = await mailWords(t, (await outbox('code'))[0]!);
      const verified = await t.app.inject({
        method: 'POST',
        url: `/privacy-center/v1/acme/requests/${filed.json().id}/verify`,
        payload: { code },
      });
      assert.equal(verified.statusCode, 200, verified.body);
      const id = (await mailWords(t, (await outbox('received'))[0]!)).request_id!;
      await processAll();
      const [task] = await tasksOf(db(), id);
      assert.equal(
        (await postResult(t, reporter, task!.id, { outcome: 'completed', records: { 'user.contact': 1 } })).statusCode,
        200,
      );
      const stored = await row(id);
      assert.deepEqual([stored.status, stored.status_reason], ['completed', null]);
      const redact = await api('POST', `${id}/package/redactions`, reviewer, { path: '/x', reason: REASON });
      assert.equal(redact.statusCode, 409, redact.body);
    });
  });
}
