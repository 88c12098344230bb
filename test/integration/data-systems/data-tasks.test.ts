/**
 * Data tasks (PRODUCT.md §2.9), processed by the real worker and handlers: the fan-out by request
 * type and category overlap, the request's end decided by its own step and its tasks (completed,
 * failed naming the systems, processing while a task is pending and not claimed again), the
 * systems' part of the package and of the deletion report, results (validation, immutability,
 * tenancy, tokens limited to systems), cancel, idempotent replays. On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { dialects } from '../../helpers/databases.js';
import { addSystem, postResult, tasksOf } from '../../helpers/data-systems.js';
import { createBody } from '../../helpers/requests.js';
import { type Fixture, auditOf, fileRequest, openFixture, requestRow, silentLog } from '../../helpers/worker.js';

const LEASE_MS = 60_000;

for (const dialect of dialects()) {
  describe(`data tasks (${dialect.name})`, () => {
    let f: Fixture;
    let admin: string;
    let reporter: string;
    const db = () => f.t.services.database.db;
    const worker = () =>
      createWorker({
        database: f.t.services.database,
        clock: f.time.clock,
        log: silentLog,
        pseudonymKey: f.t.services.keys.pseudonymKey,
        handlers: REQUEST_HANDLERS,
        options: { pollMs: 10, leaseMs: LEASE_MS, maxAttempts: 3 },
      });
    /** Files a request in workspace `ws` and processes everything queued. */
    async function fileAndProcess(overrides: Record<string, unknown>) {
      const filed = await fileRequest(f, overrides);
      const w = worker();
      while (await w.runOnce());
      return filed;
    }
    const getJson = async (url: string, auth = admin) => {
      const res = await f.t.app.inject({ method: 'GET', url, headers: { authorization: auth } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };

    before(async () => {
      f = await openFixture(dialect.create, { workspaces: ['acme', 'globex', 'initech'] });
      admin = await f.t.bearer(['admin'], ['acme', 'globex', 'initech']);
      reporter = await f.t.bearer(['tasks:write'], ['acme', 'globex', 'initech']);
      // These tests are about how tasks decide a request's end, for a subject nothing here knows:
      // the review of such identities (PRODUCT §2.13) is off; identity-unmatched.test.ts covers it.
      for (const ws of ['acme', 'globex', 'initech'])
        await f.t.services.policies.putLayer(ws, null, { confirm_no_data: false }, 'test');
      // acme: the systems every test below meets.
      await addSystem(f.t, admin, { key: 'crm', categories: ['user'], request_types: ['access', 'export', 'deletion'] });
      await addSystem(f.t, admin, {
        key: 'mailer',
        categories: ['user.contact.email'],
        request_types: ['access', 'deletion'],
        due_days: 3,
      });
      await addSystem(f.t, admin, { key: 'analytics', categories: ['user.content'], request_types: ['access'] });
      await addSystem(f.t, admin, { key: 'billing', categories: ['user.name'], request_types: ['deletion'] });
      const gone = await addSystem(f.t, admin, { key: 'legacy', categories: ['user'], request_types: ['access', 'deletion'] });
      await f.t.app.inject({ method: 'DELETE', url: `/api/v1/data-systems/${gone.id}`, headers: { authorization: admin } });
    });
    after(() => f.close());

    it('fans out one task per live system of the type whose categories overlap the scope (both ways), audited', async () => {
      const filed = await fileAndProcess({ request_type: 'access', scope: ['user.contact'] });
      const tasks = await tasksOf(db(), filed.id);
      // crm (user ⊇ user.contact), mailer (user.contact ⊇ user.contact.email); not analytics (no
      // overlap), billing (deletion only) or legacy (deleted).
      assert.deepEqual(
        tasks.map((t) => [t.system_key, JSON.parse(t.categories), t.status, t.request_type]),
        [
          ['crm', ['user.contact'], 'pending', 'access'],
          ['mailer', ['user.contact.email'], 'pending', 'access'],
        ],
      );
      const row = await requestRow(f, filed.id);
      const crm = tasks[0]!;
      const mailer = tasks[1]!;
      assert.equal(crm.due_at, row.due_at, 'no due_days: the request’s due date');
      assert.equal(
        mailer.due_at,
        new Date(Date.parse(mailer.created_at) + 3 * 86_400_000).toISOString(),
        'created + 3 days is earlier',
      );
      assert.match(crm.id, /^task_/);
      const audit = await auditOf(f, crm.id);
      assert.deepEqual(
        audit.map((a) => [a.action, a.details.request_id, a.details.system_key]),
        [['data_task.created', filed.id, 'crm']],
      );
    });

    it('stays processing (unleased, not claimed again even after the lease time) until the last result completes it; the package has systems.<key>', async () => {
      const filed = await fileAndProcess({ request_type: 'access', scope: ['user'] });
      let row = await requestRow(f, filed.id);
      assert.equal(row.status, 'processing');
      assert.equal(row.lease_owner, null);
      assert.equal(row.status_reason, 'waiting for data tasks: analytics, crm, mailer');
      assert.equal(row.completed_at, null);
      f.time.set(new Date(f.time.clock().getTime() + 2 * LEASE_MS).toISOString());
      assert.equal(await worker().runOnce(), false, 'a request waiting for its tasks is not claimed');
      assert.equal((await requestRow(f, filed.id)).attempts, row.attempts);
      const pkgBefore = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${filed.id}/package`,
        headers: { authorization: f.auth },
      });
      assert.equal(pkgBefore.statusCode, 409, 'no package while tasks are pending');

      const [analytics, crm, mailer] = await tasksOf(db(), filed.id);
      const a = await postResult(f.t, reporter, analytics!.id, { outcome: 'not_applicable', note: 'no such user' });
      assert.equal(a.statusCode, 200, a.body);
      assert.equal(a.json().status, 'not_applicable');
      const c = await postResult(f.t, reporter, crm!.id, {
        outcome: 'completed',
        records: { 'user.contact.email': 2 },
        data: { 'user.contact.email': ['ada@crm.example'], 'user.name': { first: 'Ada' } },
      });
      assert.equal(c.statusCode, 200, c.body);
      row = await requestRow(f, filed.id);
      assert.equal(row.status, 'processing');
      assert.equal(row.status_reason, 'waiting for data tasks: mailer');
      const m = await postResult(f.t, reporter, mailer!.id, { outcome: 'completed', data: { 'user.contact.email': [] } });
      assert.equal(m.statusCode, 200, m.body);
      row = await requestRow(f, filed.id);
      assert.equal(row.status, 'completed');
      assert.equal(row.status_reason, null);
      assert.ok(row.completed_at);
      const pkg = await getJson(`/api/v1/privacy/requests/${filed.id}/package`, f.auth);
      assert.equal(pkg.format, 'privacy-access/1');
      assert.deepEqual(pkg.systems, {
        crm: { 'user.contact.email': ['ada@crm.example'], 'user.name': { first: 'Ada' } },
        mailer: { 'user.contact.email': [] },
      });
      const audit = await auditOf(f, filed.id);
      assert.deepEqual(audit.map((x) => x.action).slice(-2), ['privacy_request.awaiting_tasks', 'privacy_request.completed']);
      assert.equal(audit.at(-1)!.actor.startsWith('token:'), true, 'the last result’s reporter completed it');
      const taskAudit = await auditOf(f, crm!.id);
      assert.deepEqual(taskAudit.at(-1)!.details, {
        request_id: filed.id,
        system_key: 'crm',
        from: 'pending',
        to: 'completed',
        records: { 'user.contact.email': 2 },
        data_categories: ['user.contact.email', 'user.name'],
      });
      assert.ok(!JSON.stringify(taskAudit).includes('ada@crm.example'), 'no data in the audit trail');
      const stored = await db().selectFrom('data_tasks').select('result').where('id', '=', crm!.id).executeTakeFirstOrThrow();
      assert.deepEqual(
        JSON.parse(stored.result!),
        {
          outcome: 'completed',
          records: { 'user.contact.email': 2 },
          data_categories: ['user.contact.email', 'user.name'],
        },
        'the package is the one copy of the data once the request ended',
      );
    });

    it('fails naming the systems when a task failed, once the others are final', async () => {
      const filed = await fileAndProcess({ request_type: 'access', scope: ['user.contact.email'] });
      const [crm, mailer] = await tasksOf(db(), filed.id);
      assert.equal((await postResult(f.t, reporter, mailer!.id, { outcome: 'failed', note: 'timeout' })).statusCode, 200);
      assert.equal((await requestRow(f, filed.id)).status, 'processing');
      assert.equal(
        (await postResult(f.t, reporter, crm!.id, { outcome: 'completed', records: { 'user.contact.email': 1 } })).statusCode,
        200,
      );
      const row = await requestRow(f, filed.id);
      assert.equal(row.status, 'failed');
      assert.equal(row.status_reason, 'data task failed in: mailer');
      assert.equal(row.completed_at, null);
      assert.equal((await auditOf(f, filed.id)).at(-1)!.action, 'privacy_request.failed');
    });

    it('a deletion erases at once and completes when its tasks are final; the report lists each system’s erased and kept records', async () => {
      const filed = await fileAndProcess({ request_type: 'deletion', scope: ['user.name', 'user.contact'] });
      let row = await requestRow(f, filed.id);
      assert.equal(row.status, 'processing');
      const stored = await db()
        .selectFrom('request_results')
        .select('report')
        .where('request_id', '=', filed.id)
        .executeTakeFirstOrThrow();
      assert.ok(stored.report, 'the own erasure report is committed before the tasks end');
      const tasks = await tasksOf(db(), filed.id);
      assert.deepEqual(
        tasks.map((t) => t.system_key),
        ['billing', 'crm', 'mailer'],
      );
      const [billing, crm, mailer] = tasks;
      await postResult(f.t, reporter, billing!.id, {
        outcome: 'completed',
        erased: { 'user.name': 1 },
        kept: [{ category: 'user.name', reason: 'invoices: tax law, 10 years' }],
      });
      await postResult(f.t, reporter, crm!.id, { outcome: 'completed', erased: { 'user.contact.email': 3, 'user.name': 1 } });
      await postResult(f.t, reporter, mailer!.id, { outcome: 'not_applicable' });
      row = await requestRow(f, filed.id);
      assert.equal(row.status, 'completed');
      const report = await getJson(`/api/v1/privacy/requests/${filed.id}/report`, f.auth);
      assert.equal(report.format, 'erasure-report/1');
      // Systems were added with the name 'A system' (test/helpers/data-systems.ts).
      assert.deepEqual(report.systems, [
        {
          key: 'billing',
          name: 'A system',
          outcome: 'completed',
          categories: ['user.name'],
          erased: { 'user.name': 1 },
          kept: [{ category: 'user.name', reason: 'invoices: tax law, 10 years' }],
        },
        {
          key: 'crm',
          name: 'A system',
          outcome: 'completed',
          categories: ['user.contact', 'user.name'],
          erased: { 'user.contact.email': 3, 'user.name': 1 },
          kept: [],
        },
        { key: 'mailer', name: 'A system', outcome: 'not_applicable', categories: ['user.contact.email'], erased: {}, kept: [] },
      ]);
      assert.ok(Array.isArray(report.not_touched), 'the served report keeps its context');
    });

    it('refuses a result outside the task’s categories (422), a second result (409), data on a deletion task (422): nothing changes', async () => {
      const filed = await fileAndProcess({ request_type: 'deletion', scope: ['user.name'] });
      const [billing] = (await tasksOf(db(), filed.id)).filter((t) => t.system_key === 'billing');
      const outside = await postResult(f.t, reporter, billing!.id, {
        outcome: 'completed',
        erased: { 'user.contact.email': 1, 'user.name': 1 },
        kept: [{ category: 'user.ssn', reason: 'x' }],
      });
      assert.equal(outside.statusCode, 422);
      assert.deepEqual(
        (outside.json().detail as { loc: unknown[] }[]).map((d) => d.loc),
        [
          ['body', 'erased', 'user.contact.email'],
          ['body', 'kept', 0, 'category'],
        ],
      );
      const data = await postResult(f.t, reporter, billing!.id, { outcome: 'completed', data: { 'user.name': 'Ada' } });
      assert.equal(data.statusCode, 422);
      assert.deepEqual(data.json().detail[0].loc, ['body', 'data']);
      assert.ok(!data.body.includes('Ada'), 'the data is not echoed');
      const badOutcome = await postResult(f.t, reporter, billing!.id, { outcome: 'done', records: { 'user.name': -1 } });
      assert.equal(badOutcome.statusCode, 422);
      assert.deepEqual(
        (badOutcome.json().detail as { type: string }[]).map((d) => d.type),
        ['literal_error', 'greater_than_equal'],
      );
      const unchanged = await db().selectFrom('data_tasks').selectAll().where('id', '=', billing!.id).executeTakeFirstOrThrow();
      assert.deepEqual([unchanged.status, unchanged.result], ['pending', null]);
      assert.equal(
        (await postResult(f.t, reporter, billing!.id, { outcome: 'completed', erased: { 'user.name': 1 } })).statusCode,
        200,
      );
      const second = await postResult(f.t, reporter, billing!.id, { outcome: 'failed' });
      assert.equal(second.statusCode, 409);
      const final = await db().selectFrom('data_tasks').selectAll().where('id', '=', billing!.id).executeTakeFirstOrThrow();
      assert.equal(final.status, 'completed');
      assert.deepEqual(JSON.parse(final.result!), { outcome: 'completed', erased: { 'user.name': 1 } });
    });

    it('tenancy and scopes: another workspace’s token gets 404 (the task does not exist for it); privacy:read may read, not report', async () => {
      const filed = await fileAndProcess({ request_type: 'access', scope: ['user.content'] });
      const [analytics] = await tasksOf(db(), filed.id);
      const globex = await f.t.bearer(['tasks:write', 'privacy:read'], ['globex']);
      const foreign = await postResult(f.t, globex, analytics!.id, { outcome: 'completed' });
      assert.equal(foreign.statusCode, 404);
      assert.equal(foreign.json().detail, 'Data task not found');
      const read = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/data-tasks/${analytics!.id}`,
        headers: { authorization: globex },
      });
      assert.equal(read.statusCode, 404);
      const reader = await f.t.bearer(['privacy:read'], ['acme']);
      assert.equal((await getJson(`/api/v1/data-tasks/${analytics!.id}`, reader)).system_key, 'analytics');
      assert.equal((await postResult(f.t, reader, analytics!.id, { outcome: 'completed' })).statusCode, 403);
      const writerOnly = await f.t.bearer(['privacy:write'], ['acme']);
      assert.equal(
        (await f.t.app.inject({ method: 'GET', url: '/api/v1/data-tasks', headers: { authorization: writerOnly } })).statusCode,
        403,
      );
      const task = await db().selectFrom('data_tasks').select('status').where('id', '=', analytics!.id).executeTakeFirstOrThrow();
      assert.equal(task.status, 'pending');
    });

    it('a token limited to a system (--system) sees and answers only that system’s tasks', async () => {
      const { token } = await f.t.services.tokens.create({
        name: 'crm',
        scopes: ['tasks:write'],
        workspaces: ['acme'],
        systems: ['crm'],
        actor: 'test',
      });
      const limited = `Bearer ${token}`;
      const filed = await fileAndProcess({ request_type: 'access', scope: ['user.contact.email'] });
      const [crm, mailer] = await tasksOf(db(), filed.id);
      const answer = { outcome: 'completed', records: { 'user.contact.email': 1 } };
      assert.equal((await postResult(f.t, limited, mailer!.id, answer)).statusCode, 404);
      const list = await getJson('/api/v1/data-tasks?workspace_id=acme&limit=100', limited);
      assert.ok(list.items.length > 0);
      assert.ok(list.items.every((t: { system_key: string }) => t.system_key === 'crm'));
      assert.equal((await postResult(f.t, limited, crm!.id, answer)).statusCode, 200);
      const [summary] = (await f.t.services.tokens.list()).filter((t) => t.name === 'crm');
      assert.deepEqual(summary!.systems, ['crm']);
      await assert.rejects(
        f.t.services.tokens.create({
          name: 'x',
          scopes: ['tasks:write'],
          workspaces: ['acme'],
          systems: ['Not A Key'],
          actor: 'test',
        }),
        RangeError,
      );
    });

    it('cancel while tasks are pending: the request ends canceled, its tasks become not_applicable, audited', async () => {
      const filed = await fileAndProcess({ request_type: 'access', scope: ['user.contact.email'] });
      const res = await f.t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${filed.id}/cancel`,
        headers: { authorization: admin },
        payload: { reason: 'withdrawn by the subject' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'canceled');
      const tasks = await tasksOf(db(), filed.id);
      assert.deepEqual(
        tasks.map((t) => t.status),
        ['not_applicable', 'not_applicable'],
      );
      for (const task of tasks) {
        const audit = await auditOf(f, task.id);
        assert.deepEqual(audit.at(-1)!.action, 'data_task.not_applicable');
        assert.equal(audit.at(-1)!.details.request_id, filed.id);
      }
      assert.equal((await postResult(f.t, reporter, tasks[0]!.id, { outcome: 'completed' })).statusCode, 409);
    });

    it('a replay under the same Idempotency-Key creates no new request and no new task', async () => {
      const headers = { authorization: f.auth, 'idempotency-key': 'data-task-replay-key-1' };
      const payload = createBody({
        client_request_id: 'data-task-replay-0001',
        request_type: 'access',
        scope: ['user.contact.email'],
      });
      const first = await f.t.app.inject({ method: 'POST', url: '/api/v1/privacy/requests', headers, payload });
      assert.equal(first.statusCode, 202);
      const w = worker();
      while (await w.runOnce());
      const count = async () =>
        Number(
          (
            await db()
              .selectFrom('data_tasks')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      const replay = await f.t.app.inject({ method: 'POST', url: '/api/v1/privacy/requests', headers, payload });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.json().id, first.json().id);
      assert.equal(await w.runOnce(), false);
      assert.equal(await count(), before);
      assert.equal((await tasksOf(db(), first.json().id)).length, 2);
    });

    it('a correction the service completes at once (nothing to correct here) still waits for its systems, and its report lists them', async () => {
      await addSystem(f.t, admin, {
        workspace_id: 'initech',
        key: 'hr',
        categories: ['user.name'],
        request_types: ['correction'],
      });
      const filed = await fileAndProcess({ workspace_id: 'initech', request_type: 'correction', scope: ['user'] });
      assert.equal((await requestRow(f, filed.id)).status, 'processing');
      const [hr] = await tasksOf(db(), filed.id);
      assert.equal(
        (await postResult(f.t, reporter, hr!.id, { outcome: 'completed', records: { 'user.name': 1 }, note: 'name fixed' }))
          .statusCode,
        200,
      );
      assert.equal((await requestRow(f, filed.id)).status, 'completed');
      const report = await getJson(`/api/v1/privacy/requests/${filed.id}/report`, f.auth);
      assert.equal(report.format, 'correction-report/1');
      assert.deepEqual(report.systems, [
        {
          key: 'hr',
          name: 'A system',
          outcome: 'completed',
          categories: ['user.name'],
          erased: {},
          kept: [],
          note: 'name fixed',
        },
      ]);
    });

    it('a later deletion of the subject removes the erased categories from the systems’ part of earlier packages too', async () => {
      const subject = { subject_provider: 'github', subject_id: 'erase-me-4242' };
      const access = await fileAndProcess({ ...subject, request_type: 'access', scope: ['user.contact', 'user.name'] });
      for (const task of await tasksOf(db(), access.id)) {
        const data =
          task.system_key === 'crm' ? { 'user.contact.email': ['e@crm.example'], 'user.name': 'Ada' } : { user: { all: 1 } };
        assert.equal(
          (await postResult(f.t, reporter, task.id, { outcome: 'completed', data: task.system_key === 'crm' ? data : {} }))
            .statusCode,
          200,
        );
      }
      assert.equal((await requestRow(f, access.id)).status, 'completed');
      // Delivered first: an answer nobody fetched yet is kept until its one fetch (answer-in-transit.test.ts).
      const given = await getJson(`/api/v1/privacy/requests/${access.id}/package`, f.auth);
      assert.deepEqual(given.systems.crm['user.contact.email'], ['e@crm.example']);
      await fileAndProcess({ ...subject, request_type: 'deletion', scope: ['user.contact.email'] });
      const pkg = await getJson(`/api/v1/privacy/requests/${access.id}/package`, f.auth);
      assert.deepEqual(pkg.systems.crm, { 'user.name': 'Ada' }, 'the e-mail the CRM reported is gone, the name stays');
      assert.ok(!JSON.stringify(pkg).includes('e@crm.example'));
    });

    it('lists tasks newest first in cursor pages, filtered by system and status; a bad cursor or one of another query is 422, as a bad query', async () => {
      const all = await getJson('/api/v1/data-tasks?workspace_id=acme&system_key=crm&limit=100');
      assert.ok(all.items.length >= 3);
      assert.ok(all.items.every((t: { system_key: string }) => t.system_key === 'crm'));
      const ids = all.items.map((t: { id: string }) => t.id);
      assert.deepEqual(ids, [...ids].sort().reverse(), 'newest first');
      const first = await getJson('/api/v1/data-tasks?workspace_id=acme&system_key=crm&limit=2');
      assert.deepEqual(
        first.items.map((t: { id: string }) => t.id),
        ids.slice(0, 2),
      );
      const second = await getJson(`/api/v1/data-tasks?workspace_id=acme&system_key=crm&limit=2&cursor=${first.next_cursor}`);
      assert.deepEqual(
        second.items.map((t: { id: string }) => t.id),
        ids.slice(2, 4),
      );
      const pending = await getJson('/api/v1/data-tasks?workspace_id=acme&status=pending&limit=100');
      assert.ok(pending.items.length > 0 && pending.items.every((t: { status: string }) => t.status === 'pending'));
      const badCursor = await f.t.app.inject({
        method: 'GET',
        url: '/api/v1/data-tasks?cursor=nope',
        headers: { authorization: admin },
      });
      assert.equal(badCursor.statusCode, 422, badCursor.body);
      assert.deepEqual(badCursor.json().detail[0].loc, ['query', 'cursor']);
      // A cursor is bound to its query: the next page of crm tasks is not a page of all tasks.
      const otherQuery = await f.t.app.inject({
        method: 'GET',
        url: `/api/v1/data-tasks?workspace_id=acme&limit=2&cursor=${first.next_cursor}`,
        headers: { authorization: admin },
      });
      assert.equal(otherQuery.statusCode, 422, otherQuery.body);
      const badQuery = await f.t.app.inject({
        method: 'GET',
        url: '/api/v1/data-tasks?status=done&limit=0&system_key=Bad',
        headers: { authorization: admin },
      });
      assert.equal(badQuery.statusCode, 422);
      assert.deepEqual(
        (badQuery.json().detail as { loc: unknown[] }[]).map((d) => d.loc),
        [
          ['query', 'system_key'],
          ['query', 'status'],
          ['query', 'limit'],
        ],
      );
      const foreign = await f.t.app.inject({
        method: 'GET',
        url: '/api/v1/data-tasks?workspace_id=umbrella',
        headers: { authorization: admin },
      });
      assert.equal(foreign.statusCode, 403);
    });

    it('a deleted system’s open task stays and can still be answered; a workspace without systems completes as before', async () => {
      const sys = await addSystem(f.t, admin, {
        workspace_id: 'initech',
        key: 'old-desk',
        categories: ['user'],
        request_types: ['access'],
      });
      const filed = await fileAndProcess({ workspace_id: 'initech', request_type: 'access', scope: ['user'] });
      await f.t.app.inject({ method: 'DELETE', url: `/api/v1/data-systems/${sys.id}`, headers: { authorization: admin } });
      const [task] = await tasksOf(db(), filed.id);
      assert.equal((await postResult(f.t, reporter, task!.id, { outcome: 'completed', records: { user: 2 } })).statusCode, 200);
      assert.equal((await requestRow(f, filed.id)).status, 'completed');
      const plain = await fileAndProcess({ workspace_id: 'globex', request_type: 'deletion', scope: ['user'] });
      const row = await requestRow(f, plain.id);
      assert.equal(row.status, 'completed');
      assert.deepEqual(await tasksOf(db(), plain.id), []);
      assert.deepEqual(
        (await auditOf(f, plain.id)).map((a) => a.action),
        ['privacy_request.created', 'privacy_request.completed'],
      );
    });
  });
}
