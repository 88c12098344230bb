/**
 * An answer in transit survives a deletion (PRODUCT §2.13, issue 22 item 7). Access and deletion
 * of the same person filed together and run by the worker: the deletion used to erase the access
 * package before anyone fetched it (410). Now the unfetched package is kept, the deletion's report
 * lists it under `kept` with the reason, the first fetch gets it whole (200, once), later fetches
 * get 410, and the retention sweep erases it for good, leaving no copy; an unfetched package
 * nobody fetches goes when its retention passes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { createRetentionSweeper } from '../../../src/jobs/retention-sweeper.js';
import { deliveredHeldPackages, finishHeldErasure } from '../../../src/modules/privacy-requests/result.repository.js';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { holdPackageErasure, replacePackage } from '../../../src/modules/subject-data/erasure.repository.js';
import { deliveredPackage } from '../../../src/modules/subject-data/package-delivery.fns.js';
import { packageWithout } from '../../../src/modules/subject-data/package.fns.js';
import { dialects } from '../../helpers/databases.js';
import { findInTables } from '../../helpers/storage-scan.js';
import { addSources, sendIdentityEvent, type Sources, unique } from '../../helpers/subject-data.js';
import { type Fixture, fileRequest, openFixture, requestRow, testWorker } from '../../helpers/worker.js';

const DAY_MS = 24 * 60 * 60 * 1000;

for (const dialect of dialects()) {
  describe(`an answer in transit survives a deletion (${dialect.name})`, () => {
    let f: Fixture;
    let s: Sources;

    before(async () => {
      f = await openFixture(() => dialect.create());
      s = await addSources(f.t, 'acme');
    });
    after(() => f.close());

    const drain = async () => {
      const worker = testWorker(f, REQUEST_HANDLERS);
      while (await worker.runOnce());
    };
    const get = (path: string) => f.t.app.inject({ url: `/api/v1/privacy/requests/${path}`, headers: { authorization: f.auth } });
    const resultRow = (id: string) =>
      f.t.services.database.db.selectFrom('request_results').selectAll().where('request_id', '=', id).executeTakeFirstOrThrow();
    const sweep = (now: Date) =>
      createRetentionSweeper({
        database: f.t.services.database,
        policies: f.t.services.policies,
        clock: () => now,
        log: pino({ level: 'silent' }),
        packageRetentionDays: 30,
      }).sweep(now);

    /** A person the identity provider told us about; @returns their id, e-mail address and name. */
    async function person() {
      const r = unique();
      const p = { userId: `u-${r}`, email: `zq-transit-${r}@example.test`, name: `Zq Transit ${r}` };
      await sendIdentityEvent(f.t, s, 'user.created', '2026-05-01T00:00:00.000Z', {
        user_id: p.userId,
        email: p.email,
        name: p.name,
      });
      return p;
    }

    /** Files access then deletion of the person together and lets the worker run both. */
    async function accessAndDeletion(userId: string, deletionScope: string[]) {
      const common = { subject_provider: 'okta', subject_id: userId };
      const access = await fileRequest(f, { ...common, request_type: 'access', scope: ['user'] });
      const deletion = await fileRequest(f, { ...common, request_type: 'deletion', scope: deletionScope });
      await drain();
      assert.equal((await requestRow(f, access.id)).status, 'completed');
      assert.equal((await requestRow(f, deletion.id)).status, 'completed');
      return { access: access.id, deletion: deletion.id };
    }

    it('keeps the unfetched answer, lists it as kept, gives it once, then 410; the sweep leaves no copy', async () => {
      const p = await person();
      const { access, deletion } = await accessAndDeletion(p.userId, ['user']);

      // The deletion did its work on everything else, and says why this answer is still there.
      const subjects = await f.t.services.database.db
        .selectFrom('subjects')
        .select('id')
        .where('subject_id', '=', p.userId)
        .execute();
      assert.deepEqual(subjects, [], 'the profile is erased');
      const report = (await get(`${deletion}/report`)).json();
      const kept = report.categories['user.account'].kept as { what: string; why: string }[];
      const held = kept.filter((k) => k.what.includes(access));
      assert.equal(held.length, 1, JSON.stringify(kept));
      assert.match(held[0]!.what, /completed but not yet fetched/);
      assert.match(held[0]!.why, /kept until it is fetched once or its retention \(PACKAGE_RETENTION_DAYS\) passes/);
      assert.equal(JSON.stringify(report).includes(p.email), false, 'the report names no personal data');

      // Fetched once: whole, with the person's data.
      const first = await get(`${access}/package`);
      assert.equal(first.statusCode, 200, first.body);
      const pkg = first.json();
      assert.equal(pkg.data['user.contact.email'].email, p.email);
      assert.equal(pkg.data['user.name'].name, p.name);
      assert.deepEqual(pkg.data['user.account'].identity, { provider: 'okta', id: p.userId });

      // Then gone, as JSON and as the letter.
      for (const path of [`${access}/package`, `${access}/package?format=html`]) {
        const later = await get(path);
        assert.equal(later.statusCode, 410, later.body);
        assert.match(later.json().detail, /erased/);
      }

      // The sweep erases the stored copy for good: no table holds the address or the name any more.
      assert.ok((await findInTables(f.t, [p.email])).length > 0, 'still stored until the sweep');
      const counts = await sweep(f.time.clock());
      assert.ok(counts.packages >= 1);
      const row = await resultRow(access);
      assert.deepEqual([row.package, row.package_erasure_held], [null, null]);
      assert.notEqual(row.package_fetched_at, null);
      assert.deepEqual(await findInTables(f.t, [p.email, p.name]), []);
      assert.equal((await get(`${access}/package`)).statusCode, 410);
    });

    it('a partial deletion: after the one fetch only the erased category goes, the rest is still served', async () => {
      const p = await person();
      const { access, deletion } = await accessAndDeletion(p.userId, ['user.name']);
      const report = (await get(`${deletion}/report`)).json();
      assert.ok(JSON.stringify(report.categories['user.name'].kept).includes(access));
      assert.equal((await get(`${access}/package`)).json().data['user.name'].name, p.name, 'the first fetch is whole');
      const later = await get(`${access}/package`);
      assert.equal(later.statusCode, 200);
      assert.deepEqual(Object.keys(later.json().data).sort(), ['user.account', 'user.contact.email', 'user.content']);
      await sweep(f.time.clock());
      const stored = JSON.parse((await resultRow(access)).package ?? 'null');
      assert.equal('user.name' in stored.data, false);
      assert.equal(stored.data['user.contact.email'].email, p.email);
      assert.deepEqual(await findInTables(f.t, [p.name]), []);
    });

    it('an answer nobody fetches goes when its retention passes; one already fetched is cut at once', async () => {
      const p = await person();
      const common = { subject_provider: 'okta', subject_id: p.userId };
      const fetched = await fileRequest(f, { ...common, request_type: 'export', scope: ['user'] });
      await drain();
      assert.equal((await get(`${fetched.id}/package`)).statusCode, 200);
      const { access } = await accessAndDeletion(p.userId, ['user']);
      assert.equal((await get(`${fetched.id}/package`)).statusCode, 410, 'delivered before: erased by the deletion itself');
      assert.equal((await resultRow(fetched.id)).package, null);
      assert.notEqual((await resultRow(access)).package, null);
      await sweep(f.time.clock());
      assert.notEqual((await resultRow(access)).package, null, 'kept while in transit and within its retention');
      await sweep(new Date(f.time.clock().getTime() + 31 * DAY_MS));
      assert.equal((await resultRow(access)).package, null);
      assert.deepEqual(await findInTables(f.t, [p.email, p.name]), []);
      assert.equal((await get(`${access}/package`)).statusCode, 410);
    });

    it('the sweep never writes back a stale copy over a cut a deletion made meanwhile', async () => {
      const p = await person();
      const { access } = await accessAndDeletion(p.userId, ['user.name']);
      assert.equal((await get(`${access}/package`)).statusCode, 200);
      const db = f.t.services.database.db;
      // The sweep has read the delivered package with its hold …
      const [row] = (await deliveredHeldPackages(db, 100)).filter((r) => r.request_id === access);
      assert.ok(row?.package && row.package_erasure_held);
      // … when another deletion (e-mail) cuts it (and with it what was held) …
      await replacePackage(db, access, packageWithout(row.package, ['user.name', 'user.contact.email']).json);
      // … then the sweep's write of its own cut (name only) must not bring the address back.
      await finishHeldErasure(db, access, row.package_erasure_held, deliveredPackage(row.package, row.package_erasure_held));
      const stored = (await resultRow(access)).package ?? '';
      assert.ok(!stored.includes(p.email) && !stored.includes(p.name), 'the later cut stands');
      assert.ok(stored.includes('user.account'), 'the rest of the answer stays');
    });

    it('two deletions holding on one package at once: the categories of both are held', async () => {
      const p = await person();
      const { access } = await accessAndDeletion(p.userId, ['user.name']);
      assert.equal((await resultRow(access)).package_erasure_held, '["user.name"]');
      // A second deletion that read the package before the first one's hold committed (stale: null).
      await holdPackageErasure(f.t.services.database.db, access, null, ['user.contact.email']);
      assert.deepEqual(JSON.parse((await resultRow(access)).package_erasure_held ?? '[]'), ['user.contact.email', 'user.name']);
      assert.equal((await get(`${access}/package`)).statusCode, 200);
      await sweep(f.time.clock());
      const stored = (await resultRow(access)).package ?? '';
      assert.ok(!stored.includes(p.email) && !stored.includes(p.name), 'both cuts are made');
    });
  });
}
