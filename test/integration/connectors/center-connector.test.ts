/**
 * A person the service never heard of, at the privacy center, against a database system (issue
 * 32, PRODUCT §2.17, §2.15, §2.14): every privacy-center request is by e-mail, and the shop
 * dataset marks `customer.email` as `identity: email`, so the request reaches her rows. End to
 * end: the submission, the code read from the mail a real SMTP server received, the verification,
 * the worker and the task runner; the access answer holds her rows from the target; then a center
 * deletion masks them (checked in the target database), and only then does the status page say
 * "deleted". (Before, the request became `email_id`, the shop said "holds no data of yours" and
 * the deletion completed with `erased: {}` while the rows stayed.) On the service's SQLite and
 * PostgreSQL stores, against PostgreSQL and MariaDB targets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MailLoop, startMailLoop } from '../../../src/jobs/mail-delivery-loop.js';
import { createMailer, type Mailer } from '../../../src/modules/privacy-center/mailer.js';
import { addDatabaseSystem, runUntilIdle, shopDataset } from '../../helpers/connector-flow.js';
import { createShopTarget, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';
import { tasksOf } from '../../helpers/data-systems.js';
import { dialects } from '../../helpers/databases.js';
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp-receiver.js';
import { type Fixture, openFixture, requestRow, silentLog } from '../../helpers/worker.js';

const kinds = await targetKinds();
const BASE = 'http://center.example';

for (const dialect of dialects()) {
  for (const { kind, skip } of kinds) {
    describe(`privacy center to a database system (${dialect.name} store, ${kind} target)`, { skip }, () => {
      let f: Fixture;
      let target: ShopTarget;
      let receiver: SmtpReceiver;
      let mailer: Mailer;
      let loop: MailLoop;
      let admin: string;
      const db = () => f.t.services.database.db;

      /** Sends what is due; @returns the mails that arrived with it. */
      async function deliver(expected: number): Promise<ReceivedMail[]> {
        const before = receiver.mails.length;
        await loop.round();
        const mails = await receiver.waitFor(before + expected);
        assert.equal(mails.length, before + expected);
        return mails.slice(before);
      }

      /**
       * The person's whole filing: submit with `email`, read the code from the mail, verify, read
       * the status link from the "received" mail. @returns the request id and its status page.
       */
      async function fileAtCenter(requestType: string, email: string): Promise<{ id: string; page: string }> {
        const submitted = await f.t.app.inject({
          method: 'POST',
          url: '/privacy-center/v1/acme/requests',
          payload: { request_type: requestType, email },
        });
        assert.equal(submitted.statusCode, 202, submitted.body);
        const [codeMail] = await deliver(1);
        const code = /Your code is ([0-9]{6})\./.exec(codeMail!.text)?.[1];
        assert.ok(code, codeMail!.text);
        const verified = await f.t.app.inject({
          method: 'POST',
          url: `/privacy-center/v1/acme/requests/${submitted.json().id}/verify`,
          payload: { code },
        });
        assert.equal(verified.statusCode, 200, verified.body);
        const [received] = await deliver(1);
        const link = /http:\/\/center\.example(\/privacy-center\/acme\/status\/(pr_[0-9A-Z]{26})\?token=[A-Za-z0-9_-]{43})/.exec(
          received!.text,
        );
        assert.ok(link, received!.text);
        return { id: link[2]!, page: link[1]! };
      }

      const statusPage = async (path: string) => {
        const res = await f.t.app.inject({ method: 'GET', url: path });
        assert.equal(res.statusCode, 200, res.body);
        return res.body;
      };

      before(async () => {
        target = await createShopTarget(kind);
        receiver = await startSmtpReceiver();
        f = await openFixture(dialect.create, {
          env: {
            CONNECTOR_ALLOWED_HOSTS: '127.0.0.1',
            SMTP_URL: receiver.url,
            SMTP_FROM: 'privacy@acme.example',
            PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '0',
            PRIVACY_CENTER_CODES_PER_HOUR: '0',
          },
        });
        admin = await f.t.bearer(['admin', 'privacy:read'], ['acme']);
        await f.t.services.privacyCenter.put('acme', { enabled: true, request_types: ['access', 'deletion'] }, 'test');
        await addDatabaseSystem(f, admin, {
          key: 'shop-db',
          name: 'Shop database',
          kind,
          url: target.url,
          dataset: shopDataset('shop'),
        });
        mailer = createMailer(receiver.url, 'privacy@acme.example');
        loop = startMailLoop({
          db: db(),
          clock: f.time.clock,
          mailer,
          controllers: f.t.services.controllers,
          secretBox: f.t.services.secretBox,
          publicBaseUrl: BASE,
          pollMs: 3_600_000,
          log: silentLog,
        });
      });
      after(async () => {
        await loop?.stop();
        mailer?.close();
        await f?.close();
        await receiver?.close();
        await target?.drop();
      });

      it('access: the answer holds her customer row, logins and orders from the shop, found by her e-mail', async () => {
        const before = await target.checksums();
        // Another case than the shop stores: the address is matched as given and lower-cased.
        const { id, page } = await fileAtCenter('access', 'Ada@Example.com');
        const row = await requestRow(f, id);
        assert.deepEqual([row.subject_provider, row.intake_ref], ['email', 'privacy-center']);
        await runUntilIdle(f);
        const [task] = await tasksOf(db(), id);
        assert.deepEqual([task!.system_key, task!.status], ['shop-db', 'completed'], task!.result ?? '');
        assert.deepEqual((await requestRow(f, id)).status, 'completed');
        const pkg = await f.t.app.inject({ url: `/api/v1/privacy/requests/${id}/package`, headers: { authorization: admin } });
        assert.equal(pkg.statusCode, 200, pkg.body);
        const part = pkg.json().systems['shop-db'] as Record<string, Record<string, unknown>[]>;
        assert.deepEqual(
          part.customer?.map((r) => [r.email, r.full_name]),
          [['ada@example.com', 'Ada Lovelace']],
        );
        assert.equal(part.login?.length, 2, 'her two logins');
        assert.deepEqual(part.orders?.map((o) => o.total_cents).sort(), [1200, 800].sort(), 'her two orders, no one else’s');
        assert.deepEqual(await target.checksums(), before, 'an access writes nothing');
        const [done] = await deliver(1);
        assert.match(done!.subject, /is done/);
        assert.doesNotMatch(done!.text, /could not be searched/, 'every system was searched');
        const letter = await statusPage(`${page.replace('?', '/letter?')}`);
        assert.match(letter, /Shop database/);
        assert.match(letter, /Ada Lovelace/);
        assert.doesNotMatch(letter, /holds no data of yours/);
      });

      it('deletion: her rows are masked in the target, and the status page says "deleted" only after', async () => {
        const { id, page } = await fileAtCenter('deletion', 'ada@example.com');
        assert.doesNotMatch(await statusPage(page), /Deletion confirmed/, 'nothing is deleted yet');
        const [still] = await target.admin('SELECT email FROM customer WHERE id = 1');
        assert.equal(still?.email, 'ada@example.com');
        await runUntilIdle(f);
        const [task] = await tasksOf(db(), id);
        assert.equal(task!.status, 'completed', task!.result ?? '');
        const collections = (JSON.parse(task!.result!) as { collections: Record<string, { masked: number; deleted: number }> })
          .collections;
        assert.deepEqual(collections.customer, { masked: 1, deleted: 0 });
        assert.deepEqual(collections.login, { masked: 2, deleted: 0 });
        assert.deepEqual(collections.preference, { masked: 0, deleted: 1 });
        const [ada] = await target.admin('SELECT email, full_name FROM customer WHERE id = 1');
        assert.notEqual(ada?.email, 'ada@example.com');
        assert.match(String(ada?.email), /@masked\.invalid$/);
        assert.equal(ada?.full_name, 'erased');
        const logins = await target.admin('SELECT ip_address FROM login WHERE customer_id = 1');
        assert.deepEqual(
          logins.map((l) => l.ip_address),
          [null, null],
        );
        assert.deepEqual(await target.admin('SELECT customer_id FROM preference WHERE customer_id = 1'), []);
        const [bob] = await target.admin('SELECT email, full_name FROM customer WHERE id = 2');
        assert.deepEqual([bob?.email, bob?.full_name], ['bob@example.com', 'Bob Other'], 'another customer untouched');
        assert.equal((await requestRow(f, id)).status, 'completed');
        const [done] = await deliver(1);
        assert.match(done!.subject, /is done/);
        const body = await statusPage(page);
        assert.match(body, /Deletion confirmed/);
        assert.doesNotMatch(body, /could not be searched/);
      });
    });
  }
}
